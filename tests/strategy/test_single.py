"""Single situations in C (solver/single.py) give exactly what the Python paths give.

The C extension's ``Advisor`` answers ``SolvedVariant.options``/``best``/``value`` and
``advisor.advise_card`` in one call; these tests compare it, value for value and in
the same order, with the Python code it stands in for, over random situations of
games played by the engine (yachts on every turn often enough to reach the joker and
bonus rules), and check that it declines (the Python path then answers or explains)
whatever is not a plain normal turn.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import yacht
from yacht.engine import Player, State
from yacht.engine.randomplay import random_turn
from yacht.rules import Ruleset, Scorecard, get
from yacht.strategy import advisor
from yacht.strategy.api import Situation, SolvedVariant
from yacht.strategy.solver import single
from yacht.strategy.solver.backend import current
from yacht.strategy.solver.batch import supported

pytestmark = pytest.mark.skipif(current().name != "native",
                                reason="the single-situation calls are the C extension's")

VARIANTS = [("yatzy", {}), ("yahtzee", {"joker": "forced"}), ("yahtzee", {"joker": "free"}),
            ("yahtzee", {"joker": "none"}), ("yahtzee", {"joker": "free", "bonus": "off"}),
            ("tommys-yahtzee", {}), ("tommys-yacht", {}), ("tommys-crag", {}),
            ("ancient-yacht", {}), ("windows-yacht", {}), ("yatsee", {}), ("yatcy", {}),
            ("sackson-yacht", {}), ("ancient-yacht-10", {"rolls": "3"}),
            ("ancient-yacht-10-double", {"rolls": "3"})]


def _situations(rs: Ruleset, n: int, seed: int) -> Iterator[tuple[Scorecard, int, tuple[int, ...],
                                                                int]]:
    """(card, turn, dice, rolls left) from engine games, a yacht one time in four."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < n:
        s = State(rs, [Player("A")], rng=random.Random(seed * 1000 + game))
        game += 1
        while not s.is_terminal() and made < n:
            card, turn = s.card(0), s.turns_taken(0)
            most = rs.max_rolls(rs.context(card, turn, 1))
            for _ in range(3):
                dice = tuple(rng.randint(1, rs.faces) for _ in range(rs.dice))
                if rng.random() < 0.25:
                    dice = (dice[0],) * rs.dice
                yield card, turn, dice, rng.randrange(most)
                made += 1
            random_turn(s, random.Random(rng.random()))


def _solved(name: str, opts: dict[str, str]) -> tuple[SolvedVariant, SolvedVariant]:
    """The variant with its C advisor, and a twin without one (the Python paths)."""
    y = yacht.solve(name, opts)
    twin = SolvedVariant(y.ruleset)
    twin._native = None
    return y, twin


@pytest.mark.parametrize("name, opts", VARIANTS, ids=lambda x: str(x))
def test_advise_card_in_c_is_the_python_ranking(name: str, opts: dict[str, str]) -> None:
    y, _ = _solved(name, opts)
    rs, sol = y.ruleset, y.solution
    taken = 0
    for card, turn, dice, r in _situations(rs, 150, 1):
        want = advisor._advise_card(rs, card, turn, dice, r, sol)
        got = single.rank(rs, card, turn, dice, r, sol)
        if got is None:  # declined: only the forced first turn (and nothing else here)
            assert sol.forced_turn(card, turn) or turn == 0 and sol.spec.forced is not None
            continue
        taken += 1
        assert got == want, (card, turn, dice, r)
        assert [type(x) for x in got] == [advisor.Ranked] * len(want)
        assert advisor.advise_card(rs, card, turn, dice, r, sol) == want
        assert advisor.advise_card(rs, card, turn, list(dice), r) == want  # table from memory
    assert taken > 100


@pytest.mark.parametrize("name, opts", VARIANTS, ids=lambda x: str(x))
def test_options_best_value_in_c_are_the_python_ones(name: str, opts: dict[str, str]) -> None:
    y, twin = _solved(name, opts)
    rs = y.ruleset
    answered = 0
    for card, turn, dice, r in _situations(rs, 120, 2):
        s = Situation.of(rs, card, dice, r, turn)
        text = s.text()
        want = twin.options(s)
        assert y.options(s) == want
        assert twin.options(text) == want
        assert y.options(text) == want, text
        assert y.best(text) == y.best(s) == want[0]
        assert y.value(text) == y.value(s) == twin.value(s)
        if y._native is not None and y._native.options_text(text) is not None:
            answered += 1
    # the C text path answers the plain form of normal turns (not the forced first turn,
    # not a card with extra points or turns that differ from its boxes) where the batch
    # kernel answers (not a repeat box: those options come from the C ranking)
    assert (answered > 0) == supported(y.solution)


def test_the_c_text_path_reads_the_plain_form_only() -> None:
    y, twin = _solved("yahtzee", {})
    nat: Any = y._native
    plain = "13356 r2 ones=3,fours=12,full_house=25"
    assert nat.options_text(plain) == twin.options(plain)
    assert nat.best_text("13356 r0") == twin.best("13356 r0")
    for loose in ["1,3,3,5,6 r2 ones=3,fours=12", "13356 r2 ones=3, fours=12",
                  "13356  r2 ones=3", " 13356 r2", "13356 r2 ", "13356 r2 t3 ones=3",
                  "13356 r2 Ones=3", "13356 r2 ones@1=3", "13356 r2 ones=3,", "13356 r2 ones=6",
                  "13356 r2 ones=--1", "13356 r2 ones=-1", "13356 r2 ones=1234567",
                  "13356 r2 ones=3,ones=3", "13356 r2 yahtzee=50,extra=100", "13356 r3",
                  "1335 r2", "13357 r2", "- ones=3", "13356 r2 ones=3\tfours=12",
                  "13356 r22", "１3356 r2"]:
        assert nat.options_text(loose) is None, loose
        assert nat.best_text(loose) is None, loose
    full = ",".join(f"{c.id}=0" for c in y.ruleset.categories)
    assert nat.options_text("13356 r0 " + full) is None
    # what it declines, the general path reads or explains as before
    assert y.options("13356 r2 ones=3, fours=12") == twin.options("13356 r2 ones=3,fours=12")
    with pytest.raises(advisor.AdviceError, match="rolls left"):
        y.options("13356 r3")


def test_the_forced_first_turn_and_odd_input_go_to_python() -> None:
    y, twin = _solved("tommys-yacht", {})
    rs, sol = y.ruleset, y.solution
    card = rs.new_card()
    assert single.rank(rs, card, 0, (1, 2, 3, 4, 5), 2, sol) is None
    assert advisor.advise_card(rs, card, 0, (1, 2, 3, 4, 5), 2, sol) == advisor._advise_card(
        rs, card, 0, (1, 2, 3, 4, 5), 2, sol)
    assert y.options("12345 r2") == twin.options("12345 r2")
    y2, _ = _solved("yatzy", {})
    rs2, sol2 = y2.ruleset, y2.solution
    card2 = rs2.new_card()
    for args in [(card2, -1, (1, 2, 3, 4, 5), 1), (card2, 0, (1, 2, 3, 4, 7), 1),
                 (card2, 0, (1, 2, 3, 4), 1), (card2, 0, (1, 2, 3, 4, 5), 3),
                 (card2, 0, (1, 2, 3, 4, 5.0), 1), (card2, True, (1, 2, 3, 4, 5), 1),
                 (Scorecard(((None,) * 3,)), 0, (1, 2, 3, 4, 5), 1)]:
        assert single.rank(rs2, *args, sol2) is None, args
    with pytest.raises(advisor.AdviceError):
        advisor.advise_card(rs2, card2, 0, (1, 2, 3, 4, 7), 1, sol2)
    # another variant's solution: not ranked in C
    assert single.rank(get("yahtzee"), card2, 0, (1, 2, 3, 4, 5), 1, sol2) is None


def test_ranked_keeps_its_dataclass_behaviour() -> None:
    import copy
    import pickle

    y, _ = _solved("yatzy", {})
    got = advisor.advise_card(y.ruleset, y.ruleset.new_card(), 0, (1, 1, 2, 5, 6), 2)
    r = got[0]
    assert pickle.loads(pickle.dumps(r)) == r and copy.replace(r) == r if hasattr(
        copy, "replace") else pickle.loads(pickle.dumps(r)) == r
    assert hash(r) == hash(advisor.Ranked(r.kind, r.expected, r.loss, r.keep, r.reroll,
                                          r.category, r.column, r.points))
    with pytest.raises(AttributeError):
        r.loss = 1.0  # type: ignore[misc]
    assert r.to_json()["kind"] in ("keep", "score")


def _python_advise(state: State, sol: Any) -> list[advisor.Ranked]:
    """``advise(state)`` without the C ranking (its Python wrapper, word for word)."""
    if state.is_terminal():
        raise advisor.AdviceError("the game is over")
    if not state.dice:
        raise advisor.AdviceError("roll first: there are no dice to advise on")
    me = state.current
    return advisor._advise_card(state.ruleset, state.card(me), state.turns_taken(me),
                                state.dice, state.rolls_left, sol)


@pytest.mark.parametrize("name, opts", [("yahtzee", {"joker": "forced"}),
                                        ("yahtzee", {"joker": "free", "bonus": "off"}),
                                        ("tommys-yacht", {}), ("tommys-yahtzee", {}),
                                        ("ancient-yacht-10-double", {"rolls": "3"})],
                         ids=lambda x: str(x))
def test_advise_state_in_c_is_the_python_one(name: str, opts: dict[str, str]) -> None:
    from yacht.engine import Choose, Roll, Score

    y, _ = _solved(name, opts)
    rs, sol = y.ruleset, y.solution
    rng = random.Random(5)
    compared = 0
    for game in range(3):
        s = State(rs, [Player("A"), Player("B")], rng=random.Random(game))
        while not s.is_terminal() and compared < 150:
            if not s.dice:
                if rng.random() < 0.3:  # a yacht, to reach the joker and bonus rules
                    s.apply(Roll((rng.randint(1, rs.faces),) * rs.dice))
                else:
                    s.apply(Roll())
            want = _python_advise(s, sol)
            assert advisor.advise(s, sol) == want
            assert advisor.advise(s) == want
            compared += 1
            acts = [a for a in s.legal_actions() if isinstance(a, Choose | Score)]
            act = rng.choice(acts)
            s.apply(act)
            if isinstance(act, Choose):
                s.apply(Roll())
    assert compared >= 100


def test_a_call_during_a_call_is_declined() -> None:
    """Reading a card may run Python code (and let another thread in): a call that comes
    in meanwhile gets None (its caller takes the Python path), the first one is whole."""
    y, _ = _solved("yatzy", {})
    rs, sol = y.ruleset, y.solution
    nat: Any = y._native
    card = Situation.parse(rs, "12345 r1 ones=3,fours=12").card
    inner: list[Any] = []

    class Card:
        extra = 0

        @property
        def boxes(self) -> Any:
            inner.append(nat.rank(card, 2, (1, 2, 3, 4, 5), 1))
            inner.append(nat.options_text("12345 r1 ones=3"))
            return card.boxes

    got = nat.rank(Card(), 2, (1, 2, 3, 4, 5), 1)
    assert inner == [None, None]
    assert got == advisor._advise_card(rs, card, 2, (1, 2, 3, 4, 5), 1, sol)
    assert nat.rank(card, 2, (1, 2, 3, 4, 5), 1) == got  # and free again
