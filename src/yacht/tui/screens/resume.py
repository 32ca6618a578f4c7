"""At start: saved games that were not finished, offered for resuming."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from yacht.render import saved_game_text

from ..widgets.keybar import KeyBar
from .base import AppScreen

__all__ = ["ResumeScreen"]


class ResumeScreen(AppScreen):
    """Continue a saved game, or start a new one."""

    BINDINGS = [
        Binding("n", "new", "New game"),
        Binding("escape", "new", "Setup", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, games: list[tuple[Any, list[int] | None]]) -> None:
        """``games``: each saved game with its players' points so far (see
        :func:`yacht.render.saved_games`)."""
        super().__init__()
        self.games = games

    def compose(self) -> ComposeResult:
        yield Static(" Yacht - unfinished games", id="title")
        with Vertical(id="resume"):
            yield Label("Continue a saved game (Enter or click), or start a new one (n).")
            yield OptionList(
                *[Option(saved_game_text(g, totals), id=g.id) for g, totals in self.games],
                Option("Start a new game", id="__new__"), id="games",
                markup=False)  # the names as typed
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = self.yacht_app
        if event.option.id == "__new__" or event.option.id is None:
            self.dismiss_to_setup()
        elif not app.resume_game(event.option.id):
            app.show_setup()

    def dismiss_to_setup(self) -> None:
        app = self.yacht_app
        app.show_setup()

    def action_new(self) -> None:
        app = self.yacht_app
        app.show_setup()
