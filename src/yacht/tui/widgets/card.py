"""Every player's scorecard side by side, with the points the open boxes would score.

A small terminal gets a tighter card (:class:`CardStyle`): one space between the
columns, the players by number in the heading (their names stand in the players'
list beside it), shorter box names, and at last only some players' cards (the one
on turn first; the others are summed up in the players' list). A short terminal
gets a folded card: its rows in two halves side by side (:func:`split_points`), each
with the players' heading, when that fits where the rows one under another do not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.coordinate import Coordinate
from textual.geometry import Size
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from yacht.render import LEAN_LEAVES

__all__ = ["CardCell", "CardStyle", "ScoreCard", "card_width", "scroll_heading", "short_label",
           "split_points"]


@dataclass(frozen=True)
class CardCell:
    """What a cell of the card stands for: a box of one player's column."""

    category: str | None   # None for a totals row
    player: int | None     # None for the key and label columns
    column: int


@dataclass(frozen=True)
class CardStyle:
    """How tight the card is drawn."""

    compact: bool = False   # one space between columns (else the table's padding)
    numbers: bool = False   # players by number in the heading, not by name
    short: bool = False     # shorter box names ("Dbl Small Straight")
    players: tuple[int, ...] | None = None  # the players whose cards show (None: all)
    preview: int = 0        # the width a preview of the player on turn may take
    lean: bool = False      # without the rows a short card may leave out (LEAN_LEAVES)
    split: int = 0          # the rows from this one on go beside the first ones (0: none)
    scrolls: bool = False   # its rows do not all fit: the heading says PgUp / PgDn


#: what the heading of the box names says of the rows out of view (rows below, rows
#: above, both), in words and, where they do not fit, in arrows alone
SCROLL_HINTS = {"full": ("▼ PgDn", "▲ PgUp", "▲▼ PgUp/Dn"), "short": ("▼", "▲", "▲▼")}


def scroll_heading(prefix: str, level: str, above: bool, below: bool) -> str:
    """The heading of the box names: ``prefix`` and where the rows out of view are.

    >>> scroll_heading("Box", "full", False, True), scroll_heading("Box", "full", True, True)
    ('Box ▼ PgDn', 'Box ▲▼ PgUp/Dn')
    """
    if not level or not (above or below):
        return prefix
    down, up, both = SCROLL_HINTS[level]
    part = both if above and below else down if below else up
    return f"{prefix} {part}" if prefix else part


#: words a box name may lose in a tight card, in order (a Straight after another word: a
#: box named Straight alone, Kismet's, stays whole, not "Str.")
_SHORTER = (("Double ", "Dbl "), (" Straight", " Str."))


def short_label(label: str) -> str:
    """A box name for a tight card.

    >>> short_label("Double Small Straight"), short_label("Chance")
    ('Dbl Small Str.', 'Chance')
    >>> short_label("Straight")
    'Straight'
    """
    for long, short in _SHORTER:
        label = label.replace(long, short)
    return label


def card_rows(snap: Mapping[str, Any], style: CardStyle) -> list[Mapping[str, Any]]:
    """The rows of the card ``style`` draws (a lean card leaves some totals out). A total
    with nothing to say for anyone (a bonus by steps out of reach on closed sections) is
    left out, not shown as an empty row (as the line game's card)."""
    rows: list[Mapping[str, Any]] = snap["rows"]
    cards = snap.get("cards")
    return [r for r in rows
            if not (style.lean and r["id"] in LEAN_LEAVES)
            and (r["kind"] != "total" or cards is None
                 or any(any(c["cells"][r["id"]]) for c in cards))]


def split_points(snap: Mapping[str, Any], lean: bool = False) -> tuple[int, ...]:
    """Where the card's rows may fold into two halves side by side, the best first: after
    a section's totals (the upper boxes and their bonus beside the rest) nearest the
    middle, then at the middle (the shortest card).

    >>> rows = [{"kind": k} for k in ["box"] * 6 + ["total"] * 2 + ["box"] * 14 + ["total"]]
    >>> split_points({"rows": rows})
    (8, 12)
    """
    rows = card_rows(snap, CardStyle(lean=lean))
    n = len(rows)
    ends = [i for i in range(1, n) if rows[i - 1]["kind"] == "total"
            and rows[i]["kind"] != "total"]
    points = sorted(ends, key=lambda i: max(i, n - i))[:1]
    middle = -(-n // 2)
    return tuple(dict.fromkeys([*points, middle])) if n > 1 else ()


def _fold(plan: _Plan, split: int) -> _Plan:
    """The plan's rows from ``split`` on beside the first ones (the heading twice)."""
    rows, g = plan.rows, len(plan.heads)
    left, right = rows[:split], rows[split:]
    folded: list[tuple[str, list[Text]]] = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else None
        b = right[i] if i < len(right) else None
        key = "/".join(half[0] for half in (a, b) if half is not None)
        values = [*(a[1] if a else [Text("")] * g), *(b[1] if b else [Text("")] * g)]
        folded.append((key, values))
    cells = {(r if r < split else r - split, c if r < split else c + g): cell
             for (r, c), cell in plan.cells.items()}
    # the second half's letters a space apart from the first half's last column
    heads = [*plan.heads, *plan.heads]
    widths = (*plan.widths, plan.widths[0] + 1, *plan.widths[1:])
    for _, values in folded:
        values[g] = Text.assemble(" ", values[g])
    col_keys = [*plan.col_keys, *(f"{k}-2" for k in plan.col_keys)]
    return _Plan(folded, heads, widths, cells, col_keys, plan.shown, plan.header_height,
                 plan.heading)


@dataclass
class _Plan:
    rows: list[tuple[str, list[Text]]]
    heads: list[Text]
    widths: tuple[int, ...]
    cells: dict[tuple[int, int], CardCell]
    col_keys: list[str]
    shown: tuple[int, ...]
    header_height: int
    #: the heading of the box names: its words and how it says the rows out of view
    heading: tuple[str, str] = ("Box", "")

    def width(self, compact: bool) -> int:
        return sum(self.widths) if compact else sum(w + 2 for w in self.widths)


def _plan(snap: Mapping[str, Any], style: CardStyle, preview: bool, marker: bool) -> _Plan:
    """The card's rows, heading and column widths for ``snap`` drawn in ``style``."""
    current = int(snap["current"])
    previews = snap["previews"] if preview else []
    columns = list(snap["ruleset"]["columns"])
    ncol = len(columns)
    players = snap["players"]
    shown = style.players if style.players is not None else tuple(range(len(players)))
    places = {(p["category"], p["column"]): p for p in previews}
    compact = style.compact
    cells: dict[tuple[int, int], CardCell] = {}
    rows: list[tuple[str, list[Text]]] = []
    for row in card_rows(snap, style):
        rid = row["id"]
        label = short_label(row["label"]) if style.short else row["label"]
        if row["kind"] == "total":
            values = []
            for p in shown:
                for col in range(ncol):
                    v = snap["cards"][p]["cells"][rid][col]
                    if compact and rid == "column_total":
                        v = v.split("×")[0]  # the heading says which column counts double
                    values.append(Text(v, style="bold", justify="right"))
            rows.append((f"total-{rid}", [Text(""), Text(label, style="bold"), *values]))
            continue
        cat = row["category"]
        out: list[Text] = []
        for p in shown:
            card = snap["cards"][p]
            # the boxes the computer scored for the player (their clock ran out, or they
            # were away): a * after the points
            played = {(b["category"], b["column"]) for b in card.get("played_by", ())}
            for c in range(ncol):
                v = card["cells"][rid][c]
                pl = places.get((cat, c)) if p == current else None
                if pl is not None and (not v or pl["repeat"]):
                    held = f"{v}+" if v else ""  # a repeat adds to what the box holds
                    out.append(Text(f"{held}({pl['text']})", style="italic green",
                                    justify="right"))
                elif v and (cat, c) in played:
                    out.append(Text.assemble(v, ("*", "bold"), justify="right"))
                elif v:
                    out.append(Text(v, justify="right"))
                else:
                    out.append(Text("·", style="dim", justify="right"))
                cells[(len(rows), 2 + len(out) - 1)] = CardCell(cat, p, c)
        for col_i in range(2):
            cells[(len(rows), col_i)] = CardCell(cat, None, 0)
        # the original's board name ("#D"), set apart from the key at the left
        board = row.get("board")
        name = Text.assemble((f"#{board} ", "dim"), label) if board else Text(label)
        rows.append((cat, [Text(row["letter"] or "", style="bold underline"), name, *out]))

    # the heading of the box names: how to see the cards not shown (< >) and the rows out
    # of view (PgUp / PgDn), in the width the names take
    widest = max(cell_len(short_label(r["label"]) if style.short else r["label"])
                 for r in card_rows(snap, style))
    prefixes = ["Box"]
    if len(shown) < len(players):  # some cards are not shown: say how to see them
        hidden = " ".join(str(i + 1) for i in range(len(players)) if i not in shown)
        prefixes = [f"Box   (< > {hidden})", f"(< > {hidden})", "Box  (< > others)",
                    "(< > others)", "Box (< > more)", "(< > more)", "< > more"]
    box, level = next((p for p in prefixes if cell_len(p) <= widest), "Box"), ""
    if style.scrolls:
        # both hints in words, else the scroll's in arrows, else the scroll's alone
        box, level = next(((p, lv) for p, lv in [*((p, lv) for lv in ("full", "short")
                                                   for p in prefixes),
                                                 ("", "full"), ("", "short")]
                           if cell_len(scroll_heading(p, lv, True, True)) <= widest),
                          (box, ""))
    heads: list[Text] = [Text(""), Text(scroll_heading(box, level, False, style.scrolls))]
    for p in shown:
        mine = marker and p == current
        who = str(p + 1) if style.numbers else str(players[p]["name"])
        for c in range(ncol):
            if ncol == 1:
                words = ("▶" if mine else "") + who
            else:
                # two lines: the name (or number) over the player's first column, the
                # column numbers (and the multiplier) under it
                sub = f"{c + 1}" + (f"×{columns[c]}" if columns[c] != 1 else "")
                words = f"{who if c == 0 else ''}\n{'▶' if mine else ''}{sub}"
            heads.append(Text(words, style="bold reverse" if mine else "",
                              justify="right" if compact else "left"))
    # the widths are worked out here rather than by the table, which measures new
    # cells only when idle: a frame drawn before that (a quick click after an Oops)
    # was kept in its line cache with the old widths, and clicks missed their boxes
    widths = []
    for i, heading in enumerate(heads):
        w = max([*(line.cell_len for line in heading.split()),
                 *(values[i].cell_len for _, values in rows)])
        player = shown[(i - 2) // ncol] if i >= 2 else None
        if player is not None:
            w = max(w, 3)  # room for a total of three digits: the layout stays all game
        if player == current and marker:
            w = max(w, style.preview)  # room for the previews: the layout stays all turn
        if compact:
            w += 1  # the space between the columns
        widths.append(w)
    col_keys = ["key", "label"] + [f"p{p}c{c}" for p in shown for c in range(ncol)]
    plan = _Plan(rows, heads, tuple(widths), cells, col_keys, tuple(shown),
                 2 if ncol > 1 else 1, (box, level))
    return _fold(plan, style.split) if 0 < style.split < len(rows) else plan


def card_width(snap: Mapping[str, Any], style: CardStyle, preview: bool = True,
               marker: bool = True) -> tuple[int, int]:
    """The width and height the card of ``snap`` takes in ``style``."""
    plan = _plan(snap, style, preview, marker)
    return plan.width(style.compact), len(plan.rows) + plan.header_height


class ScoreCard(DataTable[Text]):
    """The scorecards as one table: a row per box, a column per player (and card column).

    Enter on a box, or a click on it, posts ``CellSelected``; the game screen
    turns that into a scoring.
    """

    DEFAULT_CSS = """
    ScoreCard { height: auto; max-height: 100%; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(cursor_type="cell", zebra_stripes=False, id=id)
        self._shape: tuple[object, ...] | None = None
        self._signature: tuple[object, ...] | None = None
        self._values: dict[str, list[Text]] = {}
        self.cells: dict[tuple[int, int], CardCell] = {}
        self.style_now = CardStyle()
        #: the players whose cards are shown, in seat order
        self.shown: tuple[int, ...] = ()
        #: the heading of the box names (its words, how it says the rows out of view)
        self.heading: tuple[str, str] = ("Box", "")

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

    def show(self, snap: Mapping[str, Any], preview: bool = True, marker: bool = True,
             style: CardStyle | None = None) -> None:
        """Draw the cards of a table snapshot; ``preview`` shows what the open boxes of
        the player on turn would score; ``style``: how tight (default: roomy, all).

        Only the cells that changed are redrawn when the table keeps its rows and columns.
        """
        style = style or CardStyle()
        current = int(snap["current"])
        signature = (snap["ruleset"]["key"], tuple(p["name"] for p in snap["players"]),
                     repr([(c["cells"], c.get("played_by")) for c in snap["cards"]]), current,
                     repr(snap["previews"] if preview else []), marker, style)
        if signature == self._signature:
            return  # nothing on the card changed (e.g. a die was chosen): no redraw
        self._signature = signature
        plan = _plan(snap, style, preview, marker)
        rows, widths, col_keys = plan.rows, plan.widths, plan.col_keys
        self.cells = plan.cells
        self.style_now = style
        self.shown = plan.shown
        self.heading = plan.heading
        names = tuple(p["name"] for p in snap["players"])
        shape = (snap["ruleset"]["key"], names, current if marker else -1,
                 tuple(k for k, _ in rows), widths, style)
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
        self.cell_padding = 0 if style.compact else 1
        self.fixed_columns = 2  # the keys and the labels stay when the card scrolls sideways
        self.header_height = plan.header_height
        for col_key, head_text, width in zip(col_keys, plan.heads, widths, strict=True):
            self.add_column(head_text, key=col_key, width=width)
        for key, values in rows:
            self.add_row(*values, key=key)
        # the size the table works out when next idle, now: the first frame is laid
        # out right (not drawn once more when the table has measured itself)
        self.virtual_size = Size(plan.width(style.compact), len(rows) + self.header_height)
        self.call_after_refresh(self.show_rows_out_of_view)
        self._shape = shape
        self._values = {k: v for k, v in rows}
        if self.row_count:
            ncol = len(snap["ruleset"]["columns"])
            column = cursor.column
            mine = plan.shown.index(current) if current in plan.shown else None
            if marker and mine is not None and (turn_changed or column >= len(self.columns)):
                column = 2 + mine * ncol  # the cursor goes to the card on turn
            self.cursor_coordinate = Coordinate(min(cursor.row, self.row_count - 1),
                                                min(column, len(self.columns) - 1))
            if marker and turn_changed and mine is not None:
                # (not when a preview only widens a column)
                first, last = 2 + mine * ncol, 2 + mine * ncol + ncol - 1
                self.call_after_refresh(self.scroll_to_columns, first, last)

    def rows_out_of_view(self) -> tuple[bool, bool]:
        """Whether rows are out of view above and below (the card scrolls)."""
        if not self.row_count or not self.size.height:
            return False, False
        return self.scroll_y > 0, self.scroll_y < self.max_scroll_y

    def show_rows_out_of_view(self) -> None:
        """The heading of the box names says where the rows out of view are (PgUp/PgDn)."""
        box, level = self.heading
        if not level or "label" not in self.columns:
            return
        column = self.columns[ColumnKey("label")]
        words = scroll_heading(box, level, *self.rows_out_of_view())
        if column.label.plain != words:
            column.label = Text(words)
            self._clear_caches()
            self.refresh()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.show_rows_out_of_view()

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_rows_out_of_view)

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

