"""One suite run over every variant (and option set): the State API's promises."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht.engine import (
    Choose,
    GiveBack,
    IllegalAction,
    Player,
    Record,
    Roll,
    Score,
    State,
    TakeBack,
    random_decision,
)
from yacht.rules import Ruleset, all_variants, get

CONFIGS: list[Ruleset] = [*all_variants(),
                          get("ancient-yacht-10", {"rolls": "3"}),
                          get("ancient-yacht-10-double", {"rolls": "4"}),
                          get("yahtzee", {"joker": "free"}),
                          get("yahtzee", {"joker": "none", "bonus": "off"})]
IDS = [rs.key for rs in CONFIGS]


def play_random(rs: Ruleset, players: int, seed: int) -> State:
    rng = random.Random(seed)
    s = State(rs, [Player(f"P{i}") for i in range(players)], rng=random.Random(seed + 1))
    while not s.is_terminal():
        for a in random_decision(s, rng):
            s.apply(a)
    return s


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_random_games_end_with_every_box_filled_and_totals_adding_up(rs: Ruleset) -> None:
    for seed in range(3):
        s = play_random(rs, 1 + seed, seed)
        assert s.is_terminal()
        assert s.legal_actions() == [] and s.chance_outcomes() == []
        for p in range(len(s.players)):
            card = s.card(p)
            assert card.complete
            assert s.turns_taken(p) >= rs.turns
            t = s.totals(p)
            for col, ct in enumerate(t.columns):
                boxes = card.boxes[col]
                assert ct.upper + ct.lower == sum(b or 0 for b in boxes)
                assert ct.upper == sum(boxes[i] or 0 for i, c in enumerate(rs.categories)
                                       if c.section == "upper")
                assert ct.multiplier == rs.columns[col]
            assert t.grand == sum(ct.subtotal * ct.multiplier for ct in t.columns) + t.extra
        assert s.winners() == [i for i, v in enumerate(s.returns()) if v == max(s.returns())]


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_chance_outcomes_sum_to_one(rs: Ruleset) -> None:
    s = State(rs, [Player("Ann")], rng=random.Random(0))
    outs = s.chance_outcomes(exact=True)
    assert sum(p for _, p in outs) == Fraction(1)
    assert len(outs) == len({o for o, _ in outs})
    s.apply(Roll())
    if s.may_reroll():
        s.apply(Choose(tuple(range(min(3, rs.dice)))))
        outs = s.chance_outcomes(exact=True)
        assert sum(p for _, p in outs) == 1
        assert all(len(o) == min(3, rs.dice) for o, _ in outs)
        assert abs(sum(p for _, p in s.chance_outcomes()) - 1.0) < 1e-12


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_save_load_replay_round_trip(rs: Ruleset, tmp_path: Path) -> None:
    rng = random.Random(11)
    s = State(rs, [Player("Ann"), Player("Cpu", "computer", "beginner")],
              rng=random.Random(12))
    keys = [s.position_key()]
    while not s.is_terminal():
        for a in random_decision(s, rng):
            s.apply(a)
            keys.append(s.position_key())
        if s.can_take_back() and rng.random() < 0.2:
            s.apply(TakeBack())
            keys.append(s.position_key())
    path = tmp_path / "game.json"
    Record.from_state(s).save(path)
    rec = Record.load(path)
    assert [st.position_key() for st in rec.replay()] == keys
    assert rec.final_state().returns() == s.returns()


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_take_back_restores_the_state_exactly(rs: Ruleset) -> None:
    rng = random.Random(21)
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(22))
    checked = 0
    while not s.is_terminal():
        for a in random_decision(s, rng):
            if isinstance(a, Score):
                before = s.position_key()
                s.apply(a)
                s.apply(TakeBack())
                assert s.position_key() == before
                checked += 1
            s.apply(a)
    assert checked >= rs.turns * 2


def _junk_actions(s: State, rng: random.Random) -> list[object]:
    rs = s.ruleset
    cats = [c.id for c in rs.categories] + ["nonsense"]
    return [
        Roll(), Roll(tuple(rng.randint(0, rs.faces + 1) for _ in range(rng.randint(0, 11)))),
        Choose(tuple(rng.randint(-1, rs.dice) for _ in range(rng.randint(0, 3)))),
        Choose((0, 0)),
        Score(rng.choice(cats), rng.randint(-1, 2)), GiveBack(), TakeBack(),
    ]


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_illegal_actions_leave_the_state_unchanged(rs: Ruleset) -> None:
    rng = random.Random(31)
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(32))
    rejected = 0
    while not s.is_terminal():
        for junk in _junk_actions(s, rng):
            legal = True
            try:
                s.check(junk)  # type: ignore[arg-type]
            except IllegalAction:
                legal = False
            if not legal:
                key, log = s.position_key(), list(s.log)
                with pytest.raises(IllegalAction):
                    s.apply(junk)  # type: ignore[arg-type]
                assert s.position_key() == key and s.log == log
                rejected += 1
        for a in random_decision(s, rng):
            s.apply(a)
    assert rejected > 50


@pytest.mark.parametrize("rs", CONFIGS, ids=IDS)
def test_legal_actions_are_all_accepted(rs: Ruleset) -> None:
    rng = random.Random(41)
    s = State(rs, [Player("Ann")], rng=random.Random(42))
    while not s.is_terminal():
        for a in s.legal_actions():
            s.clone().apply(a)  # must not raise
        for a in random_decision(s, rng):
            s.apply(a)


def test_same_seed_same_game() -> None:
    for rs in CONFIGS[:6]:
        assert play_random(rs, 2, 5).log == play_random(rs, 2, 5).log


def test_clone_is_independent() -> None:
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
    s.apply(Roll())
    c = s.clone()
    c.apply(Score(c.placements()[0].category))
    assert s.card(0).filled == 0 and c.card(0).filled == 1
    a, b = s.clone(), s.clone()
    a.apply(Choose((0, 1))); a.apply(Roll())  # noqa: E702
    b.apply(Choose((0, 1))); b.apply(Roll())  # noqa: E702
    assert a.dice == b.dice  # the RNG is copied with the state


# --- Hypothesis ---------------------------------------------------------------------------
variant_st = st.sampled_from(CONFIGS)


@given(variant_st, st.data())
@settings(max_examples=200, deadline=None)
def test_scores_depend_only_on_the_multiset(rs: Ruleset, data: st.DataObject) -> None:
    dice = data.draw(st.lists(st.integers(1, rs.faces), min_size=rs.dice, max_size=rs.dice))
    perm = data.draw(st.permutations(dice))
    scores = rs.scores(dice)
    assert scores == rs.scores(perm)
    for cat in rs.categories:
        v = scores[cat.id]
        assert 0 <= v <= max(sum(dice), 100)
        if cat.scorer == "face":
            face = dict(cat.params)["face"]
            assert v == face * dice.count(face)
        if cat.scorer == "sum":
            assert v == sum(dice)


@given(variant_st, st.integers(0, 2**32 - 1), st.lists(st.integers(0, 10**6), max_size=60))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_action_sequence_keeps_the_state_consistent(rs: Ruleset, seed: int,
                                                        picks: list[int]) -> None:
    s = State(rs, [Player("A"), Player("B", "computer", "random")], rng=random.Random(seed))
    for k in picks:
        legal = s.legal_actions()
        if not legal:
            break
        before = s.position_key()
        s.apply(legal[k % len(legal)])
        assert s.position_key() != before or isinstance(legal[k % len(legal)], Choose)
        for p in range(2):
            assert s.card(p).filled <= rs.turns
        assert 0 <= s.rolls <= s.max_rolls
        assert all(1 <= d <= rs.faces for d in s.dice)
        assert s.chosen <= set(range(rs.dice))
    rec = Record.loads(Record.from_state(s).dumps())
    assert rec.final_state().position_key() == s.position_key()
