"""Every player's scorecard side by side, with the points the open boxes would score."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.widgets import DataTable

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

    def show(self, snap: Mapping[str, Any], preview: bool = True, marker: bool = True) -> None:
        """Draw the cards of a table snapshot; ``preview`` shows what the open boxes of
        the player on turn would score.

        Only the cells that changed are redrawn when the table keeps its rows and columns.
        """
        current = int(snap["current"])
        previews = snap["previews"] if preview else []
        signature = (snap["ruleset"]["key"], tuple(p["name"] for p in snap["players"]),
                     repr([c["cells"] for c in snap["cards"]]), current,
                     repr(previews), marker)
        if signature == self._signature:
            return  # nothing on the card changed (e.g. a die was chosen): no redraw
        self._signature = signature
        columns = list(snap["ruleset"]["columns"])
        ncol = len(columns)
        names = [p["name"] for p in snap["players"]]
        places = {(p["category"], p["column"]): p for p in previews}
        cells: dict[tuple[int, int], CardCell] = {}
        rows: list[tuple[str, list[Text]]] = []
        for row in snap["rows"]:
            rid = row["id"]
            if row["kind"] == "total":
                values = [c["cells"][rid][col] for c in snap["cards"] for col in range(ncol)]
                rows.append((f"total-{rid}", [
                    Text(""), Text(row["label"], style="bold"),
                    *[Text(v, style="bold", justify="right") for v in values]]))
                continue
            cat = row["category"]
            out: list[Text] = []
            for p, card in enumerate(snap["cards"]):
                for c in range(ncol):
                    v = card["cells"][rid][c]
                    pl = places.get((cat, c)) if p == current else None
                    if pl is not None and (not v or pl["repeat"]):
                        held = f"{v}+" if v else ""  # a repeat adds to what the box holds
                        out.append(Text(f"{held}({pl['text']})", style="italic green",
                                        justify="right"))
                    elif v:
                        out.append(Text(v, justify="right"))
                    else:
                        out.append(Text("·", style="dim", justify="right"))
                    cells[(len(rows), 2 + p * ncol + c)] = CardCell(cat, p, c)
            for col_i in range(2):
                cells[(len(rows), col_i)] = CardCell(cat, None, 0)
            rows.append((cat, [Text(row["letter"] or "", style="bold underline"),
                               Text(row["label"]), *out]))
        self.cells = cells

        heads: list[Text] = [Text(""), Text("Box")]
        for p, name in enumerate(names):
            mine = marker and p == current
            for c in range(ncol):
                if ncol == 1:
                    head = ("▶" if mine else "") + name[:10]
                else:
                    # two lines: the name over the player's first column, the column
                    # numbers (and the multiplier) under it: narrow enough for four
                    # players' cards beside the dice at 120 columns
                    sub = f"{c + 1}" + (f"×{columns[c]}" if columns[c] != 1 else "")
                    head = f"{name[:10] if c == 0 else ''}\n{'▶' if mine else ''}{sub}"
                heads.append(Text(head, style="bold" if p == current else ""))
        # the widths are worked out here rather than by the table, which measures new
        # cells only when idle: a frame drawn before that (a quick click after an Oops)
        # was kept in its line cache with the old widths, and clicks missed their boxes
        widths = tuple(max([*(line.cell_len for line in head.split()),
                            *(values[i].cell_len for _, values in rows)])
                       for i, head in enumerate(heads))
        shape = (snap["ruleset"]["key"], tuple(names), current if marker else -1,
                 tuple(k for k, _ in rows), widths)
        col_keys = ["key", "label"] + [f"p{p}c{c}" for p in range(len(names))
                                       for c in range(ncol)]
        if shape == self._shape:
            for key, values in rows:
                old = self._values.get(key, [])
                for i, value in enumerate(values):
                    if i >= len(old) or old[i] != value:
                        self.update_cell(key, col_keys[i], value)
            self._values = {k: v for k, v in rows}
            return
        cursor = self.cursor_coordinate
        turn_changed = self._shape is None or self._shape[2] != shape[2]
        self.clear(columns=True)
        self.fixed_columns = 2  # the keys and the labels stay when the card scrolls sideways
        self.header_height = 2 if ncol > 1 else 1
        for col_key, head_text, width in zip(col_keys, heads, widths, strict=True):
            self.add_column(head_text, key=col_key, width=width)
        for key, values in rows:
            self.add_row(*values, key=key)
        # the size the table works out when next idle, now: the first frame is laid
        # out right (not drawn once more when the table has measured itself)
        self.virtual_size = Size(sum(w + 2 * self.cell_padding for w in widths),
                                 len(rows) + self.header_height)
        self._shape = shape
        self._values = {k: v for k, v in rows}
        if self.row_count:
            column = cursor.column
            if marker and turn_changed:
                column = 2 + current * ncol  # the cursor goes to the card on turn
            self.cursor_coordinate = Coordinate(min(cursor.row, self.row_count - 1),
                                                min(column, len(self.columns) - 1))
            if marker and turn_changed:  # (not when a preview only widens a column)
                first, last = 2 + current * ncol, 2 + current * ncol + ncol - 1
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
