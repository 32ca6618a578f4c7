"""A browser's choices for its seats (``prefs``, with its hello or on their own): what a
click on a die does, and the pause before a computer. They change no die and no score:
only what the seat's clicks and snapshot mean."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from yacht.engine import Choose
from yacht.store import Store

from .browser import Browser
from .conftest import new_table, serve


def test_a_page_that_holds_its_dice_says_so_with_its_hello(client: TestClient,
                                                           store: Store) -> None:
    made = new_table(client, "yatzy")
    with Browser(client, made["id"], made["token"], prefs={"dice_mark": "variant"}) as page:
        snap = page.snap
        assert snap["dice_mark"] == "hold"  # Yatzy's way: a click holds the die
        assert page.act({"type": "roll"})["type"] == "ack"
        for position in (0, 1):
            assert page.act({"type": "toggle", "position": position})["type"] == "ack"
        snap = page.wait(lambda t: t["snapshot"]["marks"][:2] == ["held", "held"])["snapshot"]
        assert snap["to_roll"] == [2, 3, 4] and snap["chosen"] == [2, 3, 4]  # (saved)
        assert "not held" in snap["help"]
        dice = snap["dice"]
        assert page.act({"type": "roll"})["type"] == "ack"
        after = page.wait(lambda t: t["snapshot"]["rolls"] == 2)["snapshot"]
        assert after["dice"][:2] == dice[:2]  # the held dice stayed
        assert after["marks"][:2] == ["held", "held"]  # and are held for the next roll
        record = store.load_record(after["game_id"])
        # a hold is saved as the choice of the other dice (each click; kept after a roll)
        choices = [a for a in record.actions if isinstance(a, Choose)]
        assert choices[:2] == [Choose((1, 2, 3, 4)), Choose((2, 3, 4))]
        assert set(choices[1:]) == {Choose((2, 3, 4))}


def test_a_page_changes_its_way_with_the_dice_during_the_game(client: TestClient) -> None:
    made = new_table(client, "yatzy")
    with Browser(client, made["id"], made["token"]) as page:
        assert page.snap["dice_mark"] == "reroll"  # (a page that said nothing)
        page.act({"type": "roll"})
        page.act({"type": "toggle", "position": 4})
        version = page.wait(lambda t: t["snapshot"]["marks"][4] == "roll")["snapshot"]["version"]
        assert page.ask("prefs", dice_mark="hold")["type"] == "ack"
        snap = page.wait(lambda t: t["snapshot"]["dice_mark"] == "hold")["snapshot"]
        # the same dice roll: die 5 marked to roll again is every other die held
        assert snap["marks"] == ["held", "held", "held", "held", ""] and snap["to_roll"] == [4]
        assert snap["version"] == version  # (the game is as it was)
        assert page.act({"type": "toggle", "position": 0}, version=version)["type"] == "ack"
        snap = page.wait(lambda t: t["snapshot"]["marks"][0] == "")["snapshot"]
        assert snap["to_roll"] == [0, 4]
        for bad in ({"dice_mark": "sideways"}, {"pause": "no"}, {"colour": "red"}):
            refused = page.ask("prefs", **bad)
            assert refused["type"] == "error" and refused["code"] == "bad_request", bad
            assert len(refused["message"].splitlines()) == 1


def test_a_watchers_choices_change_nothing(client: TestClient) -> None:
    made = new_table(client, "yatzy")
    with Browser(client, made["id"], made["token"], prefs={"dice_mark": "reroll"}) as page, \
            Browser(client, made["id"], None, prefs={"dice_mark": "hold"}) as watcher:
        page.act({"type": "roll"})
        page.act({"type": "toggle", "position": 2})
        assert watcher.ask("prefs", dice_mark="reroll", pause=False)["type"] == "ack"
        seen = watcher.wait(lambda t: t["snapshot"]["rolls"] == 1
                            and t["snapshot"]["chosen"] == [2])["snapshot"]
        assert seen["dice_mark"] == "hold"  # a watcher sees the variant's way
        assert seen["marks"] == ["held", "held", "", "held", "held"]
        assert page.snap["marks"] == ["", "", "roll", "", ""]


def test_without_the_pause_the_computer_goes_on(store: Store, monkeypatch: Any) -> None:
    import yacht.session.table as table_module

    monkeypatch.setattr(table_module, "MOMENT", 600.0)  # (the moment lasts the test)
    for client in serve(store):
        made = new_table(client, "tommys-crag", seats=[
            {"kind": "person", "name": "Ann", "here": True},
            {"kind": "beginner", "name": "Cpu"}])
        with Browser(client, made["id"], made["token"], prefs={"pause": False}) as page:
            page.act({"type": "roll"})
            box = page.wait(lambda t: bool(t["snapshot"]["previews"]))["snapshot"]["previews"][0]
            answer = page.act({"type": "score", "category": box["category"]})
            assert answer["type"] == "ack"
            snap = page.wait(lambda t: t["snapshot"]["current"] == 1)["snapshot"]
            assert snap["pause"] is None and snap["can"]["take_back"]
            assert any(e["kind"] == "went_on" and e["data"].get("at_once")
                       for e in page.events)
            # the score can be taken back until the computer rolls (a moment later)
            assert page.act({"type": "take_back"})["type"] == "ack"
            back = page.wait(lambda t: t["snapshot"]["current"] == 0)["snapshot"]
            assert back["dice"] and back["can"]["score"]


def first_hint(snap: dict[str, Any]) -> str:
    return str(snap["hint_notice"])


def test_the_snapshot_says_what_the_first_hint_does(client: TestClient) -> None:
    made = new_table(client, "tommys-crag")
    with Browser(client, made["id"], made["token"]) as page:
        page.act({"type": "roll"})
        snap = page.wait(lambda t: bool(t["snapshot"]["dice"]))["snapshot"]
        assert first_hint(snap) == ("A hint marks the game assisted: Ann's score goes to the "
                                    "list apart from the top ten.")
        assert page.ask("hint")["type"] == "hint"
        snap = page.wait(lambda t: t["snapshot"]["assisted"])["snapshot"]
        assert first_hint(snap) == ""  # asked once: the next hint comes at once
