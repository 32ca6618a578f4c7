"""The expert computer player: legal, optimal decisions through the engine."""

from __future__ import annotations

import random

import pytest

from yacht.engine import Player, State
from yacht.rules import get
from yacht.strategy import make_player, play_turn
from yacht.strategy.advisor import advise
from yacht.strategy.expert import ExpertStrategy

FAST_VARIANTS = ["ancient-yacht", "windows-yacht", "yatsee", "yatcy", "tommys-yahtzee",
                 "tommys-yacht", "tommys-crag", "yahtzee", "yatzy", "sackson-yacht"]


@pytest.mark.parametrize("name", FAST_VARIANTS)
def test_expert_plays_whole_games(name: str) -> None:
    rs = get(name)
    player = make_player(rs, "expert")
    assert player.level == "expert"
    s = State(rs, [Player("Cpu", "computer", "expert"), Player("Cpu2", "computer", "expert")],
              rng=random.Random(7))
    turns = 0
    while not s.is_terminal():
        play_turn(s, player)
        turns += 1
        assert turns < 200
    assert all(s.card(i).complete for i in range(2))


def test_decision_is_the_advisor_top() -> None:
    rs = get("yahtzee", {"joker": "free"})
    expert = ExpertStrategy(rs)
    rng = random.Random(4)
    s = State(rs, [Player("Cpu", "computer", "expert")], rng=rng)
    for _ in range(6):
        play_turn(s, expert)
    from yacht.engine import Roll

    s.apply(Roll())
    top = advise(s, expert.solution)[0]
    assert expert.decide(s) == top.decision()


def test_expert_refuses_other_variant() -> None:
    from yacht.engine import Roll

    expert = ExpertStrategy(get("tommys-crag"))
    s = State(get("ancient-yacht"), [Player("Cpu", "computer", "expert")])
    s.apply(Roll((1, 2, 3, 4, 5)))
    with pytest.raises(ValueError, match="plays tommys-crag"):
        expert.decide(s)


def test_expert_average_beats_random() -> None:
    rs = get("tommys-crag")
    expert = make_player(rs, "expert")
    rand = make_player(rs, "random")
    totals = {"expert": 0, "random": 0}
    for seed in range(10):
        for level, p in (("expert", expert), ("random", rand)):
            s = State(rs, [Player("Cpu", "computer", level)], rng=random.Random(seed))
            while not s.is_terminal():
                play_turn(s, p)
            totals[level] += s.returns()[0]
    assert totals["expert"] > totals["random"] + 10 * 40
