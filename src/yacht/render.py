"""Plain-text scorecards, shared by the commands and the plain (line) game."""

from __future__ import annotations

from collections.abc import Sequence

from yacht.rules import Ruleset, Scorecard

__all__ = ["card_table", "dice_text"]


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice)


def card_table(rs: Ruleset, names: Sequence[str], cards: Sequence[Scorecard],
               preview: dict[tuple[str, int], int] | None = None) -> str:
    """Every player's card side by side; ``preview`` shows open boxes' points in brackets.

    >>> from yacht.rules import get
    >>> rs = get("tommys-crag")
    >>> print(card_table(rs, ["Ann"], [rs.new_card()]).splitlines()[0])
    Box               Ann
    """
    ncol = len(rs.columns)
    label_w = max([len(c.label) for c in rs.categories] + [len("Grand total"), 14])
    heads: list[str] = []
    for name in names:
        for col in range(ncol):
            heads.append(name if ncol == 1 else f"{name[:8]} {col + 1}")
    cell_w = max([6] + [len(h) for h in heads])

    def row(label: str, cells: Sequence[str]) -> str:
        return f"{label:<{label_w}} " + " ".join(f"{c:>{cell_w}}" for c in cells)

    lines = [row("Box", heads)]
    totals = [rs.totals(card) for card in cards]
    for section in ("upper", "lower"):
        for i, cat in enumerate(rs.categories):
            if cat.section != section:
                continue
            cells = []
            for p, card in enumerate(cards):
                for col in range(ncol):
                    v = card.boxes[col][i]
                    if v is not None:
                        cells.append(str(v))
                    elif preview is not None and p == 0 and (cat.id, col) in preview:
                        cells.append(f"[{preview[(cat.id, col)]}]")
                    else:
                        cells.append("-")
            lines.append(row(cat.label, cells))
        if section == "upper" and any(c.section == "upper" for c in rs.categories):
            lines.append(row("Upper total", [str(t.columns[c].upper) for t in totals
                                             for c in range(ncol)]))
            if rs.upper_bonus:
                lines.append(row("Upper bonus", [str(t.columns[c].bonus) for t in totals
                                                 for c in range(ncol)]))
    if ncol > 1:
        lines.append(row("Column total", [
            f"{t.columns[c].subtotal}" + (f"x{t.columns[c].multiplier}"
                                          if t.columns[c].multiplier != 1 else "")
            for t in totals for c in range(ncol)]))
    if any(t.extra for t in totals) or any(r.name == "yahtzee_bonus_joker" for r in rs.special):
        lines.append(row("Extra bonus", [str(t.extra) if c == 0 else "" for t in totals
                                         for c in range(ncol)]))
    lines.append(row("Grand total", [str(t.grand) if c == ncol - 1 else "" for t in totals
                                     for c in range(ncol)]))
    return "\n".join(lines)
