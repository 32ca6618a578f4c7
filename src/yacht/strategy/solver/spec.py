"""Turn a :class:`~yacht.rules.Ruleset` into the flat arrays the kernels read.

The solver is generic: it reads the categories (through
``Category.score_counts``), the columns and their multipliers, the upper
bonus, the dice, faces and rolls, and recognises special rules by name
(``repeat_box``, ``forced_first_turn``, ``yahtzee_bonus_joker``), reading
their parameters. Anything else raises :class:`UnsupportedRuleset`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset, Scorecard, YachtError

from .dice import DiceTables, dice_tables

__all__ = ["ForcedTurn", "Spec", "UnsupportedRuleset", "compile_ruleset", "compiled"]

JOKER_MODES = {"none": 0, "forced": 1, "free": 2}


class UnsupportedRuleset(YachtError, ValueError):
    """A ruleset the solver cannot solve (an unknown special rule, or a combination)."""


@dataclass(frozen=True)
class ForcedTurn:
    """The forced first turn: roll (up to ``last_roll`` times) until all dice match."""

    box: int
    points: int
    free_rolls: int
    penalty: int
    floor: int
    last_roll: int

    def value(self, rolls: int) -> int:
        return max(self.floor, self.points - self.penalty * max(0, rolls - self.free_rolls))


@dataclass(frozen=True, eq=False)
class Spec:
    """A ruleset as kernel data. Boxes are numbered ``column * categories + category``."""

    ruleset: Ruleset
    dice: DiceTables
    rolls: int
    ncat: int
    ncols: int
    nbox: int
    score: npt.NDArray[np.int32]       # (nbox, nfull)
    box_upper: npt.NDArray[np.bool_]   # (nbox,) upper section (tracked when U > 1)
    box_mult: npt.NDArray[np.int32]    # (nbox,)
    U: int                             # upper totals tracked: 0..U-1 (1 when no bonus)
    need: int                          # upper total that earns the bonus
    bonus_amt: int
    ybox: int                          # Yahtzee-bonus/joker box or -1
    jmode: int                         # 0 none, 1 forced, 2 free
    ybonus: int                        # points per extra yacht while the box holds > 0
    joker_pts: npt.NDArray[np.int32]   # (nbox,) joker value or -1
    upper_of_face: npt.NDArray[np.int32]  # (faces,) box of that face in column 1, or -1
    rep_pts: npt.NDArray[np.int32]     # (nbox,) repeat points * multiplier, or 0
    forced: ForcedTurn | None
    #: a bonus by steps (Kismet's 35/55/75): the bonus of each capped upper total, paid
    #: at the end of the game (the table's values include it; ``need`` is then the cap
    #: and ``bonus_amt`` 0); None for a bonus of one step, paid when it is earned
    bonus_table: npt.NDArray[np.int32] | None = None
    #: the smallest upper total that earns any bonus
    low_need: int = 1 << 30
    #: points of every box for every outcome of a turn's first roll (Generala's served
    #: boxes), or None when the first roll scores as the others
    served: npt.NDArray[np.int32] | None = None
    #: a box that scores only while ``fbox`` holds points (Generala's doble), or -1;
    #: the state's flag then records whether ``fbox`` holds points
    needs_box: int = -1
    fbox: int = -1
    #: rolls every turn adds to the player's pool when unused rolls are saved (Maxi
    #: Yatzy), else 0: no exact table then (see :mod:`.pool`)
    pool: int = 0

    @property
    def nflag(self) -> int:
        """2 when a state bit records whether the bonus box (or the box another box
        needs) holds points."""
        return 2 if self.ybonus > 0 or self.fbox >= 0 else 1

    @property
    def flag_box(self) -> int:
        """The box whose holding points is the state's flag, or -1."""
        return self.ybox if self.ybonus > 0 else self.fbox

    @property
    def extended(self) -> bool:
        """Rules the C kernels do not know (served boxes, a box that needs
        another): such a table is built and its turns solved by :mod:`.extended`."""
        return self.served is not None or self.fbox >= 0

    @property
    def machine_play(self) -> bool:
        """Whether the kernels' self-play plays this table's games and counts their
        points (not with a bonus paid at the end, extended rules or saved rolls)."""
        return not self.extended and self.bonus_table is None and not self.pool

    def bonus_in_table(self, card: Scorecard) -> int:
        """The part of ``card``'s total the table's values hold too: a bonus by steps is
        paid at the end, so the table counts it whole (0 for other rules)."""
        if self.bonus_table is None:
            return 0
        rs = self.ruleset
        return rs.upper_bonus.amount_for(rs.totals(card).columns[0].upper) \
            if rs.upper_bonus is not None else 0

    def base_points(self, card: Scorecard) -> float:
        """The points on ``card`` that a value of the table is added to."""
        return float(self.ruleset.totals(card).grand - self.bonus_in_table(card))

    @property
    def A(self) -> int:
        return self.U * self.nflag

    def fingerprint(self) -> str:
        """A digest of everything the table depends on (rules, not names)."""
        h = hashlib.sha256()
        meta: dict[str, Any] = {
            "n": self.dice.n, "faces": self.dice.faces, "rolls": self.rolls,
            "ncat": self.ncat, "ncols": self.ncols, "U": self.U, "need": self.need,
            "bonus": self.bonus_amt, "ybox": self.ybox, "jmode": self.jmode,
            "ybonus": self.ybonus,
            "forced": None if self.forced is None else list(vars(self.forced).values()),
        }
        if self.bonus_table is not None or self.extended or self.pool:
            # (the tables of older rules keep their digest)
            meta.update(low_need=self.low_need, needs_box=self.needs_box, fbox=self.fbox,
                        pool=self.pool)
        h.update(json.dumps(meta, sort_keys=True).encode())
        for arr in (self.score, self.box_upper, self.box_mult, self.joker_pts,
                    self.upper_of_face, self.rep_pts, self.bonus_table, self.served):
            if arr is not None:
                h.update(np.ascontiguousarray(arr).tobytes())
        return h.hexdigest()

    # --- card states -------------------------------------------------------------
    def state_of(self, card: Scorecard) -> tuple[int, int]:
        """(mask, aux) of a card: filled boxes, capped upper total and bonus-box flag."""
        m = 0
        for col in range(self.ncols):
            for i in range(self.ncat):
                if card.boxes[col][i] is not None:
                    m |= 1 << (col * self.ncat + i)
        u = 0
        if self.U > 1:
            u = sum(int(card.boxes[0][i] or 0) for i in range(self.ncat) if self.box_upper[i])
            u = max(0, min(u, self.U - 1))
        flag = 0
        fb = self.flag_box
        if self.nflag == 2:
            v = card.boxes[fb // self.ncat][fb % self.ncat]
            flag = 1 if v is not None and v > 0 else 0
        return m, flag * self.U + u

    def umax(self) -> npt.NDArray[np.int32]:
        """For every mask, the largest upper total its filled boxes can hold (capped)."""
        nmask = 1 << self.nbox
        out = np.zeros(nmask, dtype=np.int64)
        if self.U > 1:
            masks = np.arange(nmask, dtype=np.int64)
            for b in range(self.nbox):
                if self.box_upper[b]:
                    out += ((masks >> b) & 1) * int(self.score[b].max())
        return np.minimum(out, self.U - 1).astype(np.int32)


def compile_ruleset(rs: Ruleset) -> Spec:
    """The kernel data of ``rs``; raises :class:`UnsupportedRuleset` when it cannot.

    >>> from yacht.rules import get
    >>> s = compile_ruleset(get("yahtzee"))
    >>> s.nbox, s.U, s.nflag, s.jmode
    (13, 64, 2, 1)
    """
    if rs.dice > 10 or rs.dice < 1:
        raise UnsupportedRuleset(f"{rs.id}: the solver handles 1-10 dice, not {rs.dice}")
    if rs.rolls < 1:
        raise UnsupportedRuleset(f"{rs.id}: a turn needs at least one roll")
    t = dice_tables(rs.dice, rs.faces)
    ncat, ncols = len(rs.categories), len(rs.columns)
    nbox = ncat * ncols
    if nbox > 26:
        raise UnsupportedRuleset(f"{rs.id}: {nbox} boxes is too many for an exact table (max 26)")
    full = [tuple(row) for row in t.counts[t.full_start:].tolist()]
    cat_scores = np.array([[c.score_counts(row) for row in full] for c in rs.categories],
                          dtype=np.int32).reshape(ncat, t.nfull)
    score = np.tile(cat_scores, (ncols, 1))
    box_mult = np.repeat(np.array(rs.columns, dtype=np.int32), ncat)
    upper = np.array([c.section == "upper" for c in rs.categories], dtype=np.bool_)
    box_upper = np.tile(upper, ncols)
    U, need, bonus_amt = 1, 1 << 30, 0
    bonus_table: npt.NDArray[np.int32] | None = None
    low_need = 1 << 30
    if rs.upper_bonus is not None:
        if ncols > 1:
            raise UnsupportedRuleset(
                f"{rs.id}: an upper bonus with {ncols} columns is not supported by the solver")
        need = low_need = max(0, rs.upper_bonus.needed)
        U, bonus_amt = need + 1, rs.upper_bonus.amount
        if rs.upper_bonus.tiers:
            # a bonus by steps: track the upper total up to the top step and pay the
            # bonus of the total reached at the end (the kernels' one crossing pays 0)
            need = max(0, rs.upper_bonus.top)
            U, bonus_amt = need + 1, 0
            bonus_table = np.array([rs.upper_bonus.amount_for(u) for u in range(U)],
                                   dtype=np.int32)
        if (cat_scores[upper] < 0).any():
            raise UnsupportedRuleset(f"{rs.id}: negative upper scores are not supported")
    ybox, jmode, ybonus = -1, 0, 0
    joker_pts = np.full(nbox, -1, dtype=np.int32)
    upper_of_face = np.full(rs.faces, -1, dtype=np.int32)
    rep_pts = np.zeros(nbox, dtype=np.int32)
    forced: ForcedTurn | None = None
    served: npt.NDArray[np.int32] | None = None
    needs_box = fbox = -1
    pool = 0
    settings = rs.option_values
    for special in rs.special:
        rule: Any = special  # read by name: parameters are the rule's own fields
        name = getattr(rule, "name", None)
        if name in ("penalty_on_others", "served_win"):
            # they touch only other players or end a game with opponents: a solitaire
            # score (what the table optimises) is the same without them
            continue
        if name == "saved_rolls":
            if rule.on(settings):
                if ncols > 1 or forced is not None or rep_pts.any():
                    raise UnsupportedRuleset(f"{rs.id}: saved rolls with other special "
                                             "rules or columns are not supported")
                pool = rs.rolls
            continue
        if name == "served_bonus":
            if ncols > 1:
                raise UnsupportedRuleset(f"{rs.id}: served boxes with {ncols} columns")
            extra = int(rule.amount(settings))
            served = np.array(cat_scores, dtype=np.int32, copy=True)
            for i, c in enumerate(rs.categories):
                if c.id in rule.categories:
                    served[i] = np.where(cat_scores[i] > 0, cat_scores[i] + extra, 0)
            continue
        if name == "needs_box":
            if not any(c.id == rule.category for c in rs.categories):
                continue  # the box is not on this card (an option dropped it)
            if ncols > 1 or fbox >= 0:
                raise UnsupportedRuleset(f"{rs.id}: a box needing another with {ncols} "
                                         "columns, or twice")
            needs_box, fbox = _index(rs, rule.category), _index(rs, rule.needs)
            continue
        if name == "yahtzee_bonus_joker":
            if ncols > 1:
                raise UnsupportedRuleset(f"{rs.id}: the Yahtzee bonus/joker rule is supported "
                                         "with one column only")
            if ybox >= 0:
                raise UnsupportedRuleset(f"{rs.id}: two yahtzee_bonus_joker rules")
            ybox = _index(rs, rule.category)
            mode = str(settings.get(rule.joker_option, "forced"))
            if mode not in JOKER_MODES:
                raise UnsupportedRuleset(f"{rs.id}: unknown joker mode {mode!r}")
            jmode = JOKER_MODES[mode]
            on = str(settings.get(rule.bonus_option, "on")) == "on"
            ybonus = int(rule.bonus) if on else 0
            for cid, pts in rule.joker_points:
                if any(c.id == cid for c in rs.categories):
                    joker_pts[_index(rs, cid)] = int(pts)
            for f in range(rs.faces):
                uc = rs.upper_category(f + 1)
                if uc is not None:
                    upper_of_face[f] = rs.index(uc.id)
        elif name == "repeat_box":
            i = _index(rs, rule.category)
            if rs.categories[i].section == "upper" and U > 1:
                raise UnsupportedRuleset(f"{rs.id}: a repeat box in the upper section with a "
                                         "bonus is not supported")
            for col in range(ncols):
                rep_pts[col * ncat + i] = int(rule.points) * rs.columns[col]
            if (rep_pts < 0).any():
                raise UnsupportedRuleset(f"{rs.id}: a repeat must be worth points")
        elif name == "forced_first_turn":
            if forced is not None:
                raise UnsupportedRuleset(f"{rs.id}: two forced_first_turn rules")
            i = _index(rs, rule.category)
            if upper[i] and U > 1:
                raise UnsupportedRuleset(f"{rs.id}: a forced first turn into an upper box with "
                                         "a bonus is not supported")
            forced = ForcedTurn(i, int(rule.points), int(rule.free_rolls),
                                int(rule.penalty), int(rule.floor),
                                int(rule.last_roll))
            if forced.penalty <= 0 or forced.last_roll < 1:
                raise UnsupportedRuleset(f"{rs.id}: the forced first turn needs a positive "
                                         "penalty and a last roll")
        else:
            raise UnsupportedRuleset(
                f"{rs.id}: the solver does not know the special rule {name!r} (known: "
                "repeat_box, forced_first_turn, yahtzee_bonus_joker, served_bonus, "
                "needs_box, saved_rolls (off), penalty_on_others, served_win)")
    if (served is not None or fbox >= 0) and (U > 1 or ybox >= 0 or forced is not None
                                              or rep_pts.any()):
        raise UnsupportedRuleset(f"{rs.id}: served boxes or a box needing another, with an "
                                 "upper bonus or other special rules, are not supported")
    return Spec(rs, t, rs.rolls, ncat, ncols, nbox, np.ascontiguousarray(score), box_upper,
                box_mult, U, need, bonus_amt, ybox, jmode, ybonus, joker_pts, upper_of_face,
                rep_pts, forced, bonus_table, low_need, served, needs_box, fbox, pool)


_COMPILED: dict[str, Spec] = {}


def compiled(rs: Ruleset) -> Spec:
    """:func:`compile_ruleset`, once per process and ruleset (a few ms each time
    otherwise: every category scored on every outcome)."""
    spec = _COMPILED.get(rs.key)
    if spec is None or spec.ruleset != rs:
        spec = _COMPILED[rs.key] = compile_ruleset(rs)
    return spec


def _index(rs: Ruleset, cid: str) -> int:
    try:
        return rs.index(cid)
    except KeyError:
        raise UnsupportedRuleset(f"{rs.id}: a special rule names the box {cid!r}, which the "
                                 "variant does not have") from None
