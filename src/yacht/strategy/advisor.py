"""The advisor: every legal action in a situation, ranked by expected final score.

A situation is the player's card, the turn number, the dice showing and the
rolls left. Values are solitaire values from the exact solver (the player's
own card only). Each distinct keep (the dice values kept; keeping every die
is not a keep, that is scoring) and each legal placement (with its points,
as the engine gives them) gets its expected final total, points already on
the card included, and its loss against the best.

Card notation (for :func:`parse_card` and ``yacht advise --card``):
comma-separated ``box=points`` items, box ids as in ``yacht rules``;
``col2:box=points`` or ``box@2=points`` for the second column; ``extra=N``
for points that belong to no box (Yahtzee bonuses). An empty text is an
empty card.

>>> from yacht.rules import get
>>> rs = get("yatzy")
>>> card = parse_card(rs, "ones=3,fours=12")
>>> card.boxes[0][:4]
(3, None, None, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from yacht.engine import Score, State
from yacht.rules import Ruleset, Scorecard, counts_of

from .base import Decision

if TYPE_CHECKING:
    from .solver import Solution

__all__ = ["AdviceError", "Ranked", "advise", "advise_card", "best_decision", "card_text",
           "parse_card"]


class AdviceError(ValueError):
    """A situation that cannot be advised on (bad card, dice or rolls left)."""


@dataclass(frozen=True)
class Ranked:
    """One legal action with its expected final total and its loss against the best."""

    kind: Literal["keep", "score"]
    expected: float
    loss: float
    keep: tuple[int, ...] = ()
    reroll: tuple[int, ...] = ()
    category: str | None = None
    column: int = 0
    points: int = 0

    def decision(self) -> Decision:
        if self.kind == "score":
            assert self.category is not None
            return Decision(score=Score(self.category, self.column))
        return Decision(reroll=self.reroll)

    def describe(self, rs: Ruleset) -> str:
        if self.kind == "keep":
            kept = " ".join(map(str, self.keep)) or "nothing"
            return f"keep {kept}, roll {len(self.reroll)}"
        assert self.category is not None
        label = rs.category(self.category).label
        col = f" (column {self.column + 1})" if len(rs.columns) > 1 else ""
        return f"score {label}{col} for {self.points}"

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"kind": self.kind, "expected": round(self.expected, 6),
                                "loss": round(self.loss, 6)}
        if self.kind == "keep":
            d["keep"] = list(self.keep)
            d["reroll"] = list(self.reroll)
        else:
            d.update(category=self.category, column=self.column, points=self.points)
        return d


def _solution(rs: Ruleset, solution: Solution | None) -> Solution:
    if solution is not None:
        return solution
    from .solver import solve

    return solve(rs, estimate=False)


def advise_card(ruleset: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
                rolls_left: int, solution: Solution | None = None) -> list[Ranked]:
    """Rank every legal action, best first.

    ``turn`` counts the turns the player has taken (0 = first turn);
    ``rolls_left`` is how many rolls the turn still allows.
    """
    rs = ruleset
    if len(card.boxes) != len(rs.columns) or any(len(c) != len(rs.categories)
                                                 for c in card.boxes):
        raise AdviceError(f"the card does not fit {rs.id}")
    if card.complete:
        raise AdviceError("the card is full: the game is over")
    dice = tuple(int(v) for v in dice)
    if len(dice) != rs.dice or any(not 1 <= v <= rs.faces for v in dice):
        raise AdviceError(f"{rs.id} needs {rs.dice} dice with values 1-{rs.faces}")
    if turn < 0:
        raise AdviceError("the turn number cannot be negative")
    counts = counts_of(dice, rs.faces)
    most = rs.max_rolls(rs.context(card, turn, 1))
    if not 0 <= rolls_left <= most - 1:
        raise AdviceError(f"rolls left must be 0-{most - 1} in this turn, not {rolls_left}")
    made = most - rolls_left
    ctx = rs.context(card, turn, made)
    sol = _solution(rs, solution)
    spec = sol.spec
    base = float(rs.totals(card).grand)
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
            if b == spec.ybox and spec.ybonus > 0:
                flag2 = 1 if p.points > 0 else 0
            value = base + gained + float(V[m | (1 << b), flag2 * spec.U + u2])
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
            table = Ks[rolls_left - 1]
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
    if state.is_terminal():
        raise AdviceError("the game is over")
    if not state.dice:
        raise AdviceError("roll first: there are no dice to advise on")
    me = state.current
    return advise_card(state.ruleset, state.card(me), state.turns_taken(me), state.dice,
                       state.rolls_left if state.may_reroll() else 0, solution)


def best_decision(state: State, solution: Solution | None = None) -> Decision:
    """The optimal decision for the player on turn."""
    return advise(state, solution)[0].decision()


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
    """A card from ``"ones=3,fours=12,col2:chance=20,extra=100"`` (see the module doc).

    Raises :class:`AdviceError` naming the problem and what is accepted.
    """
    quick = _quick_card(rs, text)
    if quick is not None:
        return quick
    card = rs.new_card()
    extra = 0
    ncols = len(rs.columns)
    for raw in text.replace(";", ",").split(","):
        item = raw.strip()
        if not item:
            continue
        name, sep, value_text = item.partition("=")
        if not sep:
            raise AdviceError(f"card item {item!r} is not BOX=POINTS (e.g. fours=12)")
        name = name.strip().lower().replace("-", "_").replace(" ", "_")
        try:
            value = int(value_text.strip())
        except ValueError:
            raise AdviceError(f"card item {item!r}: {value_text.strip()!r} is not a whole "
                              "number") from None
        if name == "extra":
            if value < 0:
                raise AdviceError("extra points cannot be negative")
            extra += value
            continue
        col = 0
        if name.startswith("col") and ":" in name:
            prefix, _, name = name.partition(":")
            col = _column(prefix[3:], ncols, item)
        elif "@" in name:
            name, _, suffix = name.partition("@")
            col = _column(suffix, ncols, item)
        ids = _ids(rs)
        if name not in ids:
            raise AdviceError(f"card item {item!r}: unknown box {name!r} (accepted: "
                              f"{', '.join(ids)}, extra)")
        i = ids.index(name)
        if card.boxes[col][i] is not None:
            raise AdviceError(f"card item {item!r}: that box is given twice")
        allowed = _possible_values(rs, i)
        if value not in allowed:
            shown = sorted(allowed)
            more = "" if len(shown) <= 12 else ", ..."
            raise AdviceError(f"card item {item!r}: {name} cannot hold {value} (possible: "
                              f"{', '.join(map(str, shown[:12]))}{more})")
        card = card.with_box(col, i, value)
    return Scorecard(card.boxes, extra)


_NAMES: dict[int, tuple[Ruleset, dict[str, tuple[int, int, set[int]]]]] = {}


def _quick_card(rs: Ruleset, text: str) -> Scorecard | None:
    """:func:`parse_card` for well-formed text (the notation as :func:`card_text` writes
    it, in any order); None for anything else, which the full parser then explains."""
    hit = _NAMES.get(id(rs))
    if hit is None or hit[0] is not rs:
        names: dict[str, tuple[int, int, set[int]]] = {}
        for col in range(len(rs.columns)):
            for i, cat in enumerate(rs.categories):
                key = f"col{col + 1}:{cat.id}" if col else cat.id
                names[key] = (col, i, _possible_values(rs, i))
        if len(_NAMES) > 64:
            _NAMES.clear()
        hit = _NAMES[id(rs)] = (rs, names)
    names = hit[1]
    boxes = [list(c) for c in rs.new_card().boxes]
    extra = 0
    if not text:
        return Scorecard(tuple(tuple(c) for c in boxes), 0)
    for item in text.split(","):
        name, sep, value_text = item.partition("=")
        if not sep or not value_text.isdigit():
            return None
        value = int(value_text)
        if name == "extra":
            extra += value
            continue
        slot = names.get(name)
        if slot is None:
            return None
        col, i, allowed = slot
        if boxes[col][i] is not None or value not in allowed:
            return None
        boxes[col][i] = value
    return Scorecard(tuple(tuple(c) for c in boxes), extra)


def _column(text: str, ncols: int, item: str) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= ncols:
        raise AdviceError(f"card item {item!r}: column must be 1-{ncols}")
    return int(text) - 1


_POSSIBLE: dict[int, tuple[Ruleset, dict[int, set[int]]]] = {}
_IDS: dict[int, tuple[Ruleset, list[str]]] = {}


def _ids(rs: Ruleset) -> list[str]:
    """The box ids of ``rs`` (kept per ruleset object)."""
    hit = _IDS.get(id(rs))
    if hit is None or hit[0] is not rs:
        if len(_IDS) > 64:
            _IDS.clear()
        hit = _IDS[id(rs)] = (rs, [c.id for c in rs.categories])
    return hit[1]


def _possible_values(rs: Ruleset, i: int) -> set[int]:
    """Every value box ``i`` can hold (kept per ruleset object)."""
    hit = _POSSIBLE.get(id(rs))
    if hit is None or hit[0] is not rs:
        if len(_POSSIBLE) > 64:
            _POSSIBLE.clear()
        hit = _POSSIBLE[id(rs)] = (rs, {})
    values = hit[1].get(i)
    if values is None:
        values = hit[1][i] = _compute_possible_values(rs, i)
    return values


def _compute_possible_values(rs: Ruleset, i: int) -> set[int]:
    from itertools import combinations_with_replacement

    cat = rs.categories[i]
    vals = {cat.score_counts(counts_of(d, rs.faces))
            for d in combinations_with_replacement(range(1, rs.faces + 1), rs.dice)}
    vals.add(0)
    for special in rs.special:
        rule: Any = special
        if rule.name == "yahtzee_bonus_joker":
            vals.update(int(v) for k, v in rule.joker_points if k == cat.id)
        elif rule.name == "forced_first_turn" and rule.category == cat.id:
            vals.update(int(rule.value(r))
                        for r in range(1, int(rule.last_roll) + 1))
        elif rule.name == "repeat_box" and rule.category == cat.id:
            pts = int(rule.points)
            vals.update(v + k * pts for v in list(vals) for k in range(1, 60))
    return vals


def card_text(rs: Ruleset, card: Scorecard) -> str:
    """The notation of :func:`parse_card` for ``card`` (round-trips).

    >>> from yacht.rules import get
    >>> rs = get("yatzy")
    >>> card_text(rs, parse_card(rs, "fours=12, extra=0"))
    'fours=12'
    """
    items = []
    for col, boxes in enumerate(card.boxes):
        for cat, v in zip(rs.categories, boxes, strict=True):
            if v is not None:
                prefix = f"col{col + 1}:" if col else ""
                items.append(f"{prefix}{cat.id}={v}")
    if card.extra:
        items.append(f"extra={card.extra}")
    return ",".join(items)
