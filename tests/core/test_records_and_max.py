"""Maximum totals computed from the rules, and records that are damaged or foreign."""

from __future__ import annotations

import json
import random
from itertools import combinations_with_replacement
from pathlib import Path

import pytest

from yacht.engine import Player, Record, RecordError, Roll, Score, State, random_turn
from yacht.rules import Ruleset, get


def max_total(rs: Ruleset) -> int:
    """Best possible total: each box's best roll, plus the bonus when reachable."""
    rolls = list(combinations_with_replacement(range(1, rs.faces + 1), rs.dice))
    best = {c.id: max(rs.scores(r)[c.id] for r in rolls) for c in rs.categories}
    upper = sum(best[c.id] for c in rs.categories if c.section == "upper")
    lower = sum(best[c.id] for c in rs.categories if c.section == "lower")
    bonus = rs.upper_bonus.amount_for(upper) if rs.upper_bonus else 0
    return sum(m * (upper + bonus + lower) for m in rs.columns)


@pytest.mark.parametrize(("variant", "expected"), [
    ("ancient-yacht", 288), ("yatcy", 370), ("tommys-crag", 244), ("sackson-yacht", 297),
    ("yatzy", 374), ("windows-yacht", 375), ("ancient-yacht-double", 3 * 288),
    ("kismet", 565), ("maxi-yatzy", 649), ("generala", 345),
])
def test_maximum_total(variant: str, expected: int) -> None:
    assert max_total(get(variant)) == expected


@pytest.mark.parametrize(("variant", "options", "expected"), [
    ("kismet", {}, 565), ("kismet", {"straight": "40"}, 575),
    ("maxi-yatzy", {}, 649), ("maxi-yatzy", {"bonus": "50@75"}, 599),
    ("generala", {}, 360),  # served escalera, full and poker: +5 each
    ("generala", {"served_bonus": "10", "generala_points": "60"}, 405),
    ("generala", {"doble": "off"}, 260),
])
def test_best_possible_beyond_the_seeds(variant: str, options: dict[str, str],
                                        expected: int) -> None:
    from yacht.session.comment import best_possible
    assert best_possible(get(variant, options)) == expected


def test_maximum_double_full_house_is_50() -> None:
    rs = get("ancient-yacht-10")
    rolls = combinations_with_replacement(range(1, 7), 10)
    assert max(rs.scores(r)["double_full_house"] for r in rolls) == 50


def _record(tmp_path: Path) -> Path:
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(3))
    random_turn(s, random.Random(4))
    path = tmp_path / "g.json"
    Record.from_state(s).save(path)
    return path


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.pop("format"), "not a yacht game record"),
    (lambda d: d.update(version=99), "newer than this program"),
    (lambda d: d.update(variant="chess"), "unknown variant"),
    (lambda d: d.update(options={"rolls": "9"}), "no option"),
    (lambda d: d.update(players=[]), "players"),
    (lambda d: d["actions"].append({"type": "jump"}), "unknown action type"),
    (lambda d: d["actions"].insert(0, {"type": "score", "category": "yatzy", "column": 0}),
     "cannot be replayed"),
    (lambda d: d["actions"][0].update(result=[7, 7, 7, 7, 7]), "cannot be replayed"),
    (lambda d: d.pop("actions"), "no 'actions'"),
])
def test_damaged_records_are_refused_with_a_reason(tmp_path: Path, mutate: object,
                                                   message: str) -> None:
    path = _record(tmp_path)
    data = json.loads(path.read_text())
    mutate(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=message):
        Record.load(path)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "yacht-record", "version": 1, ')
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.load(bad)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="not a text file"):
        Record.load(binary)


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path: Path) -> None:
    path = _record(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
    Record.load(path).save(path)
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_turn_summaries_leave_out_taken_back_scorings() -> None:
    s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 1)))
    s.apply(Score("sixes"))
    from yacht.engine import TakeBack
    s.apply(TakeBack())
    s.apply(Score("crag"))
    turns = Record.from_state(s).turns()
    assert [(t.category, t.points, t.totals) for t in turns] == [("crag", 50, [50])]
