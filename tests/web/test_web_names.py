"""Names at one table: every player's name must be one the others can tell from theirs
(QA s20: lookalike letters, the names of a duplicate table's other cards)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from .browser import Browser
from .conftest import new_table

#: names that read as "Ann": any case, a full-width and a mathematical A, a Cyrillic A,
#: a variation selector after a letter (it draws nothing there)
LOOKALIKES = ["ANN", "\uff21nn", "\U0001d400nn", "\u0410nn", "\u0410NN", "Ann\ufe0f",
              "A\U000e0100nn"]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_new_table_refuses_two_names_that_read_alike(client: TestClient, name: str) -> None:
    """A table was made with "Ann" and "Ａnn" (a full-width A) or "Аnn" (a Cyrillic A):
    two players the others cannot tell apart on the card or in the list of tables."""
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann"}, {"kind": "expert", "name": name}]})
    assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
    assert name in r.json()["error"]


def test_a_seat_is_not_taken_under_a_name_that_reads_as_another(client: TestClient) -> None:
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "person", "here": False},
                                          {"kind": "expert", "name": "Max"}])
    with Browser(client, t["id"], t["token"]), Browser(client, t["id"]) as eve:
        for name in [*LOOKALIKES, "M\u0430x", "max"]:
            reply = eve.ask("join", seat=1, name=name)
            assert reply["type"] == "error" and reply["code"] == "conflict", (name, reply)
        assert not eve.seats and eve.table["seats"][1]["open"]
        # a name that only has an accent more is another name
        assert eve.ask("join", seat=1, name="\u00c1nn")["type"] == "joined"


def test_a_friends_card_is_not_taken_under_a_name_of_the_group(client: TestClient) -> None:
    """Each card of a duplicate table is a table of one: a friend took theirs under the
    name of another card's player ("ann" beside "Ann", "Max" beside the computer Max),
    and the field and its ranking had two players of one name."""
    t = new_table(client, "yatzy", dice="duplicate", seats=[
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "person", "here": False},
        {"kind": "expert", "name": "Max"}])
    group = client.get(f"/api/groups/{t['group']}").json()
    friend = next(c["url"] for c in group["cards"] if c["url"]).rsplit("/", 1)[1]
    with Browser(client, friend) as bob:
        for name in ("ann", "\u0410nn", "MAX"):
            reply = bob.ask("join", seat=0, name=name)
            assert reply["type"] == "error" and reply["code"] == "conflict", (name, reply)
        assert bob.ask("join", seat=0, name="Bob")["type"] == "joined"
    names = [c["name"] for c in client.get(f"/api/groups/{t['group']}").json()["cards"]]
    assert names == ["Ann", "Bob", "Max"]


def test_a_join_never_takes_a_token_the_browser_made_up(client: TestClient) -> None:
    """A join's ``token`` is for a second seat of the same browser; a token this table
    never gave was taken as the seat's secret (QA s20: a stranger joined under
    "aaaaaaaaaaaaaaaa", and anyone saying hello with it held the seat, and a second
    stranger joining with it held both). Now such a join is given a new token."""
    t = new_table(client, "yatzy", seats=[{"kind": "person", "name": "Ann", "here": True},
                                          {"kind": "person", "here": False},
                                          {"kind": "person", "here": False}])
    weak = "a" * 16
    with Browser(client, t["id"]) as eve:
        reply = eve.ask("join", seat=1, name="Eve", token=weak)
        assert reply["type"] == "joined" and reply["token"] != weak and reply["seats"] == [1]
        given = reply["token"]
    with Browser(client, t["id"], weak) as guess:
        assert guess.seats == []
    with Browser(client, t["id"], given) as eve:  # a second seat with the token given
        reply = eve.ask("join", seat=2, name="Eva", token=given)
        assert reply["type"] == "joined" and reply["token"] == given
        assert reply["seats"] == [1, 2]


def test_a_daily_challenge_refuses_a_name_that_reads_as_another_of_the_day(
        client: TestClient) -> None:
    """The day's standings listed "Аnn" (a Cyrillic A) beside Ann, each ranked: a
    stranger could stand in the standings as someone else (QA s20)."""
    first = client.post("/api/daily", json={"variant": "yatzy", "name": "Ann"})
    assert first.status_code == 200, first.text
    for name in ("\u0410nn", "\uff21nn", "ANN"):
        r = client.post("/api/daily", json={"variant": "yatzy", "name": name})
        assert r.status_code == 409 and r.json()["code"] == "conflict", (name, r.text)
    assert "looks like Ann" in client.post(
        "/api/daily", json={"variant": "yatzy", "name": "\u0410nn"}).json()["error"]
    assert client.post("/api/daily", json={"variant": "yatzy", "name": "Bob"}).status_code == 200
    # another variant's challenge is another field
    assert client.post("/api/daily", json={"variant": "yahtzee",
                                           "name": "\u0410nn"}).status_code == 200
