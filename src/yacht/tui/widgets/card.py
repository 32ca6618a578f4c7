"""Every player's scorecard side by side, with the points the open boxes would score."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from yacht.engine import State
from yacht.rules import Placement
from yacht.session.keys import category_keys

__all__ = ["CardCell", "ScoreCard"]


@dataclass(frozen=True)
class CardCell:
    """What a cell of the card stands for: a box of one player's column."""

    category: str | None   # None for a totals row
    player: int | None     # None for the key and label columns
    column: int


class ScoreCard(DataTable[Text]):
    """The scorecards as one table: a row per box, a column per player (and card column).

    Enter on a box, or a click on it, posts ``CellSelected``; the game screen
    turns that into a scoring.
    """

    DEFAULT_CSS = """
    ScoreCard { height: auto; max-height: 100%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(cursor_type="cell", zebra_stripes=False, id=id)
        self._shape: tuple[object, ...] | None = None
        self._signature: tuple[object, ...] | None = None
        self._values: dict[str, list[Text]] = {}
        self.cells: dict[tuple[int, int], CardCell] = {}

    async def _on_click(self, event: events.Click) -> None:
        before = self.cursor_coordinate
        await super()._on_click(event)
        meta = event.style.meta
        if ("row" in meta and meta["row"] >= 0 and meta.get("column", -1) >= 0
                and self.cursor_coordinate != before):
            self._post_selected_message()  # type: ignore[no-untyped-call]  # one click scores (the default wants two)
        # Textual would call DataTable._on_click again (each class's handler runs): it
        # would post a second selection of the same box (a spurious refusal, or the
        # Next player pause skipped)
        event.prevent_default()

    def cell_at(self, coord: Coordinate) -> CardCell | None:
        return self.cells.get((coord.row, coord.column))

    def show(self, state: State, preview: bool = True, marker: bool = True) -> None:
        """Draw the cards of ``state``; ``preview`` shows what the open boxes would score.

        Only the cells that changed are redrawn when the table keeps its rows and columns.
        """
        rs = state.ruleset
        signature = (tuple(state.card(i) for i in range(len(state.players))), state.current,
                     state.dice if preview else None, state.rolls, preview, marker)
        if signature == self._signature:
            return  # nothing on the card changed (e.g. a die was chosen): no redraw
        self._signature = signature
        ncol = len(rs.columns)
        names = [p.name for p in state.players]
        keys = category_keys(rs)
        places: dict[tuple[str, int], Placement] = {}
        if preview:
            for pl in state.placements():
                box = (pl.category, pl.column)
                if box not in places or pl.total > places[box].total:
                    places[box] = pl
        totals = [state.totals(p) for p in range(len(names))]
        cards = [state.card(p) for p in range(len(names))]
        cells: dict[tuple[int, int], CardCell] = {}
        rows: list[tuple[str, list[Text]]] = []

        def data_cells(cat_index: int, cat_id: str) -> list[Text]:
            out = []
            for p in range(len(names)):
                for c in range(ncol):
                    v = cards[p].boxes[c][cat_index]
                    pl = places.get((cat_id, c)) if p == state.current else None
                    if pl is not None and (v is None or pl.repeat):
                        shown = f"{v}+" if v is not None else ""
                        out.append(Text(f"{shown}({pl.total})", style="italic green",
                                        justify="right"))
                    elif v is not None:
                        out.append(Text(str(v), justify="right"))
                    else:
                        out.append(Text("·", style="dim", justify="right"))
                    cells[(len(rows), 2 + p * ncol + c)] = CardCell(cat_id, p, c)
            return out

        def total_row(label: str, values: list[str]) -> None:
            rows.append((f"total-{label}", [
                Text(""), Text(label, style="bold"),
                *[Text(v, style="bold", justify="right") for v in values]]))

        for section in ("upper", "lower"):
            cats = [(i, c) for i, c in enumerate(rs.categories) if c.section == section]
            for i, cat in cats:
                for col_i in range(2):
                    cells[(len(rows), col_i)] = CardCell(cat.id, None, 0)
                rows.append((cat.id, [Text(keys[cat.id], style="bold underline"),
                                      Text(cat.label), *data_cells(i, cat.id)]))
            if not cats:
                continue
            if section == "upper":
                total_row("Upper total", [str(t.columns[c].upper) for t in totals
                                          for c in range(ncol)])
                if rs.upper_bonus:
                    total_row(f"Bonus (≥{rs.upper_bonus.needed})",
                              [str(t.columns[c].bonus) for t in totals for c in range(ncol)])
            else:
                total_row("Lower total", [str(t.columns[c].lower) for t in totals
                                          for c in range(ncol)])
        if ncol > 1:
            total_row("Column total", [
                f"{t.columns[c].subtotal}" + (f"×{t.columns[c].multiplier}"
                                              if t.columns[c].multiplier != 1 else "")
                for t in totals for c in range(ncol)])
        if any(t.extra for t in totals):
            total_row("Extra bonus", [str(t.extra) if c == 0 else "" for t in totals
                                      for c in range(ncol)])
        total_row("Grand total", [str(t.grand) if c == ncol - 1 else "" for t in totals
                                  for c in range(ncol)])
        self.cells = cells

        shape = (rs.key, tuple(names), state.current if marker else -1,
                 tuple(k for k, _ in rows))
        col_keys = ["key", "label"] + [f"p{p}c{c}" for p in range(len(names))
                                       for c in range(ncol)]
        if shape == self._shape:
            for key, values in rows:
                old = self._values.get(key, [])
                for i, value in enumerate(values):
                    if i >= len(old) or old[i] != value:
                        self.update_cell(key, col_keys[i], value, update_width=True)
            self._values = {k: v for k, v in rows}
            return
        cursor = self.cursor_coordinate
        turn_changed = self._shape is None or self._shape[2] != shape[2]
        self.clear(columns=True)
        self.fixed_columns = 2  # the keys and the labels stay when the card scrolls sideways
        self.add_column("", key="key")
        self.add_column("Box", key="label")
        for p, name in enumerate(names):
            for c in range(ncol):
                head = name[:10] if ncol == 1 else f"{name[:6]} {c + 1}"
                if ncol > 1 and rs.columns[c] != 1:
                    head += f"×{rs.columns[c]}"
                if marker and p == state.current:
                    head = "▶" + head
                self.add_column(Text(head, style="bold" if p == state.current else ""),
                                key=f"p{p}c{c}")
        for key, values in rows:
            self.add_row(*values, key=key)
        self._shape = shape
        self._values = {k: v for k, v in rows}
        if self.row_count:
            column = cursor.column
            if marker and turn_changed:
                column = 2 + state.current * ncol  # the cursor goes to the card on turn
            self.cursor_coordinate = Coordinate(min(cursor.row, self.row_count - 1),
                                                min(column, len(self.columns) - 1))
            if marker:
                first, last = 2 + state.current * ncol, 2 + state.current * ncol + ncol - 1
                self.call_after_refresh(self.scroll_to_columns, first, last)

    def scroll_to_columns(self, first: int, last: int) -> None:
        """Scroll sideways so that card columns ``first``..``last`` are in view."""
        if not self.row_count or last >= len(self.columns):
            return
        left = self._get_cell_region(Coordinate(0, first))
        right = self._get_cell_region(Coordinate(0, last))
        fixed = self._get_fixed_offset().left
        view = self.scrollable_content_region.width - fixed
        if right.right - left.x <= view:
            # the player's first column right after the labels: no half column before it
            self.scroll_to(x=max(0, left.x - fixed), animate=False, force=True)
        else:
            self.scroll_to_region(left.union(right), animate=False,
                                  spacing=self._get_fixed_offset(), force=True)

    def move_to(self, category: str, player: int, column: int) -> None:
        """Put the cursor on a box of a player's card."""
        for (r, c), cell in self.cells.items():
            if cell.category == category and cell.player == player and cell.column == column:
                self.cursor_coordinate = Coordinate(r, c)
                return
