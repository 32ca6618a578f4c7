"""The highest total a card can still end with, as the target tables bound it.

`yacht advise --target T` refuses a target above that total ("its game ends with
at most N"); below it a chance is worked out. In Yahtzee the bound counted a
Yahtzee bonus of 100 for every open box, the Yahtzee box's own included, while
the box was open: the first Yahtzee goes in that box for its 50, only the later
ones earn the bonus, so the bound was 100 too high (and, without the joker, a
full house, small or large straight scored with a Yahtzee counted at 25/30/40
plus the bonus, where the dice score 0 there): targets no game can reach were
ranked at a chance of 0.00 %.

The bound is checked here against a brute force with perfect dice through the
rules (every roll, every box the rules allow), whose best game is then played
in the engine and ends exactly on the bound; the exact chance of reaching the
bound from the card is above 0 and that of one point more is 0.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from yacht.cli import main
from yacht.cli.commands.advise import most_from
from yacht.engine import Player, Roll, Score, State
from yacht.rules import Ruleset, Scorecard, get
from yacht.session.comment import best_possible
from yacht.strategy.solver.local import local_table
from yacht.strategy.solver.target import check_supported, window_arrays

Move = tuple[str, str]  # (the dice rolled, e.g. "11123"; the box scored)


def bound(rs: Ruleset, card: Scorecard) -> int:
    """The card's total and the most points the windows let the open boxes still give
    (as `advise` reads them, without its cap at the variant's highest total)."""
    spec = check_supported(rs)
    m, a = spec.state_of(card)
    far = 1 << 39
    lo, n = window_arrays(spec, far, np.array([m], dtype=np.int64),
                          np.array([a], dtype=np.int64), reach=True)
    return rs.totals(card).grand + (far - int(lo[0]) if int(n[0]) > 0 else 0)


class PerfectDice:
    """The most points still to come from a card when the dice show whatever is best,
    through the rules' own placements (the joker rules and the Yahtzee bonus included),
    with the rolls and boxes of such a game; memoised by what the rules look at."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.rolls = []
        for dice in itertools.combinations_with_replacement(range(1, rs.faces + 1), rs.dice):
            self.rolls.append(tuple(dice.count(f) for f in range(1, rs.faces + 1)))
        self.memo: dict[Any, tuple[int, tuple[Move, ...]]] = {}
        self.special = sorted({rs.index(r.category) for r in rs.special  # type: ignore
                               if hasattr(r, "category")})

    def best(self, card: Scorecard) -> tuple[int, tuple[Move, ...]]:
        rs = self.rs
        if card.complete:
            return 0, ()
        col = card.boxes[0]
        upper = sum(v or 0 for v, c in zip(col, rs.categories, strict=True)
                    if c.section == "upper")
        key = (tuple(v is None for v in col), min(upper, 200),
               tuple((col[i] or 0) > 0 for i in self.special))
        if key in self.memo:
            return self.memo[key]
        now = rs.totals(card).grand
        ctx = rs.context(card, turn=card.filled, rolls=1)
        best: tuple[int, tuple[Move, ...]] = (-1, ())
        for counts in self.rolls:
            dice = "".join(str(f + 1) * c for f, c in enumerate(counts))
            for p in rs.placements(ctx, counts):
                after = rs.place(card, p)
                more, moves = self.best(after)
                gain = rs.totals(after).grand - now + more
                if gain > best[0]:
                    best = (gain, ((dice, p.category), *moves))
        self.memo[key] = best
        return best


def play(rs: Ruleset, moves: tuple[Move, ...] | list[Move],
         state: State | None = None) -> State:
    """A one-player game of ``rs`` in the engine, each move one roll and its box."""
    s = state or State(rs, [Player("Ann")])
    for dice, box in moves:
        s.apply(Roll(tuple(int(d) for d in dice)))
        s.apply(Score(box))
    return s


UPPER_63 = [("11123", "ones"), ("22213", "twos"), ("33312", "threes"),
            ("44412", "fours"), ("55512", "fives"), ("66612", "sixes")]
LOWER = [("66645", "three_of_a_kind"), ("55552", "four_of_a_kind"),
         ("22333", "full_house"), ("12346", "small_straight"), ("23456", "large_straight")]
#: Yahtzee cards (63 in the upper boxes earn 35; the lower boxes above: 144), with the
#: bound before the fix, and after it for each joker rule
YAHTZEE_CARDS: dict[str, tuple[list[Move], int, dict[str, int]]] = {
    # 242 with the Yahtzee box and Chance open: a Yahtzee for 50, then one in Chance for
    # 30 + 100 (the old bound: a bonus for each of the two open boxes)
    "yahtzee-and-chance": (UPPER_63 + LOWER, 522,
                           {"forced": 422, "free": 422, "none": 422}),
    # 292 with the Yahtzee box at 50 and Chance open: 130 more (no change)
    "chance-after-a-yahtzee": (UPPER_63 + LOWER[:4] + [("66666", "yahtzee"),
                                                        ("23456", "large_straight")],
                               422, {"forced": 422, "free": 422, "none": 422}),
    # 162 with the Yahtzee box, Full House and both straights open: 50, then 25/30/40
    # as jokers and 100 each; with no joker the Yahtzees score 0 there, plus the 100
    "yahtzee-house-straights": (UPPER_63 + LOWER[:2] + [("12345", "chance")], 707,
                                {"forced": 607, "free": 607, "none": 512}),
    # 189 with Sixes, the Yahtzee box and Chance open: the upper bonus still to earn
    # (45 + 30 >= 63), 50, and 30 + 100 twice
    "upper-bonus-to-come": (UPPER_63[:5] + LOWER, 634,
                            {"forced": 534, "free": 534, "none": 534}),
    # 119 with the Yahtzee box at 0: no bonus any more (Sixes 30, the straights 30 and
    # 40, Chance 30, the upper bonus 35)
    "yahtzee-scratched": (UPPER_63[:5] + LOWER[:3] + [("11234", "yahtzee")], 284,
                          {"forced": 284, "free": 284, "none": 284}),
}


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
@pytest.mark.parametrize("name", list(YAHTZEE_CARDS))
def test_a_yahtzee_cards_bound_is_what_perfect_dice_make_of_it(name: str, joker: str) -> None:
    rs = get("yahtzee", {"joker": joker})
    moves, old, new = YAHTZEE_CARDS[name]
    card = play(rs, moves).card(0)
    most = bound(rs, card)
    more, best_moves = PerfectDice(rs).best(card)
    assert most == rs.totals(card).grand + more == new[joker], (old, best_moves)
    assert most_from(rs, card) == most
    # a game from the card ends on the bound itself (perfect dice, boxes the rules allow)
    end = play(rs, best_moves, play(rs, moves))
    assert end.is_terminal() and end.returns() == [most]


def test_the_exact_chance_of_the_bound_is_above_0_and_of_one_more_is_0() -> None:
    """The chance tables read every total below a state's window as out of reach: a
    bound too low would make the bound itself read 0."""
    rs = get("yahtzee")
    for moves, _old, new in YAHTZEE_CARDS.values():
        card = play(rs, moves).card(0)
        most = new["forced"]
        assert local_table(rs, card, most, np.array([])).chance(card) > 0
        assert local_table(rs, card, most + 1, np.array([])).chance(card) == 0


@pytest.mark.parametrize("variant, moves", [
    ("yatzy", [("11123", "ones"), ("22213", "twos"), ("33312", "threes"),
               ("44412", "fours"), ("55512", "fives"), ("66612", "sixes"),
               ("66123", "one_pair"), ("66553", "two_pairs"), ("55512", "three_of_a_kind"),
               ("44442", "four_of_a_kind"), ("12345", "small_straight")]),
    ("windows-yacht", UPPER_63[:4] + LOWER + [("12345", "chance"), ("11111", "yacht")]),
    ("tommys-yacht", [("33333", "yacht"), ("11123", "ones"), ("22213", "twos"),
                      ("33312", "threes"), ("44412", "fours"), ("55512", "fives"),
                      ("66612", "sixes"), ("12345", "little_straight")]),
    ("sackson-yacht", [("11123", "ones"), ("22213", "twos"), ("33312", "threes"),
                       ("44412", "fours"), ("55512", "fives"), ("66612", "sixes"),
                       ("12345", "little_straight"), ("22333", "full_house"),
                       ("12346", "choice")]),
])
def test_the_bound_of_other_variants_is_what_perfect_dice_make_of_it(
        variant: str, moves: list[Move]) -> None:
    rs = get(variant)
    card = play(rs, moves).card(0)
    more, best_moves = PerfectDice(rs).best(card)
    assert bound(rs, card) == rs.totals(card).grand + more
    assert play(rs, best_moves, play(rs, moves)).returns() == [bound(rs, card)]


@pytest.mark.parametrize("variant, options, highest", [
    ("yahtzee", {}, 1575), ("yahtzee", {"joker": "free"}, 1575),
    ("yahtzee", {"joker": "none"}, 1480), ("yahtzee", {"bonus": "off"}, 375),
    ("yatzy", {}, 374), ("windows-yacht", {}, 375), ("yatsee", {}, 375),
    ("yatcy", {}, 370), ("tommys-yacht", {}, 303), ("tommys-crag", {}, 244),
    ("ancient-yacht", {}, 288), ("ancient-yacht-10", {}, 570), ("sackson-yacht", {}, 297),
])
def test_an_empty_cards_bound_is_the_variants_highest_total(
        variant: str, options: dict[str, str], highest: int) -> None:
    """Yahtzee: 13 Yahtzees, the first in its box for 50 and 12 bonuses of 100 (1575, not
    13 bonuses); without the joker a full house or straight scored with a Yahtzee is 0
    plus the bonus (1480)."""
    rs = get(variant, options)
    assert bound(rs, rs.new_card()) == best_possible(rs) == highest


def test_advise_refuses_one_point_above_a_yahtzee_cards_bound(
        capsys: pytest.CaptureFixture[str]) -> None:
    moves, _old, new = YAHTZEE_CARDS["yahtzee-and-chance"]
    rs = get("yahtzee")
    card = play(rs, moves).card(0)
    text = ",".join(f"{c.id}={v}" for c, v in zip(rs.categories, card.boxes[0], strict=True)
                    if v is not None)
    most = new["forced"]
    assert main(["advise", "yahtzee", f"11111 r0 {text}", "--target", str(most + 1)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert (f"target {most + 1} cannot be reached from this card: its game ends with at "
            f"most {most} (accepted: 0-{most})") in err
