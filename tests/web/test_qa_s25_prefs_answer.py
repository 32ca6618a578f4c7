"""A browser's ``prefs`` changes its seat's snapshot (what a click on a die means):
it was answered with that state and then an ack of its own, two frames where a
command's state carries its id (PROTOCOL.md: one frame whenever a state is due)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .browser import Browser
from .conftest import new_table


def test_prefs_are_answered_on_the_state_they_made(client: TestClient) -> None:
    made = new_table(client, "yatzy")
    with Browser(client, made["id"], made["token"]) as ann:
        ann.wait(lambda table: table.get("phase") == "game")
        assert ann.snap["dice_mark"] == "reroll"
        ann.ws.send_json({"type": "prefs", "dice_mark": "hold", "id": 5})
        answer = ann.until(lambda m: m.get("id") == 5)
        assert answer["type"] == "state", answer
        assert answer["table"]["snapshot"]["dice_mark"] == "hold"  # it shows the change
        # nothing else answers 5: the next answer is the next message's
        ann.ws.send_json({"type": "ping", "id": 6})
        assert ann.until(lambda m: "id" in m) == {"type": "pong", "id": 6}
        # prefs that change nothing seen (a watcher's, the pause alone) are still answered
        ann.ws.send_json({"type": "prefs", "pause": False, "id": 7})
        again = ann.until(lambda m: "id" in m)
        assert again["id"] == 7 and again["type"] in ("state", "ack"), again
        ann.ws.send_json({"type": "ping", "id": 8})
        assert ann.until(lambda m: "id" in m) == {"type": "pong", "id": 8}
