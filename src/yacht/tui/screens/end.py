"""The end of a game: the winner, the final cards, the top ten, a comment on the score."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, Static

from yacht.session import Session, score_comment
from yacht.session.present import TERMINAL, result_text
from yacht.session.table import LOCAL, Table

from ..widgets import KeyBar, ScoreCard

if TYPE_CHECKING:
    from ..app import YachtApp

__all__ = ["EndScreen"]


class EndScreen(Screen[None]):
    """Play again with the same players, or go back to the setup."""

    #: on_mount focuses Play again. (Textual's own first focus went to the first focusable
    #: widget - a scrolling container - and styled all of it again before the first paint.)
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("p", "again", "Play again"),
        Binding("n", "new", "New game"),
        Binding("escape", "new", "Setup", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self.view = table.view()
        self.new_entries: list[Any] = list(self.view.new_entries)

    @property
    def session(self) -> Session:
        """The game under the table (for reading)."""
        return self.table.session

    @property
    def yacht_app(self) -> YachtApp:
        from ..app import YachtApp

        app = self.app
        assert isinstance(app, YachtApp)
        return app

    def compose(self) -> ComposeResult:
        view = self.view
        st = view.state
        yield Static(f" {view.ruleset.name} - game over", id="title")
        with VerticalScroll(id="end"):
            yield Label(result_text(st), id="result", markup=False)  # names as typed
            people = [i for i, p in enumerate(st.players) if not p.is_computer]
            judged = people or st.winners()[:1]
            for i in judged:
                who = f"{st.players[i].name}: " if len(st.players) > 1 else ""
                yield Static(who + score_comment(view.ruleset, st.returns()[i]),
                             classes="comment", markup=False)
            with Horizontal(classes="row buttons"):
                yield Button("Play again (p)", id="again", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", variant="error", compact=True)
            with Horizontal(id="end-body"):
                yield ScoreCard(id="final-card")
                with Vertical(id="topten-box"):
                    yield Label("Top ten" + (" (assisted)" if view.assisted else ""),
                                classes="section")
                    yield DataTable(id="topten", cursor_type="none", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        if self.view.warning:
            self.notify(self.view.warning, severity="warning", markup=False)
        card = self.query_one("#final-card", ScoreCard)
        card.show(self.table.snapshot(LOCAL, TERMINAL), preview=False, marker=False)
        card.show_cursor = False
        table: DataTable[Text] = self.query_one("#topten", DataTable)
        table.add_columns("#", "Name", "Score", "Date")
        fresh = {(e.game_id, e.name, e.score, e.rank) for e in self.new_entries}
        entries = self.table.top_ten()
        for e in entries:
            new = (e.game_id, e.name, e.score, e.rank) in fresh
            style = "bold reverse" if new else ""
            mark = "*" if new else " "
            table.add_row(Text(f"{e.rank}{mark}", style=style), Text(e.name, style=style),
                          Text(str(e.score), style=style, justify="right"),
                          Text(e.date.astimezone().strftime("%Y-%m-%d"), style=style))
        if not entries:
            table.add_row(Text(""), Text("(no scores yet)"), Text(""), Text(""))
        if self.new_entries:
            self.query_one("#topten-box").border_title = "* new"
        self.query_one("#again", Button).focus(scroll_visible=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "again":
            self.action_again()
        elif event.button.id == "new":
            self.action_new()
        else:
            self.app.exit(0)

    def action_again(self) -> None:
        self.yacht_app.play_again()

    def action_new(self) -> None:
        self.yacht_app.show_setup()
