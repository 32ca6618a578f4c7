"""QA, the commands as a new user meets them: `yacht replay --json` said nothing of a
game won at once (Generala's served Generala ends it, whatever the cards hold: the text
says so); it names the winner's index and the sentence, as the analysis does."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.engine import Player, Record, Roll, Score, State
from yacht.rules import get


def replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["replay", str(path), "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def test_a_game_won_at_once_says_so_in_the_json(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    s = State(get("generala"), [Player("Ann"), Player("Bob")], rng=random.Random(1))
    s.apply(Roll((2, 2, 3, 3, 3)))
    s.apply(Score("full"))                   # served: 35
    s.apply(Roll((1, 2, 4, 5, 6)))
    s.apply(Score("ones"))
    s.apply(Roll((1, 2, 4, 5, 6)))
    s.apply(Score("ones"))
    s.apply(Roll((4, 4, 4, 4, 4)))           # Bob's served Generala: the game is over
    path = tmp_path / "served.json"
    Record.from_state(s).save(path)
    out = replay_json(path, capsys)
    # the totals alone would name Ann (36 to 1)
    assert out["totals"] == [36, 1] and out["winners"] == [1] and out["finished"] is True
    assert out["ended_by"] == 1
    assert out["ended_text"] == ("The game ended at once: Bob won with a served Generala "
                                 "(five of a kind on the first roll); the cards count as "
                                 "they stood.")   # (the analysis's words: its to_json)


def test_a_game_played_on_has_no_one_who_ended_it(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    assert main(["selfplay", "generala", "--players", "2", "--seed", "3", "--out",
                 str(path)]) == 0
    capsys.readouterr()
    out = replay_json(path, capsys)
    assert out["finished"] is True and out["ended_by"] is None and out["ended_text"] == ""
