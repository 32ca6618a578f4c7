"""The table snapshot: valid against its committed JSON Schema in every variant and at
every step, and saying what the table says (dice, previews, what may be done)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from yacht.engine import Player, Roll, Score
from yacht.rules import all_variants, get
from yacht.session.commands import (
    GoOn,
    ScoreBox,
    Select,
    command_from_json,
    command_to_json,
    parse_command,
)
from yacht.session.present import BROWSER, PLAIN, TERMINAL
from yacht.session.snapshot import SCHEMA, schema
from yacht.session.table import LOCAL, Seat, Table

VALIDATOR = Draft202012Validator(schema())


def test_the_schema_is_a_valid_json_schema_and_is_committed() -> None:
    Draft202012Validator.check_schema(schema())
    path = Path(__file__).parents[2] / "src" / "yacht" / "session" / "table.schema.json"
    assert json.loads(path.read_text(encoding="utf-8")) == schema()
    assert schema()["properties"]["schema"]["const"] == SCHEMA


def valid(snap: dict[str, Any]) -> dict[str, Any]:
    errors = sorted(VALIDATOR.iter_errors(snap), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:3]]
    json.dumps(snap)  # and it is JSON
    return snap


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_every_step_of_every_variant_fits_the_schema(rs: Any, store: Any,
                                                     factory: Any) -> None:
    seats = [Seat(LOCAL, frozenset({0}), operator=True), Seat("watch", frozenset())]
    t = Table.new(rs, [Player("Ann"), Player("Cpu", "computer", "random")], store=store,
                  rng=random.Random(5), strategy_factory=factory, speed="instant",
                  seats=seats)
    pick = random.Random(1)
    words = [TERMINAL, BROWSER, PLAIN]
    steps = 0
    while not t.view().finished:
        said = pick.choice(words)
        made = t.snapshots(said)  # what every seat sees alike, made once
        for seat in (LOCAL, "watch", None):
            snap = valid(t.snapshot(seat, said))
            assert made(seat) == snap, seat
        assert made(LOCAL)["seat"]["id"] == LOCAL and made("watch")["seat"]["id"] == "watch"
        assert made(LOCAL)["players"][0]["mine"] and not made(None)["players"][0]["mine"]
        assert snap["version"] == t.version
        if t.due() is not None:
            t.run_due(until=lambda v=t.version: t.version != v)
        elif t.view().pause is not None:
            t.act(LOCAL, GoOn())
        elif not t._game.state.dice:
            t.act(LOCAL, Roll())
        elif t._game.state.may_reroll() and (not t._game.state.placements()
                                               or pick.random() < 0.4):
            t.act(LOCAL, Select("all"))
            valid(t.snapshot(LOCAL))  # dice chosen
            t.act(LOCAL, Roll())
        else:
            pl = pick.choice(t._game.state.placements())
            t.act(LOCAL, Score(pl.category, pl.column))
        steps += 1
    final = valid(t.snapshot(LOCAL))
    assert final["finished"] and final["over"] and final["result"]
    assert steps > rs.turns


def test_what_the_snapshot_says(store: Any, factory: Any) -> None:
    t = Table.new(get("yahtzee"), [Player("Ann"), Player("Cpu", "computer", "expert")],
                  store=store, rng=random.Random(1), strategy_factory=factory, real_dice=True)
    snap = valid(t.snapshot(LOCAL))
    assert snap["dice"] == [] and snap["can"]["roll"] and not snap["can"]["score"]
    assert snap["rolls_left"] == 3 and snap["turn"] == 1 and snap["turns"] == 13
    assert [r["id"] for r in snap["rows"]][-2:] == ["extra", "grand_total"]
    assert snap["rows"][-2]["label"] == "Yahtzee bonus"
    assert "Ann: press r or Enter" in t.snapshot(LOCAL, TERMINAL)["help"]
    assert "press Roll" in snap["help"]  # the browser's words by default
    t.act(LOCAL, Roll((5, 5, 5, 5, 5)))
    snap = valid(t.snapshot(LOCAL))
    yahtzee = next(p for p in snap["previews"] if p["category"] == "yahtzee")
    assert yahtzee["total"] == 50 and yahtzee["text"] == "50"
    assert snap["can"]["choose"] and snap["can"]["score"] and not snap["can"]["roll"]
    assert "score yahtzee (50)" in snap["legal"]
    t.act(LOCAL, ScoreBox("yahtzee"))
    snap = valid(t.snapshot(LOCAL))
    assert snap["pause"] == "next_player" and snap["can"]["go_on"] and snap["can"]["take_back"]
    assert snap["cards"][0]["cells"]["yahtzee"] == ["50"]
    assert snap["last_score"]["label"] == "Yahtzee" and snap["news"] == ["Ann: Yahtzee for 50"]
    assert snap["current"] == 1 and snap["players"][1]["kind"] == "computer"
    watcher = valid(t.snapshot(None))
    assert watcher["seat"] is None and not any(watcher["can"].values())


def test_commands_round_trip_through_json() -> None:
    s = Table.new(get("ancient-yacht-double"), [Player("Ann")])._game.state
    s.apply(Roll((1, 2, 3, 4, 5)))
    for text in ["roll", "choose 1,3", "1 3", "a", "score choice 2", "f", "F", "give-back",
                 "take-back", "computer", "s"]:
        for cmd in parse_command(text, s):
            assert command_from_json(json.loads(json.dumps(command_to_json(cmd)))) == cmd


def test_the_end_says_comments_progress_and_new_entries(store: Any, factory: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
                  store=store, rng=random.Random(2), strategy_factory=factory, speed="instant")
    while not t.view().finished:
        t.run_due()
        if t.view().pause is not None:
            t.act(LOCAL, GoOn())
        elif not t.view().finished:
            t.act(LOCAL, Roll())
            t.act(LOCAL, ScoreBox(t._game.state.placements()[0].category))
    snap = valid(t.snapshot(LOCAL))
    assert [c["player"] for c in snap["comments"]] == [0]  # the person's score is judged
    assert "the expert's average of 149.8" in snap["comments"][0]["text"]
    assert [len(p) for p in snap["progress"]] == [14, 14]  # from 0, then 13 turns each
    assert [p[-1] for p in snap["progress"]] == [p["total"] for p in snap["players"]]
    assert [e["name"] for e in snap["new_entries"]] == ["Ann"]
