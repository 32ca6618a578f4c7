"""The advisor: every legal action in a situation, ranked by expected final score.

A situation is the player's card, the turn number, the dice showing and the
rolls left. Values are solitaire values from the exact solver (the player's
own card only). Each distinct keep (the dice values kept; keeping every die
is not a keep, that is scoring) and each legal placement (with its points,
as the engine gives them) gets its expected final total, points already on
the card included, and its loss against the best.

Card notation (for :func:`parse_card` and ``yacht advise --card``):
``box=points`` items separated by commas (or spaces), box ids as in ``yacht
rules``; ``col2:box=points`` or ``box@2=points`` for the second column;
``extra=N`` for points that belong to no box (Yahtzee bonuses, once the
Yahtzee box holds its points). An empty text is an empty card. The parser is
:func:`yacht.parsing.parse_card`.

>>> from yacht.rules import get
>>> rs = get("yatzy")
>>> card = parse_card(rs, "ones=3,fours=12")
>>> card.boxes[0][:4]
(3, None, None, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yacht import parsing
from yacht.engine import State
from yacht.rules import Ruleset, Scorecard, counts_of
from yacht.rules.errors import InvalidType

from .base import Decision
from .ranking import Ranked
from .solver.numbers import a_ruleset, a_state, whole
from .solver.single import rank as _rank_native
from .solver.single import rank_state as _rank_state_native

if TYPE_CHECKING:
    from .champion import WinRanking
    from .solver import Solution

__all__ = ["AdviceError", "Hint", "Ranked", "advise", "advise_card", "best_decision",
           "card_text", "hint", "hint_card", "parse_card"]


class AdviceError(parsing.InputError):
    """A situation that cannot be advised on (bad card, dice or rolls left)."""


def _solution(rs: Ruleset, solution: Solution | None) -> Solution:
    if solution is not None:
        return solution
    from .solver import solve

    return solve(rs, estimate=False)


_SOLUTION_TYPE: list[type] = []


def _check_solution(solution: object, call: str) -> None:
    """TypeError (one line) unless ``solution`` is None or a solver table: ``hint(state,
    150)`` meant a target, and ended deep in the solver with an AttributeError."""
    if solution is None:
        return
    if not _SOLUTION_TYPE:
        from .solver.build import Solution

        _SOLUTION_TYPE.append(Solution)
    if not isinstance(solution, _SOLUTION_TYPE[0]):
        hint = (f" (a target goes as target={solution!r})"
                if call.startswith("hint") and isinstance(solution, int | float) else "")
        raise InvalidType(f"{call}: solution must be a Solution (yacht.strategy.solver.solve) "
                          f"or None, not {type(solution).__name__}{hint}")


def _target(target: object) -> int | None:
    """The target as a whole number of points (AdviceError, one line, for anything else)."""
    return None if target is None else whole(target, "target", error=AdviceError)


def advise_card(ruleset: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
                rolls_left: int, solution: Solution | None = None) -> list[Ranked]:
    """Rank every legal action, best first.

    ``turn`` counts the turns the player has taken (0 = first turn);
    ``rolls_left`` is how many rolls the turn still allows.
    """
    a_ruleset(ruleset, "advise_card(ruleset, card, turn, dice, rolls_left)")
    _a_card(card, "advise_card(ruleset, card, turn, dice, rolls_left)")
    if solution is not None:
        _check_solution(solution, "advise_card")
    if turn != card.filled:  # (the usual case needs no look: one box per turn)
        _check_turn(ruleset, card, turn)
    # the C extension ranks a normal turn with the table in memory in one call (the
    # same sums, the same order); it answers None for anything else
    got: list[Ranked] | None = _rank_native(ruleset, card, turn, dice, rolls_left, solution)
    if got is not None:
        return got
    return _advise_card(ruleset, card, turn, dice, rolls_left, solution)


def _check_turn(rs: Ruleset, card: Scorecard, turn: int) -> None:
    """AdviceError unless ``turn`` turns can have been taken to fill ``card``."""
    if turn < 0:
        raise AdviceError("the turn number cannot be negative")
    possible = parsing.turns_possible(rs, card)
    if turn not in possible:
        can = (f"{possible.start}" if len(possible) == 1
               else f"{possible.start}-{possible.stop - 1}")
        raise AdviceError(f"turn {turn} does not fit the card: with {card.filled} boxes "
                          f"filled, the turns already taken are {can} (accepted: {can})")


def _advise_card(ruleset: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
                 rolls_left: int, solution: Solution | None = None) -> list[Ranked]:
    """:func:`advise_card` in Python (every case; the reference for the C ranking)."""
    rs = ruleset
    if len(card.boxes) != len(rs.columns) or any(len(c) != len(rs.categories)
                                                 for c in card.boxes):
        raise AdviceError(f"the card does not fit {rs.id}")
    if card.complete:
        raise AdviceError("the card is full: the game is over")
    dice = tuple(int(v) for v in dice)
    if len(dice) != rs.dice or any(not 1 <= v <= rs.faces for v in dice):
        raise AdviceError(f"{rs.id} needs {rs.dice} dice with values 1-{rs.faces}")
    _check_turn(rs, card, turn)
    counts = counts_of(dice, rs.faces)
    most = rs.max_rolls(rs.context(card, turn, 1))
    if not 0 <= rolls_left <= most - 1:
        raise AdviceError(f"rolls left must be 0-{most - 1} in this turn, not {rolls_left}")
    made = most - rolls_left
    ctx = rs.context(card, turn, made)
    sol = _solution(rs, solution)
    spec = sol.spec
    base = spec.base_points(card)
    m, a = spec.state_of(card)
    u, flag = a % spec.U, a // spec.U
    V = sol.V
    out: list[Ranked] = []
    seen: set[tuple[str, int]] = set()
    for p in rs.placements(ctx, counts):
        if (p.category, p.column) in seen:
            continue
        seen.add((p.category, p.column))
        # the engine gives the points; the card state after them is arithmetic
        b = p.column * spec.ncat + rs.index(p.category)
        mult = int(spec.box_mult[b])
        gained = p.points * mult + p.bonus
        if p.repeat:
            value = base + gained + float(V[m, a])
        else:
            u2, flag2 = u, flag
            if spec.U > 1 and spec.box_upper[b]:
                u2 = u + p.points
                if u < spec.need <= u2:
                    gained += spec.bonus_amt * mult
                u2 = min(u2, spec.U - 1)
            if b == spec.flag_box and spec.nflag == 2:
                flag2 = 1 if p.points > 0 else 0
            value = base + gained + float(V[m | (1 << b), flag2 * spec.U + u2]) + \
                sol.carry_value(rolls_left, m)
        out.append(Ranked("score", value, 0.0, category=p.category, column=p.column,
                          points=p.total))
    if rolls_left > 0 and rs.may_reroll(ctx, counts):
        t = spec.dice
        if sol.forced_turn(card, turn):
            assert spec.forced is not None and sol.forced_keep is not None
            table = sol.forced_keep[made]
            rest = base + float(sol.V[m | (1 << spec.forced.box), a])
        else:
            _, Ks = sol.turn_tables(m, a)
            table = Ks[min(rolls_left, sol.plan_levels) - 1]
            rest = base
        for keep in _sub_multisets(counts):
            if sum(keep) == rs.dice:
                continue
            value = rest + float(table[t.index_of_counts(keep)])
            kept_vals, reroll = _positions(dice, keep)
            out.append(Ranked("keep", value, 0.0, keep=kept_vals, reroll=reroll))
    if not out:
        raise AdviceError("no legal action in this situation")
    out.sort(key=lambda r: -r.expected)
    best = out[0].expected
    return [Ranked(r.kind, r.expected, max(0.0, best - r.expected), r.keep, r.reroll,
                   r.category, r.column, r.points) for r in out]


def advise(state: State, solution: Solution | None = None) -> list[Ranked]:
    """Rank the actions of the player on turn (dice must be showing)."""
    a_state(state, "advise(state)")
    if solution is not None:
        _check_solution(solution, "advise")
    got: list[Ranked] | None = _rank_state_native(state, solution)  # see advise_card
    if got is not None:
        return got
    if state.is_terminal():
        raise AdviceError("the game is over")
    if not state.dice:
        raise AdviceError("roll first: there are no dice to advise on")
    me = state.current
    return advise_card(state.ruleset, state.card(me), state.turns_taken(me), state.dice,
                       state.rolls_left, solution)


def best_decision(state: State, solution: Solution | None = None) -> Decision:
    """The optimal decision for the player on turn."""
    return advise(state, solution)[0].decision()


# --- both rankings: for the score, to win ------------------------------------------------

@dataclass(frozen=True)
class Hint:
    """Both rankings of a situation: ``by_score`` (the advisor's, by expected final total)
    and ``to_win`` (by the chance of winning, or alone of reaching a target; see
    :mod:`yacht.strategy.champion`), None where that chance is out of reach (then the
    best for the score is the best there is).

    ``differ``: the two best actions differ; views show both rankings then, under
    :attr:`score_title` ("best for your score") and :attr:`win_title` ("best to win" /
    "best to reach N")."""

    by_score: tuple[Ranked, ...]
    to_win: WinRanking | None

    score_title = "best for your score"

    def __repr__(self) -> str:
        # (the dataclass's wrote out both rankings whole: thousands of characters)
        best = (f"best for the score {self.by_score[0].brief()} "
                f"({self.by_score[0].expected:.2f})" if self.by_score else "no options")
        return f"<Hint {len(self.by_score)} options, {best}; to win: {self.to_win!r}>"

    @property
    def win_title(self) -> str:
        w = self.to_win
        if w is not None and w.goal == "target":
            return f"best to reach {w.target}"
        return "best to win"

    @property
    def differ(self) -> bool:
        return (self.to_win is not None and bool(self.by_score)
                and self.to_win.options[0].decision() != self.by_score[0].decision())

    def to_json(self) -> dict[str, object]:
        return {"differ": self.differ, "score_title": self.score_title,
                "win_title": self.win_title if self.to_win is not None else None,
                "by_score": [r.to_json() for r in self.by_score],
                "to_win": None if self.to_win is None else self.to_win.to_json()}


def hint(state: State, solution: Solution | None = None, *, target: int | None = None,
         build: bool = False) -> Hint:
    """Both rankings for the player on turn (dice showing). Alone, "to win" is reaching
    ``target`` (keyword only, a whole number of points; default: the expert's expected
    score, rounded); with opponents, finishing first. ``build``: build a missing target
    table (about a minute for Yahtzee) rather than leave "to win" out. ``solution``: the
    solver's table (None: the variant's, from memory or the cache), as for
    :func:`advise`; anything else is a TypeError (``hint(state, 150)`` says to write
    ``target=150``), a target that is not a whole number an :class:`AdviceError`.

    >>> import random
    >>> from yacht.engine import Player, Roll, State
    >>> from yacht.rules import get
    >>> s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(1))
    >>> s.apply(Roll((6, 6, 1)))
    >>> h = hint(s, target=120, build=True)
    >>> h.win_title, h.to_win is not None and h.to_win.exact
    ('best to reach 120', True)
    """
    a_state(state, "hint(state)")
    _check_solution(solution, "hint(state, solution)")
    target = _target(target)
    by_score = advise(state, solution)
    from .champion import rank_to_win

    return Hint(tuple(by_score), rank_to_win(state, solution, target=target, build=build))


def hint_card(ruleset: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
              rolls_left: int, *, others: Sequence[tuple[Scorecard, int]] = (),
              target: int | None = None, build: bool = False,
              solution: Solution | None = None) -> Hint:
    """:func:`hint` for a situation given by hand: ``others`` are the opponents' (card,
    turns taken); none: alone."""
    _check_solution(solution, "hint_card")
    target = _target(target)
    by_score = advise_card(ruleset, card, turn, dice, rolls_left, solution)
    from .champion import rank_situation

    return Hint(tuple(by_score), rank_situation(ruleset, card, turn, dice, rolls_left, others,
                                                solution, target=target, build=build,
                                                by_score=by_score))


def _sub_multisets(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for c in counts:
        out = [(*prefix, k) for prefix in out for k in range(c + 1)]
    return out


def _positions(dice: tuple[int, ...], keep: tuple[int, ...]) -> tuple[tuple[int, ...],
                                                                     tuple[int, ...]]:
    """(kept values sorted, positions to roll again): the lowest positions of a face stay."""
    left = list(keep)
    reroll = []
    for pos, v in enumerate(dice):
        if left[v - 1] > 0:
            left[v - 1] -= 1
        else:
            reroll.append(pos)
    kept = tuple(sorted(v for f, c in enumerate(keep) for v in [f + 1] * c))
    return kept, tuple(reroll)


# --- card notation -------------------------------------------------------------

def parse_card(rs: Ruleset, text: str) -> Scorecard:
    """A card from ``"ones=3,fours=12,col2:chance=20,extra=100"`` (see the module doc and
    :func:`yacht.parsing.parse_card`, the one card parser).

    Raises :class:`AdviceError` naming the problem and what is accepted.
    """
    a_ruleset(rs, "parse_card(ruleset, text)")
    if not isinstance(text, str):
        raise InvalidType(f"parse_card(ruleset, text): the card is text (\"ones=3,fours=12\"), "
                          f"not {type(text).__name__}")
    try:
        return parsing.parse_card(rs, text)
    except AdviceError:
        raise
    except parsing.InputError as e:
        raise AdviceError(str(e)) from None


def _a_card(card: object, call: str) -> None:
    if not isinstance(card, Scorecard):
        raise InvalidType(f"{call}: the card is a Scorecard (ruleset.new_card(), "
                          f"parse_card(ruleset, text)), not {type(card).__name__}")


def _possible_values(rs: Ruleset, i: int) -> frozenset[int]:
    """Every value box ``i`` can hold (:func:`yacht.parsing.possible_values`; this name is
    kept for the solver's native advisor)."""
    return parsing.possible_values(rs, i)


def card_text(rs: Ruleset, card: Scorecard) -> str:
    """The notation of :func:`parse_card` for ``card`` (round-trips).

    >>> from yacht.rules import get
    >>> rs = get("yatzy")
    >>> card_text(rs, parse_card(rs, "fours=12, extra=0"))
    'fours=12'
    >>> maxi = get("maxi-yatzy")
    >>> card_text(maxi, parse_card(maxi, "saved=2 ones=3"))   # rolls saved for later turns
    'ones=3,saved=2'
    """
    a_ruleset(rs, "card_text(ruleset, card)")
    _a_card(card, "card_text(ruleset, card)")
    items = []
    for col, boxes in enumerate(card.boxes):
        for cat, v in zip(rs.categories, boxes, strict=True):
            if v is not None:
                prefix = f"col{col + 1}:" if col else ""
                items.append(f"{prefix}{cat.id}={v}")
    if card.extra:
        items.append(f"extra={card.extra}")
    if card.saved:
        items.append(f"saved={card.saved}")
    return ",".join(items)
