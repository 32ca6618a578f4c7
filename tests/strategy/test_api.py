"""The solver API for Python users (``yacht.solve``) and the situation notation."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reduced_games import reduced_ancient_yacht_double

import yacht
from yacht.cli import main
from yacht.engine import Player, State
from yacht.engine.randomplay import random_turn
from yacht.parsing import turns_possible
from yacht.rules import Ruleset, Scorecard, all_variants, get
from yacht.strategy.advisor import (
    AdviceError,
    _possible_values,
    advise_card,
    card_text,
    parse_card,
)
from yacht.strategy.api import Situation

VARIANTS = [rs for rs in all_variants()]


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    rs = draw(st.sampled_from(VARIANTS))
    boxes = []
    for _col in rs.columns:
        col: list[int | None] = []
        for i in range(len(rs.categories)):
            if draw(st.booleans()):
                col.append(None)
            else:
                col.append(draw(st.sampled_from(sorted(_possible_values(rs, i)))))
        boxes.append(tuple(col))
    extra = draw(st.sampled_from([0, 0, 100, 300]))
    card = Scorecard(tuple(boxes), 0)
    if card.complete:
        card = rs.new_card()
    if extra:  # extra points only where a filled box earns them (yacht.parsing.parse_card)
        try:
            card = parse_card(rs, f"{card_text(rs, card)},extra={extra}")
        except AdviceError:
            pass
    turn = draw(st.sampled_from(list(turns_possible(rs, card))))  # (repeats add turns)
    if draw(st.integers(0, 5)) == 0:
        return Situation.of(rs, card, (), 0, turn)
    dice = tuple(draw(st.lists(st.integers(1, rs.faces), min_size=rs.dice,
                               max_size=rs.dice)))
    most = rs.max_rolls(rs.context(card, turn, 1))
    rolls = draw(st.integers(0, most - 1))
    return Situation.of(rs, card, dice, rolls, turn)


@settings(max_examples=300, deadline=None)
@given(situations())
def test_notation_round_trips(s: Situation) -> None:
    text = s.text()
    assert str(s) == text
    back = Situation.parse(s.ruleset, text)
    assert back == s
    assert back.text() == text


def test_notation_reads_looser_forms_and_prints_one() -> None:
    rs = get("yahtzee")
    a = Situation.parse(rs, "1,3,3,5,6 R2 ones=3, yahtzee=50 ,extra=100")
    b = Situation.parse(rs, "13356 r2 t2 yahtzee=50,ones=3,extra=100")
    assert a == b and a.text() == "13356 r2 ones=3,yahtzee=50,extra=100"
    assert Situation.parse(rs, "- chance=22").text() == "- chance=22"
    assert Situation.parse(rs, "66666 r0").turn == 0
    two = get("ancient-yacht-double")
    s = Situation.parse(two, "12345 r1 choice@2=20")
    assert s.card.boxes[1][6] == 20 and s.text() == "12345 r1 col2:choice=20"


@pytest.mark.parametrize("text, message", [
    ("", "empty situation"),
    ("1234 r1", "5 dice"),
    ("12347 r1", "not a face"),
    ("12345 r3", "rolls left must be 0-2"),
    ("12345 r1 r2", "rolls left given twice"),
    ("abcde", "not numbers"),
    ("12345 r1 bogus=3", "unknown box"),
    ("12345 r1 t0 ones=3", "at least 1 turns"),
    ("- r2", "rolls left only count"),
])
def test_bad_notation_is_one_line(text: str, message: str) -> None:
    with pytest.raises(AdviceError, match=message) as e:
        Situation.parse(get("yatzy"), text)
    assert "\n" not in str(e.value)


def _random_situations(rs: Ruleset, n: int) -> list[Situation]:
    rng = random.Random(4)
    out = []
    for g in range(4):
        s = State(rs, [Player("A")], rng=random.Random(g))
        while not s.is_terminal() and len(out) < n * (g + 1) // 4:
            dice = tuple(rng.randint(1, rs.faces) for _ in range(rs.dice))
            if rng.random() < 0.2:
                dice = (dice[0],) * rs.dice
            card, turn = s.card(0), s.turns_taken(0)
            most = rs.max_rolls(rs.context(card, turn, 1))
            out.append(Situation.of(rs, card, dice, rng.randrange(most), turn))
            random_turn(s, random.Random(rng.random()))
    return out


#: two columns on a reduced game (``reduced_games``): the column code of both paths is
#: the same on six boxes as on twelve, and the full table (2^24 cards, ~30 s CPU) was
#: built for this case alone
TWO_COLUMNS = "reduced-ancient-yacht-double"


@pytest.mark.parametrize("name, opts", [("yatzy", None), ("yahtzee", {"joker": "forced"}),
                                        ("yahtzee", {"joker": "free"}), ("tommys-yahtzee", None),
                                        ("tommys-yacht", None), (TWO_COLUMNS, None)],
                         ids=lambda x: str(x))
def test_options_are_the_advisors_ranking(name: str, opts: dict[str, str] | None) -> None:
    """The fast path (batch kernel) and the engine-driven advisor give the same choices
    and the same expected final totals."""
    rs = reduced_ancient_yacht_double() if name == TWO_COLUMNS else get(name, opts)
    y = yacht.solve(rs)
    for s in _random_situations(rs, 40):
        got = y.options(s)
        ranked = advise_card(s.ruleset, s.card, s.turn, s.dice, s.rolls_left, y.solution)
        want = {(r.kind, r.keep if r.kind == "keep" else (), r.category, r.column): r.expected
                for r in ranked}
        have = {(o.kind, o.keep, o.box, o.column): o.value for o in got}
        assert set(have) == set(want), s.text()
        for k, v in want.items():
            assert have[k] == pytest.approx(v, abs=1e-9)
        assert got[0].loss == 0.0 and all(o.loss >= 0 for o in got)
        assert [o.value for o in got] == sorted((o.value for o in got), reverse=True)
        assert y.best(s) == got[0] and y.value(s) == pytest.approx(got[0].value)


def test_values_are_expected_final_totals() -> None:
    y = yacht.solve("yatzy")
    assert y.value() == pytest.approx(y.expected_score) == pytest.approx(248.44, abs=1e-3)
    # points on the card count: a card with chance=30 is worth 30 more than the same
    # card's future alone
    s = y.situation("- chance=30")
    sol = y.solution
    m, a = sol.spec.state_of(s.card)
    assert y.value(s) == pytest.approx(30 + sol.future(m, a))
    full = y.situation("12345 r0 " + ",".join(
        f"{c.id}=0" for c in y.ruleset.categories if c.id != "chance"))
    assert len(y.options(full)) == 1 and y.options(full)[0].box == "chance"
    assert y.value(full) == pytest.approx(15.0)


def test_distribution_is_seeded_and_centred() -> None:
    y = yacht.solve("yahtzee", joker="free")
    s = y.situation("66666 r0 sixes=24,chance=20")
    d1 = y.distribution(s, games=3000, seed=7)
    d2 = y.distribution(s, games=3000, seed=7)
    assert np.array_equal(d1.totals, d2.totals)
    assert not np.array_equal(d1.totals, y.distribution(s, games=3000, seed=8).totals)
    assert d1.totals.min() >= 44 + 50  # the points on the card, and the yacht being scored
    assert abs(d1.mean - y.value(s)) < 5 * d1.stderr
    assert 0 < d1.chance_at_least(d1.percentile(50)) <= 1
    assert sum(d1.counts().values()) == 3000
    sim = y.simulate(games=2000, seed=1)
    assert abs(sim.mean - y.expected_score) < 5 * sim.stderr


def test_distribution_of_a_repeat_box_variant_and_a_finished_card() -> None:
    y = yacht.solve("tommys-yahtzee")
    d = y.distribution(None, games=400, seed=2)
    assert abs(d.mean - y.expected_score) < 5 * d.stderr
    rs = y.ruleset
    card = rs.new_card()
    for i in range(len(rs.categories)):
        card = card.with_box(0, i, 0)
    assert set(y.distribution(Situation.of(rs, card), games=10).totals) == {0}


def test_yacht_solve_is_lazy() -> None:
    code = ("import sys, yacht\n"
            "print(any(m.startswith(('numpy', 'yacht.strategy')) for m in sys.modules))\n"
            "print(round(yacht.solve('tommys-crag').expected_score, 2))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=os.environ.copy())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "149.85"]
    with pytest.raises(AttributeError):
        yacht.nothing_here  # noqa: B018


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_advise_reads_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    code, one, _ = run(capsys, "advise", "yahtzee", "13356 r2 ones=3,fours=12,full_house=25",
                       "--json")
    assert code == 0
    code, two, _ = run(capsys, "advise", "yahtzee", "--dice", "1,3,3,5,6", "--rolls-left", "2",
                       "--card", "ones=3,fours=12,full_house=25", "--json")
    assert code == 0 and one == two
    import json

    assert json.loads(one)["situation"] == "13356 r2 ones=3,fours=12,full_house=25"


@pytest.mark.parametrize("argv, message", [
    (["advise", "yatzy", "13356 r2", "--dice", "12345"], "not both"),
    (["advise", "yatzy", "- ones=3"], "no dice"),
    (["advise", "yatzy"], "give the situation"),
    (["advise", "yatzy", "13356 r9"], "rolls left"),
])
def test_advise_notation_errors(capsys: pytest.CaptureFixture[str], argv: list[str],
                                message: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize("text", ["１２３４５ r2", "12345 r２", "²2345 r2", "12345 r2 t99",
                                  "1,2,3,4,٥ r1", "1,,2,3,4,5 r1"])
def test_the_solver_reads_only_what_the_notation_allows(text: str) -> None:
    y = yacht.solve("yatzy")
    with pytest.raises(AdviceError):
        y.best(text)
    with pytest.raises(AdviceError):
        y.options(text)
