"""The end of a game: the winner, every player's total, a comment on the score (against the
expert's average and the player's own earlier games; with the analysis, how much was
luck), the final cards; the top ten (t) and the game's analysis (a) on pages of their
own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Label, Static

from yacht.render import variant_title
from yacht.session.comment import end_line, judged
from yacht.session.present import TERMINAL, new_entry_text, result_text
from yacht.session.table import LOCAL, Table

from ..widgets import KeyBar, ScoreCard, Standings
from ..widgets.card import CardStyle, card_width, split_points
from ..widgets.cells import cell_len
from .base import AppScreen

if TYPE_CHECKING:
    from .analysis import AnalysisJob

__all__ = ["EndScreen", "end_layout"]

#: the left side (the result, the players, the buttons, the comments): at least, at most
LEFT_MIN, LEFT_MAX = 30, 46
#: at least, beside a folded card (the buttons as wide as it: "Play again (p)" whole)
LEFT_FOLDED = 18


def end_layout(snap: Mapping[str, Any], width: int, height: int,
               first: tuple[int, ...] = ()) -> tuple[int, CardStyle]:
    """The left side's width and the final card's style for a terminal of ``width`` x
    ``height``: every card if it fits beside the results, else as many as fit,
    ``first`` (the winners, the people) first."""
    room_h = height - 2

    def done(left: int, style: CardStyle) -> tuple[int, CardStyle]:
        # (a card whose rows do not all fit says so: PgUp / PgDn)
        return left, replace(style, scrolls=tall(style))

    def need(style: CardStyle) -> int:
        w, h = card_width(snap, style, preview=False, marker=False)
        return w + (1 if h > room_h else 0)

    def tall(style: CardStyle) -> bool:
        return card_width(snap, style, preview=False, marker=False)[1] > room_h

    styles = (CardStyle(), CardStyle(compact=True), CardStyle(compact=True, short=True),
              CardStyle(compact=True, numbers=True),
              CardStyle(compact=True, numbers=True, short=True))
    # every row in view first (as drawn, without the totals a short card may leave out,
    # folded in two halves side by side: as the table's card), else scrolling
    shorter = [replace(style, lean=True) for style in styles]
    folded = [replace(style, lean=lean, split=split) for lean in (False, True)
              for split in split_points(snap, lean) for style in styles]
    for style in [*styles, *shorter, *folded]:
        least = LEFT_FOLDED if style.split else LEFT_MIN
        if not tall(style) and need(style) <= width - least:
            return done(min(LEFT_MAX, width - need(style)), style)
    for style in styles:
        if need(style) <= width - LEFT_MIN:
            return done(min(LEFT_MAX, width - need(style)), style)
    n = len(snap["players"])
    order = list(dict.fromkeys([*first, *range(n)]))
    for k in range(n - 1, 0, -1):
        players = tuple(sorted(order[:k]))
        # every row in view if they can be (a short card leaves some totals out)
        some = [CardStyle(compact=True, numbers=numbers, short=True, players=players,
                          lean=lean) for lean in (False, True) for numbers in (False, True)]
        for style in some:
            if not tall(style) and need(style) <= width - LEFT_MIN:
                return done(LEFT_MIN, style)
        for style in some[:2]:
            if need(style) <= width - LEFT_MIN:
                return done(LEFT_MIN, style)
    # one card, the tightest: the left side gives it room down to the folded card's
    # least (at 45 columns the card beside 30 showed the box names cut and no points)
    last = CardStyle(compact=True, numbers=True, short=True, players=(order[0],))
    return done(max(LEFT_FOLDED, min(LEFT_MIN, width - need(last))), last)


class EndScreen(AppScreen):
    """Play again with the same players, or go back to the setup."""

    #: on_mount focuses Play again. (Textual's own first focus went to the first focusable
    #: widget - a scrolling container - and styled all of it again before the first paint.)
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("p", "again", "Play again"),
        Binding("n", "new", "New game"),
        Binding("t", "top_ten", "Top ten"),
        Binding("f6", "top_ten", "Top ten", show=False),  # (the setup's key for it)
        Binding("a", "analysis", "Analysis"),
        Binding("escape", "new", "Setup", show=False),
        Binding("less_than_sign", "look(-1)", "Previous card", show=False),
        Binding("greater_than_sign", "look(1)", "Next card", show=False),
        # (before the results' own: the card too)
        Binding("pageup", "page(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "page(1)", "Scroll down", show=False, priority=True),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.view = table.view()
        self.snap = table.snapshot(LOCAL, TERMINAL)
        self.new_entries: list[Any] = list(self.view.new_entries)
        st = self.view.state
        people = [i for i, p in enumerate(st.players) if not p.is_computer]
        self.first = tuple(dict.fromkeys([*st.winners(), *people]))
        self.looking: int | None = None
        self.shown_at = float("inf")
        #: the analysis of the game, once asked for (a)
        self.analysis: AnalysisJob | None = None
        #: the players the comments judge: the people (else the winner of a computers' game)
        self.judged = judged(st)

    def compose(self) -> ComposeResult:
        view = self.view
        st = view.state
        yield Static(self.title_words(self.app.size.width), id="title", markup=False)
        with Horizontal(id="end-body"):
            with VerticalScroll(id="end-left") as left:
                left.can_focus = False  # the buttons take the focus; no Tab stop unseen
                yield Label(result_text(st), id="result", markup=False)  # names as typed
                if len(st.players) > 1:
                    yield Standings(id="end-players")
                with Vertical(classes="end-buttons"):
                    yield Button("Play again (p)", id="again", variant="primary",
                                 compact=True)
                    yield Button("New game (n)", id="new", compact=True)
                    yield Button("Top ten (t)", id="topten-button", compact=True)
                    yield Button("Analysis (a)", id="analysis-button", compact=True)
                    yield Button("Quit (q)", id="quit", variant="error", compact=True)
                for i in self.judged:
                    yield Static(self.comment(i), classes="comment", markup=False,
                                 id=f"comment-{i}")
                if self.new_entries:
                    yield Static(f"{new_entry_text(self.view.apart)}: t shows it.",
                                 classes="comment", id="new-entry", markup=False)
            card = ScoreCard(id="final-card")
            card.can_focus = False  # a card to read: nothing to choose on it
            yield card
        # (a second line where one is not enough: at 45 columns t Top ten and a Analysis
        # were left out behind a '…', their buttons scrolled away, and no help lists them)
        yield KeyBar(lines=2)

    def title_words(self, width: int) -> str:
        """The title in ``width`` cells: the variant's name before its comma when the
        whole one does not fit (at 45 columns 'Ancient Yacht Challenge, two columns -
        game' lost 'over'), as the table's title does."""
        name = self.view.ruleset.name
        title = f" {name} - game over"
        if cell_len(title) > width and "," in name:
            title = f" {name.split(',')[0]} - game over"
        return title

    def comment(self, i: int) -> str:
        """Player ``i``'s end line: against the expert's average, their earlier games and,
        once the analysis is known, how much was luck."""
        st = self.view.state
        luck = loss = None
        job = self.analysis
        if job is not None and job.result is not None:
            p = job.result.players[i]
            luck, loss = p.luck, p.loss
        who = f"{st.players[i].name}: " if len(st.players) > 1 else ""
        return who + end_line(st, i, self.view.past, luck, loss)

    def on_screen_resume(self) -> None:
        """Back from the analysis: the end lines say how much was luck."""
        for i in self.judged:
            for static in self.query(f"#comment-{i}").results(Static):
                static.update(self.comment(i))

    def on_key(self, event: events.Key) -> None:
        if event.time < self.shown_at:
            # typed before the results were on the screen (an Enter too many to see
            # them): not Play again
            event.stop()
            event.prevent_default()

    def on_mount(self) -> None:
        from textual._time import get_time

        self.shown_at = get_time()  # (the key events' clock)
        if self.view.warning:
            self.notify(self.view.warning, severity="warning", markup=False)
        self.draw()
        for again in self.query("#again").results(Button):
            again.focus(scroll_visible=False)

    def draw(self) -> None:
        if not self.query("#end-left"):  # its widgets not mounted yet (a busy machine)
            self.call_after_refresh(self.draw)
            return
        width, height = self.app.size
        self.query_one("#title", Static).update(self.title_words(width))
        first = self.first if self.looking is None else (self.looking, *self.first)
        left, style = end_layout(self.snap, width, height, first)
        self.query_one("#end-left").styles.width = left
        card = self.query_one("#final-card", ScoreCard)
        card.show(self.snap, preview=False, marker=False, style=style)
        card.show_cursor = False
        players = self.query("#end-players").results(Standings)
        standings = next(players, None)
        if standings is not None:
            hidden = card.shown if len(card.shown) < len(self.snap["players"]) else None
            standings.show(self.snap, hidden)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.draw)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "again":
            self.action_again()
        elif event.button.id == "new":
            self.action_new()
        elif event.button.id == "topten-button":
            self.action_top_ten()
        elif event.button.id == "analysis-button":
            self.action_analysis()
        else:
            self.app.exit(0)

    def action_look(self, step: int) -> None:
        card = self.query_one("#final-card", ScoreCard)
        n = len(self.snap["players"])
        if len(card.shown) >= n:
            self.notify("Every card is on the screen", timeout=2)
            return
        start = self.looking if self.looking is not None else self.first[0]
        self.looking = (start + step) % n
        self.draw()

    def action_page(self, step: int) -> None:
        """PgUp / PgDn: the results and the card (when they do not fit) a page on."""
        for scroller in (self.query_one("#end-left", VerticalScroll),
                         self.query_one("#final-card", ScoreCard)):
            if step > 0:
                scroller.scroll_page_down(animate=False)
            else:
                scroller.scroll_page_up(animate=False)

    def action_top_ten(self) -> None:
        from .topten import TopTenScreen

        view = self.view
        fetch = self.table_top if self.table.has_store else None
        people = any(not p.is_computer for p in view.state.players)
        note = ("This game does not enter the top ten: a demo game." if view.demo
                else "" if people else
                "This game does not enter the top ten: the computers' games do not.")
        self.app.push_screen(TopTenScreen(view.ruleset.name, fetch, view.apart,
                                          self.new_entries, kind=variant_title(view.ruleset),
                                          note=note))

    def action_analysis(self) -> None:
        """The game's analysis on a page of its own (worked out once, in a thread)."""
        from yacht.engine import Record

        from .analysis import AnalysisJob, AnalysisScreen

        if self.analysis is None:
            self.analysis = AnalysisJob(Record.from_state(self.view.state))
        self.app.push_screen(AnalysisScreen(self.view.ruleset.name, self.analysis))

    def table_top(self, assisted: bool) -> list[Any]:
        """The top ten this game went to (``assisted``: the list apart, as the game was),
        or the other."""
        if assisted == self.view.apart:
            return self.table.top_ten()
        return self.table.top_ten(apart=assisted)

    def action_again(self) -> None:
        self.yacht_app.play_again()

    def action_new(self) -> None:
        self.yacht_app.show_setup()
