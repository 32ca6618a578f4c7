"""The solver API for Python users (``yacht.solve``) and the situation notation."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reduced_games import reduced_ancient_yacht_double

import yacht
from yacht.cli import main
from yacht.engine import IllegalAction, Player, Roll, State
from yacht.engine.randomplay import random_turn
from yacht.parsing import turns_possible
from yacht.rules import ForcedFirstTurn, Ruleset, Scorecard, all_variants, get
from yacht.strategy.advisor import (
    AdviceError,
    _possible_values,
    advise_card,
    card_text,
    parse_card,
)
from yacht.strategy.api import Situation

VARIANTS = [rs for rs in all_variants()]
SRC = Path(__file__).resolve().parents[2] / "src"


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
    for rule in rs.special:  # (Tommy's Yacht: the first turn fills the Yacht box)
        first = rs.index(rule.category) if isinstance(rule, ForcedFirstTurn) else None
        if first is not None and any(v is not None for v in boxes[0]) and \
                boxes[0][first] is None:
            boxes[0] = boxes[0][:first] + (rule.points,) + boxes[0][first + 1:]
    extra = draw(st.sampled_from([0, 0, 100, 300]))
    card = Scorecard(tuple(boxes), 0)
    if card.complete or any(rule.card_problem(rs, card) for rule in rs.special):
        card = rs.new_card()   # (a doble generala's 100 without the generala's points)
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
    ("12345 r1 t0 ones=3", "at least 1 turn was"),
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


# --- every situation goes through the same checks -----------------------------------------

@pytest.mark.parametrize("variant, box, value, extra", [
    ("yatzy", "ones", 7, 0), ("yatzy", "sixes", 1000, 0), ("yatzy", "sixes", -30, 0),
    ("yahtzee", "yahtzee", 50, 150), ("yahtzee", "yahtzee", 0, 100)])
def test_a_card_made_from_objects_is_checked_as_its_text(variant: str, box: str, value: int,
                                                         extra: int) -> None:
    """A card no text can give is refused however the situation is made, with the words
    of the card notation (it was valued, and printed as text that did not read back)."""
    y = yacht.solve(variant)
    rs = y.ruleset
    card = rs.new_card().with_box(0, rs.index(box), value, extra)
    text = "12345 r2 " + card_text(rs, card)
    with pytest.raises(AdviceError) as want:
        y.situation(text)
    makers = [lambda: y.situation(dice=(1, 2, 3, 4, 5), rolls_left=2, card=card),
              lambda: Situation.of(rs, card, (1, 2, 3, 4, 5), 2),
              lambda: Situation(rs, card, (1, 2, 3, 4, 5), 2, 1)]
    for make in makers:
        with pytest.raises(AdviceError) as got:
            make()
        assert str(got.value) == str(want.value) and "\n" not in str(got.value)


@pytest.mark.parametrize("parts, message", [
    ({"dice": (1.7, 3, 3, 5, 6)}, "a die must be a whole number, not 1.7"),
    ({"dice": (1, 3, 3, 5, 6.0)}, "a die must be a whole number, not 6.0"),
    ({"dice": (True, 3, 3, 5, 6)}, "a die must be a whole number, not True"),
    ({"dice": "13356"}, "the dice must be a sequence of 5 whole numbers 1-6, not str"),
    ({"rolls_left": 1.9}, "rolls left must be a whole number, not 1.9"),
    ({"rolls_left": True}, "rolls left must be a whole number, not True"),
    ({"turn": 0.5}, "the turn must be a whole number, not 0.5"),
    ({"card": "ones=3"}, "the card must be a Scorecard, not str"),
    ({"card_value": 3.0}, "the points in ones must be a whole number, not 3.0"),
])
def test_numbers_are_whole_never_cut_down(parts: dict[str, object], message: str) -> None:
    """6.9 became 6 and rolls_left=1.9 became 1 without a word."""
    rs = get("yatzy")
    args: dict[str, object] = {"card": rs.new_card(), "dice": (1, 3, 3, 5, 6),
                               "rolls_left": 1, "turn": 0}
    value = parts.pop("card_value", None)
    if value is not None:
        args["card"] = Scorecard(((value,) + (None,) * (len(rs.categories) - 1),), 0)
        args["turn"] = 1
    args.update(parts)
    with pytest.raises(AdviceError) as e:
        Situation(rs, **args)  # type: ignore[arg-type]
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_integer_types_become_ints() -> None:
    y = yacht.solve("yatzy")
    rs = y.ruleset
    card = rs.new_card().with_box(0, 0, np.int64(3))  # type: ignore[arg-type]
    s = y.situation(dice=np.array([1, 3, 3, 5, 6]), rolls_left=np.int64(1), card=card,
                    turn=np.int32(1))  # type: ignore[arg-type]
    assert str(s) == "13356 r1 ones=3" and s == y.situation("13356 r1 ones=3")
    assert {type(v) for v in (*s.dice, s.rolls_left, s.turn, s.card.boxes[0][0])} == {int}
    assert y.value(s) == y.value("13356 r1 ones=3")


def test_a_situation_built_directly_is_checked() -> None:
    """``Situation(...)`` skipped the checks: bad dice ended in an IndexError deep in the
    solver."""
    y = yacht.solve("yatzy")
    rs = y.ruleset
    with pytest.raises(AdviceError, match="needs 5 dice with values 1-6"):
        Situation(rs, rs.new_card(), (9, 9, 9, 9, 9), 1)
    with pytest.raises(AdviceError, match="rolls left must be 0-2"):
        Situation(rs, rs.new_card(), (1, 2, 3, 4, 5), 7)
    with pytest.raises(AdviceError, match="at least 1 turn was"):
        Situation(rs, rs.new_card().with_box(0, 0, 3), (1, 2, 3, 4, 5), 1)
    with pytest.raises(AdviceError, match="a situation is a text, a Situation, a State"):
        y.value(12)  # type: ignore[arg-type]
    with pytest.raises(AdviceError, match="not both"):
        y.situation("12345 r2", dice=(1, 2, 3, 4, 5))


# --- a game of the engine ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["yatzy", "yahtzee", "tommys-crag", "tommys-yahtzee"])
def test_a_state_is_its_player_on_turns_situation(name: str) -> None:
    """``y.situation(state)`` and the State in ``value``/``best``/``options``, and each
    option played in the state with ``Option.actions``: kept dice stay where they are."""
    y = yacht.solve(name)
    rs = y.ruleset
    rng = random.Random(5)
    for g in range(3):
        s = State(rs, [Player("A"), Player("B")], rng=random.Random(g))
        while not s.is_terminal():
            where = y.situation(s)
            assert Situation.parse(rs, where.text()) == where
            me = s.current
            assert where.card == s.card(me) and where.turn == s.turns_taken(me)
            assert y.value(s) == pytest.approx(y.value(where.text()))
            if not s.dice:
                s.apply(Roll())
                continue
            options = y.options(s)
            assert options == y.options(where) and y.best(s) == options[0]
            choice = options[0] if rng.random() < 0.7 else rng.choice(options)
            for o in options:   # every option is a legal move that keeps what it says
                t = s.clone()
                before = t.dice
                acts = o.actions(t)
                if o.kind == "keep":
                    kept = [v for i, v in enumerate(before) if i not in acts[0].dice]
                    assert sorted(kept) == list(o.keep)
                    t.apply(acts[0])   # (the re-roll itself: below, for the choice)
                else:
                    for a in acts:
                        t.apply(a)
            for a in choice.actions(s):
                s.apply(a)
    with pytest.raises(AdviceError, match="the game is over"):
        y.situation(s)


def test_an_option_that_does_not_fit_the_dice() -> None:
    y = yacht.solve("yatzy")
    s = State(y.ruleset, [Player("A")], rng=random.Random(1))
    with pytest.raises(IllegalAction, match="roll first"):
        y.options("13356 r2")[0].actions(s)
    s.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(IllegalAction, match=r"keep 3 3 does not fit the dice showing \(1 2 3"):
        y.options("13356 r2")[0].actions(s)
    with pytest.raises(AdviceError, match="a game of yahtzee"):
        yacht.solve("yatzy").value(State(get("yahtzee"), [Player("A")]))


def test_the_names_of_the_other_types_work_too() -> None:
    y = yacht.solve("yatzy")
    score = next(o for o in y.options("66655 r0") if o.kind == "score")
    assert score.category == score.box == "full_house"
    ranked = advise_card(y.ruleset, y.ruleset.new_card(), 0, (6, 6, 6, 5, 5), 0)
    assert ranked[0].value == ranked[0].expected


# --- counts ----------------------------------------------------------------------------

def test_game_counts_are_refused_in_one_line(tmp_path: Path) -> None:
    """``simulate(games=0)`` gave nan with numpy's warnings, ``distribution(games=-1)``
    another wording, ``export(situations=-1)`` an empty file."""
    y = yacht.solve("tommys-crag")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call, message in [(lambda: y.simulate(games=0), "games must be at least 1, not 0"),
                              (lambda: y.simulate(games=0, decisions=True),
                               "games must be at least 1, not 0"),
                              (lambda: y.distribution(games=-1),
                               "games must be at least 1, not -1"),
                              (lambda: y.distribution(games=2.5),
                               r"games must be a whole number \(at least 1\), not 2.5")]:
            with pytest.raises(AdviceError, match=f"^{message}$"):
                call()
    out = tmp_path / "x.jsonl"
    with pytest.raises(AdviceError, match="^situations must be at least 1, not -1$"):
        y.export(str(out), situations=-1)
    assert not out.exists() and list(tmp_path.iterdir()) == []
    from yacht.strategy.simulate import simulate

    for games in (0, 1.5):
        with pytest.raises(ValueError, match="^games must be"):
            simulate(y.ruleset, "beginner", games, seed=1)  # type: ignore[arg-type]
    r = simulate(y.ruleset, "beginner", games=5, seed=1, workers=1)
    assert r.totals is r.scores


# --- the documents say what the code does ------------------------------------------------

def test_the_module_example_runs_under_plain_doctest() -> None:
    """``doctest.testmod(yacht.strategy.api)`` without flags failed one example."""
    import doctest

    import yacht.strategy.api
    import yacht.strategy.ranking

    for module in (yacht.strategy.api, yacht.strategy.ranking):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_api_md_gives_hint_its_signature() -> None:
    """API.md said ``hint(state, target=None, build=False)``: ``hint(s, 150)`` then ended
    in an AttributeError deep in the solver; now the doc is the signature, and a target
    in the solution's place is a TypeError that says to write ``target=``."""
    import inspect

    from yacht.strategy.advisor import hint

    doc = (SRC / "yacht" / "strategy" / "solver" / "API.md").read_text("utf-8")
    assert "h = hint(state, solution=None, *, target=None, build=False)" in doc
    params = inspect.signature(hint).parameters
    assert [(p.name, p.default, p.kind.name) for p in params.values()] == [
        ("state", inspect.Parameter.empty, "POSITIONAL_OR_KEYWORD"),
        ("solution", None, "POSITIONAL_OR_KEYWORD"),
        ("target", None, "KEYWORD_ONLY"), ("build", False, "KEYWORD_ONLY")]
    s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll((6, 6, 1)))
    with pytest.raises(TypeError, match=r"not int \(a target goes as target=150\)$"):
        hint(s, 150)  # type: ignore[arg-type]
    with pytest.raises(AdviceError, match="^target must be a whole number, not 150.5$"):
        hint(s, target=150.5)  # type: ignore[arg-type]


def test_store_api_md_lists_every_field_of_player_stats() -> None:
    import dataclasses

    from yacht.store import PlayerStats

    doc = (SRC / "yacht" / "store" / "API.md").read_text("utf-8")
    block = doc[doc.index("class PlayerStats:"):]
    block = block[:block.index("```")]
    named = {line.split(":")[0].strip() for line in block.splitlines()[1:] if ":" in line
             and not line.strip().startswith("#")}
    assert {f.name for f in dataclasses.fields(PlayerStats)} <= named
