"""Single situations in machine code: the C extension's ``Advisor`` of one table.

``SolvedVariant.options``/``best``/``value`` and ``advisor.advise_card`` ask
it first: it reads the situation (the notation's plain form
``"13356 r2 ones=3,fours=12"``, or the card, dice and rolls left as
objects), solves the turn and builds the result objects in one C call. For
anything unusual (loose notation, the forced first turn, a full card, bad
input) it answers None and the caller takes its general Python path, which
gives the same answer or the error message. (Without the C extension there is
no exact solver at all, see :mod:`.backend`.)

>>> from yacht.rules import get
>>> from yacht.strategy.solver import solve
>>> adv = native_advisor(solve(get("tommys-crag")))
>>> adv is None or [str(o) for o in adv.options_text("336 r1 crag=50")[:2]] == [
...     "keep 3 3", "keep 6"]
True
>>> adv is None or adv.options_text("3,3,6 r1 crag=50") is None   # not the plain form
True
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from yacht.engine import State
    from yacht.rules import Ruleset

    from .build import Solution

__all__ = ["AdvisorData", "native_advisor", "rank", "rank_state"]


class AdvisorData(NamedTuple):
    """What the C ``Advisor`` reads (by field name) besides the table."""

    ncat: int
    forced_box: int                     # the forced first turn's box, or -1
    has_bonus: int                      # an upper bonus: earned at bonus_need
    bonus_need: int
    bonus_amount: int
    options_ok: bool                    # the batch kernel covers the ruleset
    rows_ok: bool                       # no box scores below 0 (placement rows are exact)
    box_ids: tuple[str, ...]            # per box (column * ncat + category)
    box_cols: tuple[int, ...]
    dice_of: tuple[tuple[int, ...], ...]   # the dice values of every multiset index
    names: tuple[str, ...]              # per box: its name in the card notation
    allowed: tuple[tuple[int, ...], ...]   # per category: the values it can hold
    rep_raw: tuple[int, ...]            # per box: the repeat box's points, or 0
    option_type: Any                    # yacht.strategy.api.Option
    ranked_type: Any                    # yacht.strategy.advisor.Ranked, or None: no ranking


_LOCK = threading.Lock()


def native_advisor(sol: Solution) -> Any | None:
    """The ``Advisor`` of ``sol`` (made on first use, kept on the solution), or None
    when the C extension is not in use."""
    got = sol._advisor
    if got:
        return got[0]
    adv = _make(sol)
    with _LOCK:
        if not sol._advisor:
            sol._advisor.append(adv)
        return sol._advisor[0]


def _make(sol: Solution) -> Any | None:
    from .backend import current

    be: Any = current()
    if be.name != "native" or not hasattr(be.mod, "Advisor"):
        return None
    from yacht.parsing import possible_values as possible

    from ..ranking import Option, Ranked
    from .tables import scores_ok, wide_ok

    spec = sol.spec
    if spec.extended or spec.pool:  # rules the kernels do not know: the Python ranking
        return None
    rs = spec.ruleset
    t = spec.dice
    ncat = spec.ncat
    allowed = tuple(tuple(sorted(possible(rs, i))) for i in range(ncat))
    rep_raw = [0] * spec.nbox
    ranked: Any = Ranked
    for special in rs.special:
        rule: Any = special
        if rule.name == "repeat_box":
            i = rs.index(rule.category)
            for col in range(spec.ncols):
                rep_raw[col * ncat + i] = int(rule.points)
            if spec.ybox >= 0:  # two rules on yachts: their order matters, leave it to Python
                ranked = None
    if not hasattr(Ranked, "__slots__"):
        ranked = None
    # a bonus by steps is in the table's values (paid at the end): not on the card's total
    bonus = rs.upper_bonus if spec.bonus_table is None else None
    data = AdvisorData(
        ncat=ncat, forced_box=-1 if spec.forced is None else spec.forced.box,
        has_bonus=int(bonus is not None), bonus_need=bonus.needed if bonus else 0,
        bonus_amount=bonus.amount if bonus else 0,
        options_ok=wide_ok(spec), rows_ok=scores_ok(spec),
        box_ids=tuple(c.id for _ in range(spec.ncols) for c in rs.categories),
        box_cols=tuple(col for col in range(spec.ncols) for _ in rs.categories),
        dice_of=tuple(t.dice_of(k) for k in range(t.nall)),
        names=tuple(f"col{col + 1}:{c.id}" if col else c.id
                    for col in range(spec.ncols) for c in rs.categories),
        allowed=allowed, rep_raw=tuple(rep_raw), option_type=Option, ranked_type=ranked)
    return be.mod.Advisor(be.tables(spec), sol.V, data)


_SAME: dict[int, tuple[Ruleset, Ruleset, bool]] = {}
_MEMORY: list[Any] = []


def rank(ruleset: Ruleset, card: Any, turn: int, dice: Any, rolls_left: int,
         solution: Solution | None = None) -> Any | None:
    """``advise_card``'s ranking in one C call (a normal turn, the table given or in
    memory, input the C side reads without doubt), else None."""
    sol = solution
    if sol is None:
        if not _MEMORY:
            from .build import memory_solution

            _MEMORY.append(memory_solution)
        sol = _MEMORY[0](ruleset)
        if sol is None:
            return None
    adv = sol._advisor[0] if sol._advisor else native_advisor(sol)
    if adv is None:
        return None
    own = sol.spec.ruleset
    if ruleset is not own:
        hit = _SAME.get(id(ruleset))
        if hit is None or hit[0] is not ruleset or hit[1] is not own:
            if len(_SAME) > 256:
                _SAME.clear()
            hit = _SAME[id(ruleset)] = (ruleset, own, ruleset == own)
        if not hit[2]:
            return None
    return adv.rank(card, turn, dice, rolls_left)


def rank_state(state: State, solution: Solution | None = None) -> Any | None:
    """``advise(state)``'s ranking in one C call, else None. On a normal turn (which is
    all the C side answers: not the forced first turn) a turn allows the ruleset's
    rolls and no rule stops a re-roll, so the rolls left are those not yet made."""
    dice = state.dice
    if not dice:
        return None
    rs = state.ruleset
    me = state.current
    return rank(rs, state.card(me), state.turns_taken(me), dice, max(0, rs.rolls - state.rolls),
                solution)
