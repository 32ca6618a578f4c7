"""Reduced games of the big variants: the same rules (hooks, columns, dice) on fewer
boxes, for tests that exercise a generic path and need not build the full table."""

from __future__ import annotations

from dataclasses import replace

from yacht.rules import Ruleset, get


def reduced_ancient_yacht_double() -> Ruleset:
    """Ancient Yacht's two columns (the second counting double) on six of its twelve
    boxes: still solved exactly, on 2^12 cards rather than the 2^24 of the full game
    (whose table takes ~30-40 s CPU and no test needs whole)."""
    rs = get("ancient-yacht-double")
    keep = ("fives", "sixes", "choice", "full_house", "small_straight", "yacht")
    cats = tuple(c for c in rs.categories if c.id in keep)
    return replace(rs, id="reduced-ancient-yacht-double", categories=cats, catalogue=cats)
