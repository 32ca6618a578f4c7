"""The messages of all the WebSockets of one address share one budget (QA s25: each
socket had its own rate alone, so 200 sockets of one stranger at 20 a second each were
4,000 messages a second). Past it every message waiting for an answer is told
``flood`` as past a socket's own rate; a socket opened afresh starts with no budget of
its own (its hello is counted: past the budget it is closed, 1013); another address is
not touched, and the server goes on. A family's pages behind one router stay far below."""

from __future__ import annotations

import pytest

from yacht.store import Store
from yacht.web import channel
from yacht.web.limits import (
    MESSAGES_ENV,
    SOCKETS,
    AddressRate,
    address_key,
    configured_messages,
)

from .conftest import ThreadServer, random_players
from .real_sockets import RealPage

ONE = {"variant": "yatzy", "seats": [{"kind": "person", "name": "Ann", "here": True}]}


def test_the_sockets_of_one_address_share_its_budget(store: Store) -> None:
    from yacht.web import make_app

    # a budget of 30 that does not grow back while the test runs (a token in 1,000 s)
    app = make_app(store, strategy_factory=random_players, allowed_hosts=["127.0.0.1"],
                   messages=(0.001, 30))
    with ThreadServer(app) as server:
        made = server.post("/api/tables", ONE)
        path = f"/ws/{made['id']}"
        # five pages of one address: their hellos are five of the 30
        pages = [RealPage(server.port, path, "127.0.0.2") for _ in range(5)]
        for page in pages:
            page.until(lambda m: m["type"] == "state")
        sent = [(page, page.send({"type": "ping"})) for page in pages for _ in range(10)]
        answers = [page.answer(i) for page, i in sent]
        # each socket sent 10, within its own rate (40 at once): the address's 25 left
        # are answered, the rest told flood, whichever socket sent them
        assert sum(a["type"] == "pong" for a in answers) == 25
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) == 25 and {a["code"] for a in refused} == {"flood"}
        assert refused[0]["message"] == "too many messages from this address: at most " \
                                        "0.001 a second"
        for page in pages:
            page.close()
        # a socket opened afresh has no budget of its own: its hello is refused
        again = RealPage(server.port, path, "127.0.0.2")
        assert again.closed() == 1013
        assert again.seen[0]["type"] == "error" and again.seen[0]["code"] == "flood"
        # another address has its own; the server goes on
        other = RealPage(server.port, path, "127.0.0.3", {"type": "hello",
                                                          "token": made["token"]})
        assert other.ask({"type": "ping"})["type"] == "pong"
        assert other.ask({"type": "command", "command": {"type": "roll"},
                          "version": 0})["type"] == "ack"
        other.close()
        # a duplicate table's field watchers spend the same budget
        field = RealPage(server.port, "/ws/d/" + server.post("/api/tables", {
            "variant": "yatzy", "dice": "duplicate", "seats": [
                {"kind": "person", "name": "Ann", "here": True},
                {"kind": "expert"}]})["group"], "127.0.0.2", {"type": "hello"})
        assert field.closed() == 1013


def test_a_family_is_never_refused_and_a_stranger_gets_little() -> None:
    """The default budget (so many times a socket's rate) against what pages send: the
    page sends at most 15 a second (``socket.js``); a player at play one or two."""
    rate, burst = configured_messages(channel.RATE, channel.BURST) or (0.0, 0)
    assert (rate, burst) == (60.0, 240)
    assert burst >= SOCKETS   # every socket the address may hold says hello at once
    family = AddressRate(rate, burst)
    now = 0.0
    for _ in range(12):   # four people, three tabs each, opened at once
        assert family.take("a", now)
    for step in range(600):   # a minute of four pages at the page's most, all at once
        now = step * 0.1
        for _ in range(6):
            assert family.take("a", now)
    stranger = AddressRate(rate, burst)
    taken = 0
    for step in range(200):   # 200 sockets at a socket's own 20 a second, 10 s
        for _ in range(200 * 20 // 20):
            taken += stranger.take("s", step * 0.05)
    assert taken <= burst + rate * 10 + 1   # about 840 of 40,000


def test_budgets_are_forgotten_once_full_again() -> None:
    budget = AddressRate(10.0, 20)
    for i in range(1000):
        assert budget.take(f"10.0.{i // 256}.{i % 256}", 0.0)
    assert len(budget.buckets) == 1000
    for _ in range(20):
        budget.take("10.9.9.9", 0.0)
    assert not budget.take("10.9.9.9", 0.0)
    budget.take("10.9.9.9", 2.5)   # (2 s after: the quiet ones are full again)
    assert set(budget.buckets) == {"10.9.9.9"}
    budget.take("10.9.9.8", 10.0)   # (and the spent one once it is full again)
    assert set(budget.buckets) == {"10.9.9.8"}


def test_an_ipv6_network_is_one_address() -> None:
    """A home is handed a whole /64: a stranger holds billions of its addresses."""
    assert address_key("2001:db8:0:1::5") == address_key("2001:db8:0:1:ffff::9") == \
        "2001:db8:0:1::/64"
    assert address_key("2001:db8:0:2::5") != address_key("2001:db8:0:1::5")
    assert address_key("::ffff:198.51.100.4") == "198.51.100.4"
    assert address_key("198.51.100.4") != address_key("198.51.100.5")


def test_the_environment_sets_the_budget(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(MESSAGES_ENV, "0")
    assert configured_messages(20.0, 40) is None
    monkeypatch.setenv(MESSAGES_ENV, "100")
    assert configured_messages(20.0, 40) == (100.0, 400)
    monkeypatch.setenv(MESSAGES_ENV, "lots")
    assert configured_messages(20.0, 40) == (60.0, 240)
    assert "YACHT_MESSAGES='lots' is not a number" in capsys.readouterr().err
    monkeypatch.delenv(MESSAGES_ENV)
    assert configured_messages(1e9, 10**9) == (3e9, 6 * 10**9)   # (tests: no limit)
