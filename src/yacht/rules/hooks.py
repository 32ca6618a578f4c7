"""Special rules as named, parameterized hooks.

A :class:`SpecialRule` is called by :class:`~yacht.rules.model.Ruleset` at
three points of a turn: how many rolls the turn allows, whether the player may
roll again, and which placements (box + points) the dice allow. The engine,
the solver and the UIs only ever see the result, so no code asks which
variant is being played. The solver recognises each rule by its ``name`` and
reads its parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from .model import Placement
from .scoring import Counts

if TYPE_CHECKING:
    from .model import Ruleset, Scorecard, TurnContext

__all__ = ["ForcedFirstTurn", "NeedsBox", "PenaltyOnOthers", "RepeatBox", "SavedRolls",
           "ServedBonus", "ServedWin", "SpecialRule", "YahtzeeBonusJoker", "all_same"]


def all_same(counts: Counts) -> bool:
    """True when every die shows the same face (a yacht of any size)."""
    return sum(1 for c in counts if c) == 1


def _yachts(rs: Ruleset) -> list[Counts]:
    """The counts of every yacht (all dice showing one face) of the variant."""
    return [tuple(rs.dice if f == face else 0 for f in range(rs.faces))
            for face in range(rs.faces)]


def _all_counts(rs: Ruleset) -> list[Counts]:
    """The counts of every roll of the variant's dice (for doctests and searches)."""
    from itertools import combinations_with_replacement

    from .scoring import counts_of

    return [counts_of(d, rs.faces)
            for d in combinations_with_replacement(range(1, rs.faces + 1), rs.dice)]


@lru_cache(maxsize=256)
def _scorer_values(rs: Ruleset, category: str) -> frozenset[int]:
    """Every value the box's scorer gives some roll."""
    cat = rs.category(category)
    return frozenset(cat.score_counts(c) for c in _all_counts(rs))


class SpecialRule:
    """Base class: a rule that changes nothing. Subclasses override hooks."""

    name: ClassVar[str] = "none"

    def max_rolls(self, rs: Ruleset, ctx: TurnContext, rolls: int) -> int:
        return rolls

    def saves_rolls(self, rs: Ruleset) -> bool:
        """Whether the rolls a turn leaves are kept for the player's later turns (then a
        turn's rolls past the ruleset's own are saved ones; else they are the turn's)."""
        return False

    def may_reroll(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        return True

    def stop_reason(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> str:
        """Why this rule ends the rolling (when :meth:`may_reroll` says no), as a clause:
        what the player is told instead of "no roll left"."""
        return f"the {self.name.replace('_', ' ')} rule ends the rolling"

    def no_box_reason(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> str | None:
        """Why this rule lets no box take these dice now, as a clause (None: it does not
        keep them out): what the player is told instead of "no box takes these dice"."""
        return None

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        return options

    def after_score(self, rs: Ruleset, ctx: TurnContext, counts: Counts, placement: Placement,
                    cards: list[Scorecard], me: int) -> list[Scorecard]:
        """Every player's card after player ``me`` scored ``placement`` (``ctx``: the
        turn before the scoring); a rule may change the cards (its own or others')."""
        return cards

    def ends_game(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        """Whether the roll just made (``ctx.rolls`` counts it) ends the game at once
        with the roller as the winner."""
        return False

    def box_mark(self, rs: Ruleset, category: str, value: int) -> str | None:
        """A word for a filled box's value this rule gave ("served"); None otherwise."""
        return None

    def end_reason(self, rs: Ruleset) -> str | None:
        """Why a game this rule ends at once is over ("a served Generala"); None."""
        return None

    def penalty_reason(self, rs: Ruleset) -> str | None:
        """What makes this rule write on other players' cards ("second Kismet"); None."""
        return None

    def describe(self, rs: Ruleset) -> list[str]:
        """Sentences for the rules text."""
        return []

    def changes(self, rs: Ruleset) -> frozenset[str]:
        """What this rule (with ``rs``'s options) changes in the rules text's general
        account of play: ``rolls`` (how many a turn has), ``scoring`` (that any open box
        may take the dice), ``end`` (the number of turns, the winner)."""
        return frozenset()

    def extra_label(self, rs: Ruleset) -> str | None:
        """The card's name for points this rule adds outside the boxes (None: it adds none)."""
        return None

    def box_values(self, rs: Ruleset, category: str) -> set[int]:
        """Values this rule can put in ``category`` besides what its scorer gives."""
        return set()

    def best_extra(self, rs: Ruleset, best: Mapping[str, int]) -> int | None:
        """The points a game of perfect dice can add with this rule beyond every box at
        its best (``best``: category id -> the most its scorer gives); None when there is
        no limit."""
        return 0

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        """A sentence for the help line about what this rule does to these dice: why only
        ``places`` take them (``restricted``: some open boxes do not), or what they add.

        None when the rule has nothing to do with them.
        """
        return None

    def card_problem(self, rs: Ruleset, card: Scorecard) -> str | None:
        """Why no game under this rule fills boxes as ``card`` does (one line, saying what
        would do), each box's value being possible on its own; None when one can."""
        return None


def _names(rs: Ruleset, places: list[Placement]) -> str:
    """The boxes of ``places`` by label, in card order: "Ones, Twos or Chance"."""
    wanted = {p.category for p in places}
    names = [c.label for c in rs.categories if c.id in wanted]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class RepeatBox(SpecialRule):
    """A box that may be scored again for ``points`` whenever all dice match.

    A repeat costs the turn but fills no box, so the player's game lasts one
    turn longer (Tommy's Yahtzee board).
    """

    name: ClassVar[str] = "repeat_box"
    category: str = "yahtzee"
    points: int = 50

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        if not all_same(counts):
            return options
        i = rs.index(self.category)
        extra = [
            Placement(self.category, col, self.points, repeat=True)
            for col in range(len(rs.columns))
            if not ctx.card.is_open(col, i)
        ]
        return options + extra

    def box_values(self, rs: Ruleset, category: str) -> set[int]:
        if category != self.category:
            return set()
        base = {0, *(rs.category(category).score_counts(c) for c in _yachts(rs))}
        most = rs.turns * 4  # a repeat costs a turn: far more than a game can hold
        return {v + k * self.points for v in base for k in range(1, most + 1)}

    def best_extra(self, rs: Ruleset, best: Mapping[str, int]) -> int | None:
        return None  # every repeat adds more, and the game waits for the boxes

    def changes(self, rs: Ruleset) -> frozenset[str]:
        return frozenset({"end"})  # a repeat adds a turn

    def describe(self, rs: Ruleset) -> list[str]:
        label = rs.category(self.category).label
        return [
            f"The {label} box may be scored more than once: whenever all dice match, "
            f"the player may add another {self.points} to it, whatever it holds. "
            "Such a repeat uses the turn but fills no box, so that player's game "
            "lasts a turn longer; players who have filled every box wait for the others."
        ]


@dataclass(frozen=True)
class ForcedFirstTurn(SpecialRule):
    """Each player's first turn goes to ``category``, rolling until all dice match.

    Up to ``free_rolls`` rolls the box scores its usual value; each further
    roll costs ``penalty``, down to ``floor``. The roll that reaches the floor
    is the last; if it does not match, the box gets ``floor`` (sunk).
    """

    name: ClassVar[str] = "forced_first_turn"
    category: str = "yacht"
    points: int = 50
    free_rolls: int = 3
    penalty: int = 5
    floor: int = -95

    @property
    def last_roll(self) -> int:
        return self.free_rolls + (self.points - self.floor) // self.penalty

    def value(self, rolls: int) -> int:
        """What the box scores when all dice match on roll number ``rolls``.

        >>> ForcedFirstTurn().value(3), ForcedFirstTurn().value(4), ForcedFirstTurn().value(32)
        (50, 45, -95)
        """
        return max(self.floor, self.points - self.penalty * max(0, rolls - self.free_rolls))

    def max_rolls(self, rs: Ruleset, ctx: TurnContext, rolls: int) -> int:
        return self.last_roll if ctx.turn == 0 else rolls

    def may_reroll(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        return not (ctx.turn == 0 and all_same(counts))

    def stop_reason(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> str:
        return f"all {rs.dice} dice match"

    def no_box_reason(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> str | None:
        if ctx.turn != 0 or all_same(counts) or ctx.rolls >= self.last_roll:
            return None
        return (f"the first turn goes to the {rs.category(self.category).label} box, which "
                f"takes only {rs.dice} matching dice")

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        if ctx.turn != 0:
            return options
        if all_same(counts):
            return [Placement(self.category, 0, self.value(ctx.rolls))]
        if ctx.rolls >= self.last_roll:
            return [Placement(self.category, 0, self.floor)]
        return []

    def box_values(self, rs: Ruleset, category: str) -> set[int]:
        if category != self.category:
            return set()
        return {self.value(r) for r in range(1, self.last_roll + 1)}

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        if ctx.turn != 0 or not places or not restricted:
            return None
        return f"The first turn must go in {_names(rs, places)}."

    def changes(self, rs: Ruleset) -> frozenset[str]:
        return frozenset({"rolls", "scoring"})

    def card_problem(self, rs: Ruleset, card: Scorecard) -> str | None:
        if not card.filled or card.boxes[0][rs.index(self.category)] is not None:
            return None
        return (f"the first turn goes to the {rs.category(self.category).label} box, so a "
                f"card with boxes filled has it filled too (e.g. {self.category}="
                f"{self.points}; it holds {self.points} down to {self.floor} in steps of "
                f"{self.penalty})")

    def describe(self, rs: Ruleset) -> list[str]:
        label = rs.category(self.category).label
        first = self.free_rolls + 1
        return [
            f"Each player's first turn must go to the {label} box. The player keeps "
            f"rolling, holding any dice, until all {rs.dice} dice match. A match on "
            f"rolls 1-{self.free_rolls} scores {self.points}; every roll after the "
            f"{_ordinal(self.free_rolls)} costs {self.penalty} points (roll {first} scores "
            f"{self.value(first)}). The score cannot go below {self.floor}: "
            f"roll {self.last_roll} is the last, and if it is no match the box gets "
            f"{self.floor} (the yacht is sunk)."
        ]


@dataclass(frozen=True)
class YahtzeeBonusJoker(SpecialRule):
    """Extra Yahtzees: a bonus while the box holds its points, and the Joker rule.

    ``joker_option`` selects ``forced`` (official rules), ``free`` (joker
    values once the box and the matching upper box are filled, any open box)
    or ``none``; ``bonus_option`` turns the bonus ``on`` or ``off``.
    """

    name: ClassVar[str] = "yahtzee_bonus_joker"
    category: str = "yahtzee"
    bonus: int = 100
    joker_points: tuple[tuple[str, int], ...] = (
        ("full_house", 25), ("small_straight", 30), ("large_straight", 40))
    joker_option: str = "joker"
    bonus_option: str = "bonus"

    def mode(self, ctx: TurnContext) -> str:
        return ctx.settings.get(self.joker_option, "forced")

    def bonus_on(self, ctx: TurnContext) -> bool:
        return ctx.settings.get(self.bonus_option, "on") == "on"

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        if not all_same(counts):
            return options
        yi = rs.index(self.category)
        face = next(f + 1 for f, c in enumerate(counts) if c)
        upper = rs.upper_category(face)
        jokers = dict(self.joker_points)

        def joker(p: Placement) -> Placement:
            if p.category in jokers:
                return replace(p, points=jokers[p.category], joker=True)
            return p

        result: list[Placement] = []
        for col in range(len(rs.columns)):
            here = [p for p in options if p.column == col]
            box = ctx.card.boxes[col][yi]
            if box is None:
                result += here
                continue
            bonus = self.bonus if box > 0 and self.bonus_on(ctx) else 0
            upper_open = upper is not None and ctx.card.is_open(col, rs.index(upper.id))
            mode = self.mode(ctx)
            if mode == "forced":
                if upper_open:
                    assert upper is not None
                    here = [p for p in here if p.category == upper.id]
                else:
                    lower = [joker(p) for p in here
                             if rs.category(p.category).section == "lower"]
                    here = lower or here
            elif mode == "free" and not upper_open:
                here = [joker(p) for p in here]
            result += [replace(p, bonus=p.bonus + bonus) for p in here]
        return result

    def extra_label(self, rs: Ruleset) -> str | None:
        if rs.option_values.get(self.bonus_option, "on") != "on":
            return None
        return f"{rs.category(self.category).label} bonus"

    def box_values(self, rs: Ruleset, category: str) -> set[int]:
        return {pts for cid, pts in self.joker_points if cid == category}

    def best_extra(self, rs: Ruleset, best: Mapping[str, int]) -> int | None:
        """Every turn a Yahtzee: the first in its box, each further one with its bonus in
        whichever box gains most (its joker value, or what the Yahtzee scores there).

        >>> from yacht.rules import get
        >>> rule = YahtzeeBonusJoker()
        >>> rs = get("yahtzee")
        >>> best = {c.id: max(c.score_counts(n) for n in _all_counts(rs)) for c in rs.categories}
        >>> rule.best_extra(rs, best), rule.best_extra(get("yahtzee", {"joker": "none"}), best)
        (1200, 1105)
        """
        settings = rs.option_values
        bonus = self.bonus if settings.get(self.bonus_option, "on") == "on" else 0
        mode = settings.get(self.joker_option, "forced")
        jokers = dict(self.joker_points) if mode != "none" else {}
        extra = 0
        for col, mult in enumerate(rs.columns):
            for c in rs.categories:
                if c.id == self.category and col == 0:
                    continue  # the first Yahtzee goes here, at its best
                with_yacht = jokers.get(c.id, max(c.score_counts(n) for n in _yachts(rs)))
                extra += max(0, mult * with_yacht + bonus - mult * best[c.id])
        return extra

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        if not all_same(counts) or not places:
            return None
        label = rs.category(self.category).label
        bonus = max(p.bonus for p in places)
        plus = f" (+{bonus} {label} bonus)" if bonus else ""
        face = next(f + 1 for f, c in enumerate(counts) if c)
        upper = rs.upper_category(face)
        jokers = [p for p in places if p.joker]
        if not restricted:
            if jokers and upper is not None:  # (any open box takes it: say what it is worth)
                values = ", ".join(f"{rs.category(p.category).label} {p.points}"
                                   for p in jokers)
                return (f"Joker rule ({upper.label} filled): this {label} scores as a joker: "
                        f"{values}{plus}.")
            return f"{label} again: the previews hold the +{bonus} bonus." if bonus else None
        if jokers and upper is not None:
            return (f"Joker rule ({upper.label} filled): this {label} goes in a lower box, "
                    f"as a joker{plus}.")
        return f"Joker rule: this {label} must go in {_names(rs, places)}{plus}."

    def changes(self, rs: Ruleset) -> frozenset[str]:
        forced = rs.option_values.get(self.joker_option, "forced") == "forced"
        return frozenset({"scoring"}) if forced else frozenset()

    def describe(self, rs: Ruleset) -> list[str]:
        label = rs.category(self.category).label
        joker = dict(self.joker_points)
        jtext = ", ".join(f"{rs.category(k).label} {v}" for k, v in joker.items())
        mode = rs.option_values.get(self.joker_option, "forced")
        held = max(rs.category(self.category).score_counts(c) for c in _yachts(rs))
        lines = []
        if rs.option_values.get(self.bonus_option, "on") == "on":
            lines.append(
                f"{label} bonus: every further {label} scores an extra {self.bonus} while "
                f"the {label} box holds {held} (not when it was scratched with 0)."
            )
        if mode == "forced":
            lines.append(
                f"Joker (forced): a {label} rolled when the {label} box is already filled "
                "must go to the upper box of its face if that is open; otherwise to any "
                f"open lower box, where it scores as a joker ({jtext}, the others their "
                "usual sum); if no lower box is open, to any open upper box for 0."
            )
        elif mode == "free":
            lines.append(
                f"Joker (free): once the {label} box and the upper box of its face are both "
                f"filled, a {label} may go in any open box and scores as a joker there "
                f"({jtext}, the others their usual sum)."
            )
        else:
            lines.append(f"No Joker rule: an extra {label} scores like any other dice.")
        return lines


def _on(ctx_or_rs: Mapping[str, str], option: str, default: str) -> str:
    return ctx_or_rs.get(option, default) if option else default


@dataclass(frozen=True)
class SavedRolls(SpecialRule):
    """Rolls a player does not use stay in their pool for later turns (Maxi Yatzy).

    Every turn allows the ruleset's rolls plus the pool; what is left when the player
    scores is the new pool (on the card: ``Scorecard.saved``). The option ``option``
    turns it ``on`` or ``off``.
    """

    name: ClassVar[str] = "saved_rolls"
    option: str = "saved_rolls"

    def on(self, settings: Mapping[str, str]) -> bool:
        return _on(settings, self.option, "on") == "on"

    def max_rolls(self, rs: Ruleset, ctx: TurnContext, rolls: int) -> int:
        return rolls + ctx.card.saved if self.on(ctx.settings) else rolls

    def saves_rolls(self, rs: Ruleset) -> bool:
        return self.on(rs.option_values)

    def after_score(self, rs: Ruleset, ctx: TurnContext, counts: Counts, placement: Placement,
                    cards: list[Scorecard], me: int) -> list[Scorecard]:
        if not self.on(ctx.settings):
            return cards
        left = max(0, rs.max_rolls(ctx) - ctx.rolls)
        out = list(cards)
        out[me] = out[me].with_saved(0 if out[me].complete else left)
        return out

    def changes(self, rs: Ruleset) -> frozenset[str]:
        return frozenset({"rolls"}) if self.on(rs.option_values) else frozenset()

    def describe(self, rs: Ruleset) -> list[str]:
        if not self.on(rs.option_values):
            return [f"Saved rolls: off. Every turn has {rs.rolls} rolls; rolls not used "
                    "are lost."]
        return [
            f"Saved rolls: every turn adds {rs.rolls} rolls to the player's own pool, and "
            "the turn may use any of them (the first roll is a must). Rolls not used stay "
            f"in the pool for later turns, without limit, so a turn scored after one roll "
            f"leaves {rs.rolls - 1} for later. The pool starts empty; rolls left after "
            "the last turn are lost."
        ]


@dataclass(frozen=True)
class PenaltyOnOthers(SpecialRule):
    """A second yacht costs the others a turn: when a player scores five of a kind while
    ``category`` already holds points, every other player writes 0 in their topmost
    open box (Kismet). The option ``option`` is ``penalty`` or ``off``.
    """

    name: ClassVar[str] = "penalty_on_others"
    category: str = "kismet"
    option: str = "second_kismet"

    def on(self, settings: Mapping[str, str]) -> bool:
        return _on(settings, self.option, "penalty") == "penalty"

    def strikes(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        """Whether scoring these dice now makes the others write a 0."""
        if not self.on(ctx.settings) or not all_same(counts):
            return False
        i = rs.index(self.category)
        return any((col[i] or 0) > 0 for col in ctx.card.boxes)

    def after_score(self, rs: Ruleset, ctx: TurnContext, counts: Counts, placement: Placement,
                    cards: list[Scorecard], me: int) -> list[Scorecard]:
        if not self.strikes(rs, ctx, counts):
            return cards
        out = list(cards)
        for k, card in enumerate(out):
            where = None if k == me else card.first_open()
            if where is not None:
                out[k] = card.with_box(where[0], where[1], 0)
        return out

    def penalty_reason(self, rs: Ruleset) -> str | None:
        return f"second {rs.category(self.category).label}"

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        if ctx.players < 2 or not self.strikes(rs, ctx, counts):
            return None
        label = rs.category(self.category).label
        return (f"A second {label}: once it is scored, every other player writes 0 in "
                "their topmost open box.")

    def changes(self, rs: Ruleset) -> frozenset[str]:
        return frozenset({"end"}) if self.on(rs.option_values) else frozenset()

    def describe(self, rs: Ruleset) -> list[str]:
        label = rs.category(self.category).label
        if not self.on(rs.option_values):
            return [f"A second {label} brings no penalty."]
        return [
            f"Second {label}: whenever a player scores five of a kind while their {label} "
            f"box already holds a {label} (not a 0), every other player must write 0 in "
            "their topmost open box and so plays a turn fewer. The roller scores the "
            "dice in any open box as usual."
        ]


def _served_bonus(rule_option: str, settings: Mapping[str, str], default: int) -> int:
    value = settings.get(rule_option, "") if rule_option else ""
    return int(value) if value.isdigit() else default


@dataclass(frozen=True)
class ServedBonus(SpecialRule):
    """Boxes worth ``bonus`` more when scored from the turn's first roll ("served",
    Generala's *servida*): only when they qualify (a 0 is never served). The option
    ``option`` gives the bonus (a number) when set."""

    name: ClassVar[str] = "served_bonus"
    categories: tuple[str, ...] = ("escalera", "full", "poker")
    bonus: int = 5
    option: str = "served_bonus"

    def amount(self, settings: Mapping[str, str]) -> int:
        return _served_bonus(self.option, settings, self.bonus)

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        if ctx.rolls != 1:
            return options
        extra = self.amount(ctx.settings)
        return [replace(p, points=p.points + extra, served=True)
                if p.category in self.categories and p.points > 0 else p for p in options]

    def _served_values(self, rs: Ruleset, category: str) -> set[int]:
        if category not in self.categories:
            return set()
        extra = self.amount(rs.option_values)
        return {v + extra for v in _scorer_values(rs, category) if v > 0}

    def box_values(self, rs: Ruleset, category: str) -> set[int]:
        return self._served_values(rs, category)

    def box_mark(self, rs: Ruleset, category: str, value: int) -> str | None:
        if category not in self.categories or value <= 0:
            return None
        return "served" if value not in _scorer_values(rs, category) and value in \
            self._served_values(rs, category) else None

    def best_extra(self, rs: Ruleset, best: Mapping[str, int]) -> int | None:
        extra = self.amount(rs.option_values)
        return sum(extra * m for m in rs.columns for c in rs.categories
                   if c.id in self.categories)

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        served = [p for p in places if p.served]
        if not served:
            return None
        return (f"Served (first roll): {_names(rs, served)} score "
                f"+{self.amount(ctx.settings)}.")

    def describe(self, rs: Ruleset) -> list[str]:
        names = [rs.category(c).label for c in self.categories
                 if any(x.id == c for x in rs.categories)]
        joined = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return [
            f"Served: {joined} score {self.amount(rs.option_values)} more when the box is "
            "scored with the dice of the turn's first roll, before any roll again (only "
            "when the dice qualify; a 0 is never served)."
        ]


@dataclass(frozen=True)
class NeedsBox(SpecialRule):
    """``category`` scores only while ``needs`` holds points in the same column; else it
    can only be scratched (0) (Generala's doble generala)."""

    name: ClassVar[str] = "needs_box"
    category: str = "doble_generala"
    needs: str = "generala"

    def placements(
        self, rs: Ruleset, ctx: TurnContext, counts: Counts, options: list[Placement]
    ) -> list[Placement]:
        if not any(c.id == self.category for c in rs.categories):
            return options
        i = rs.index(self.needs)
        return [replace(p, points=0, served=False)
                if p.category == self.category and not (ctx.card.boxes[p.column][i] or 0) > 0
                else p for p in options]

    def explain(self, rs: Ruleset, ctx: TurnContext, counts: Counts,
                places: list[Placement], restricted: bool) -> str | None:
        if not any(c.id == self.category for c in rs.categories):
            return None
        if not any(p.category == self.category for p in places):
            return None
        i = rs.index(self.needs)
        if all(rs.category(self.category).score_counts(counts) == 0 or
               (ctx.card.boxes[col][i] or 0) > 0 for col in range(len(rs.columns))):
            return None
        return (f"{rs.category(self.category).label} scores only once "
                f"{rs.category(self.needs).label} holds its points: now it takes a 0.")

    def card_problem(self, rs: Ruleset, card: Scorecard) -> str | None:
        if not any(c.id == self.category for c in rs.categories):
            return None
        i, needs = rs.index(self.category), rs.index(self.needs)
        for col, boxes in enumerate(card.boxes):
            if (boxes[i] or 0) > 0 and not (boxes[needs] or 0) > 0:
                where = f"@{col + 1}" if len(card.boxes) > 1 else ""
                label, needs_label = (rs.category(self.category).label,
                                      rs.category(self.needs).label)
                return (f"{self.category}{where}={boxes[i]} cannot be: {label} scores only "
                        f"while {needs_label} holds its points (give {self.needs}{where}="
                        f"{max(_scorer_values(rs, self.needs))} too, or "
                        f"{self.category}{where}=0)")
        return None

    def describe(self, rs: Ruleset) -> list[str]:
        if not any(c.id == self.category for c in rs.categories):
            return []
        label, needs = rs.category(self.category).label, rs.category(self.needs).label
        return [f"{label} scores only while the {needs} box holds its points; before that, "
                f"or when {needs} was scratched, {label} can only be scratched (0)."]


@dataclass(frozen=True)
class ServedWin(SpecialRule):
    """Five of a kind on a turn's first roll ends the game at once and the roller wins,
    with opponents at the table and the option ``option`` at ``win`` (Generala)."""

    name: ClassVar[str] = "served_win"
    category: str = "generala"
    option: str = "servida"

    def on(self, settings: Mapping[str, str]) -> bool:
        return _on(settings, self.option, "win") == "win"

    def ends_game(self, rs: Ruleset, ctx: TurnContext, counts: Counts) -> bool:
        return ctx.players > 1 and ctx.rolls == 1 and all_same(counts) and self.on(ctx.settings)

    def end_reason(self, rs: Ruleset) -> str | None:
        return f"a served {rs.category(self.category).label} (five of a kind on the first roll)"

    def changes(self, rs: Ruleset) -> frozenset[str]:
        return frozenset({"end"}) if self.on(rs.option_values) else frozenset()

    def describe(self, rs: Ruleset) -> list[str]:
        label = rs.category(self.category).label
        if not self.on(rs.option_values):
            return [f"A served {label} (five of a kind on the first roll) scores like any "
                    "other five of a kind."]
        return [
            f"Served {label}: five of a kind on a turn's first roll ends the game at once, "
            "and that player wins whatever the cards hold. Alone, a served "
            f"{label} scores like any other five of a kind."
        ]
