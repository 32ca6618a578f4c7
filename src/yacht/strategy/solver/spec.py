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

from yacht.rules import Ruleset, Scorecard

from .dice import DiceTables, dice_tables

__all__ = ["ForcedTurn", "Spec", "UnsupportedRuleset", "compile_ruleset", "compiled"]

JOKER_MODES = {"none": 0, "forced": 1, "free": 2}


class UnsupportedRuleset(ValueError):
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

    @property
    def nflag(self) -> int:
        """2 when a state bit records whether the bonus box holds points."""
        return 2 if self.ybonus > 0 else 1

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
        h.update(json.dumps(meta, sort_keys=True).encode())
        for arr in (self.score, self.box_upper, self.box_mult, self.joker_pts,
                    self.upper_of_face, self.rep_pts):
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
        if self.ybonus > 0:
            v = card.boxes[self.ybox // self.ncat][self.ybox % self.ncat]
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
    if rs.upper_bonus is not None:
        if ncols > 1:
            raise UnsupportedRuleset(
                f"{rs.id}: an upper bonus with {ncols} columns is not supported by the solver")
        need = max(0, rs.upper_bonus.needed)
        U, bonus_amt = need + 1, rs.upper_bonus.amount
        if (cat_scores[upper] < 0).any():
            raise UnsupportedRuleset(f"{rs.id}: negative upper scores are not supported")
    ybox, jmode, ybonus = -1, 0, 0
    joker_pts = np.full(nbox, -1, dtype=np.int32)
    upper_of_face = np.full(rs.faces, -1, dtype=np.int32)
    rep_pts = np.zeros(nbox, dtype=np.int32)
    forced: ForcedTurn | None = None
    settings = rs.option_values
    for special in rs.special:
        rule: Any = special  # read by name: parameters are the rule's own fields
        name = getattr(rule, "name", None)
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
                "repeat_box, forced_first_turn, yahtzee_bonus_joker)")
    return Spec(rs, t, rs.rolls, ncat, ncols, nbox, np.ascontiguousarray(score), box_upper,
                box_mult, U, need, bonus_amt, ybox, jmode, ybonus, joker_pts, upper_of_face,
                rep_pts, forced)


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
