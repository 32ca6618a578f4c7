"""The hint over the WebSocket: the moves best for the score and, where the chance of
winning can be worked out, the ranking to win (issue 15 item 3)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from yacht.engine import Player, Roll, Score, State
from yacht.rules import get
from yacht.store import Store

from .browser import Browser
from .conftest import new_table

# Yahtzee, each box with the dice scored in it: the expert's card (291: the upper bonus,
# a Yahtzee) and Ann's (233, Small Straight still open, a Yahtzee in its box)
_EXPERT = [("ones", (1, 1, 1, 4, 5)), ("twos", (2, 2, 2, 2, 6)), ("threes", (3, 3, 3, 3, 1)),
           ("fours", (4, 4, 4, 4, 1)), ("fives", (5, 5, 2, 3, 1)), ("sixes", (6, 6, 6, 6, 1)),
           ("three_of_a_kind", (4, 4, 4, 3, 5)), ("four_of_a_kind", (5, 5, 5, 5, 2)),
           ("full_house", (1, 2, 3, 4, 6)), ("small_straight", (1, 2, 3, 4, 6)),
           ("large_straight", (1, 2, 3, 4, 5)), ("yahtzee", (6, 6, 6, 6, 6)),
           ("chance", (6, 5, 4, 3, 3))]
_ANN = [("ones", (2, 3, 4, 6, 6)), ("twos", (2, 3, 4, 6, 6)), ("threes", (3, 3, 3, 1, 2)),
        ("fours", (4, 4, 4, 1, 2)), ("fives", (5, 1, 2, 3, 6)), ("sixes", (6, 6, 6, 1, 2)),
        ("three_of_a_kind", (6, 6, 6, 4, 5)), ("four_of_a_kind", (5, 5, 5, 5, 6)),
        ("full_house", (2, 2, 3, 3, 3)), ("large_straight", (2, 3, 4, 5, 6)),
        ("yahtzee", (4, 4, 4, 4, 4)), ("chance", (5, 5, 4, 3, 2))]
#: Ann's last roll: for the score she goes for the straight (keep 4 5), to win she needs
#: a second Yahtzee (100 more and the straight's 30 as a joker): keep 5 5 5
LAST_ROLL = (5, 5, 4, 5, 2)


def behind_on_the_last_turn(last: tuple[int, ...] = LAST_ROLL) -> State:
    """2-player Yahtzee: the expert has finished with 291; Ann, 58 behind, has rolled
    ``last`` in her last turn (two rolls left), Small Straight open."""
    s = State(get("yahtzee"), [Player("Max", "computer", "expert"), Player("Ann")],
              rng=random.Random(16))
    for i, (box, dice) in enumerate(_EXPERT):
        s.apply(Roll(dice))
        s.apply(Score(box))
        if i < len(_ANN):
            s.apply(Roll(_ANN[i][1]))
            s.apply(Score(_ANN[i][0]))
    s.apply(Roll(last))
    assert s.current == 1 and s.returns() == [291, 233] and s.rolls_left == 2
    return s


def resume_at_a_table(client: TestClient, store: Store, state: State) -> dict[str, Any]:
    """The saved game at a table of this browser: {id, token, url}."""
    from yacht.engine import Record
    from yacht.web.claims import hand_to_browser

    gid = store.start_game(Record.from_state(state, source="tui"))
    row, key = hand_to_browser(store, gid)
    r = client.post(f"/api/tables/{row.id}/claim", json={"key": key})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


MOVE_FIELDS = {"text", "expected", "loss", "reroll", "category", "column"}


def test_the_hint_gives_both_rankings_when_they_differ(client: TestClient,
                                                       store: Store) -> None:
    t = resume_at_a_table(client, store, behind_on_the_last_turn())
    with Browser(client, t["id"], t["token"]) as b:
        assert b.seats == [1] and b.snap["dice"] == list(LAST_ROLL)
        hint = b.ask("hint")
        assert hint["type"] == "hint", hint
        moves, win = hint["moves"], hint["to_win"]
        # the ranking for the score, as before
        assert all(set(m) == MOVE_FIELDS for m in moves)
        assert moves[0]["loss"] == 0 and moves[0]["text"] == "Keep 4 5 and roll the other three"
        # the ranking to win: exact (the expert has finished), best first
        assert win["title"] == "Best to win" and win["exact"] and win["differ"]
        assert win["how"] == "exact: the opponents have finished"
        assert all(set(m) == MOVE_FIELDS | {"chance"} for m in win["moves"])
        best = win["moves"][0]
        assert best["text"] == "Keep 5 5 5 and roll the other two"
        assert best["reroll"] == [2, 4] and best["category"] is None
        assert 0.05 < best["chance"] < 0.2  # a second Yahtzee in two rolls
        chances = [m["chance"] for m in win["moves"]]
        assert chances == sorted(chances, reverse=True) and chances[0] > chances[-1]
        # the hint marked Ann assisted (her first says so, a second not); the page's
        # dialog plays the move it shows
        b.wait(lambda tb: tb["snapshot"]["assisted"])
        assert hint["marked"] is True and b.ask("hint")["marked"] is False
        assert b.act({"type": "choose", "dice": best["reroll"]})["type"] == "ack"
        assert b.act({"type": "roll"})["type"] == "ack"
        b.wait(lambda tb: tb["snapshot"]["rolls_left"] == 1)
        assert [b.snap["dice"][i] for i in (0, 1, 3)] == [5, 5, 5]


def test_the_ranking_to_win_says_when_it_agrees(client: TestClient, store: Store) -> None:
    t = resume_at_a_table(client, store, behind_on_the_last_turn((5, 5, 5, 5, 2)))
    with Browser(client, t["id"], t["token"]) as b:
        hint = b.ask("hint")
        best, win = hint["moves"][0], hint["to_win"]
        assert best["text"] == "Keep 5 5 5 5 and roll the other one"
        assert not win["differ"] and win["moves"][0]["text"] == best["text"]
        assert win["moves"][0]["chance"] == round(11 / 36, 4)  # a 5, or a straight


def test_from_the_first_turn_the_ranking_to_win_is_exact(client: TestClient) -> None:
    """Issue 26: the chances of winning come from the score distributions, so the hint
    ranks to win from the first turn (no longer only near the end), once they are built
    (a hint never waits for their first build)."""
    from yacht.rules import get
    from yacht.strategy.solver.dist import distributions

    distributions(get("tommys-crag"))
    t = new_table(client, "tommys-crag", seats=[
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "expert", "name": "Max"}])
    with Browser(client, t["id"], t["token"]) as b:
        assert b.act({"type": "roll"})["type"] == "ack"
        hint = b.ask("hint")
        assert hint["type"] == "hint" and hint["moves"]
        win = hint["to_win"]
        assert win is not None and win["exact"] is True and win["moves"]
        chances = [m["chance"] for m in win["moves"]]
        assert chances == sorted(chances, reverse=True) and 0 < chances[0] < 1
