"""At start: saved games that were not finished, offered for resuming."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from yacht.render import saved_game_text

from ..widgets.cells import wrap_cells
from ..widgets.keybar import KeyBar
from .base import AppScreen
from .dialogs import ChoiceDialog

__all__ = ["ResumeScreen", "hanging"]


def hanging(text: str, width: int) -> str:
    """``text`` in lines of ``width`` cells, the lines after the first indented by two
    (a saved game's line wrapped at the list's left edge read as a new entry: its
    players' points ran on under the ids, 'Computer' / '0').

    >>> print(hanging("1ab3af1a2d7d  2026-12-02 01:29  Yahtzee, turn 3 of 13: Ann 37, "
    ...               "Bob 52", 40))
    1ab3af1a2d7d  2026-12-02 01:29  Yahtzee,
      turn 3 of 13: Ann 37, Bob 52
    """
    first, *rest = [line.rstrip() for line in wrap_cells(text, max(4, width))]
    if not rest:
        return first
    more = wrap_cells(text[len(first):].lstrip(), max(2, width - 2))
    return "\n".join([first, *("  " + line.rstrip() for line in more)])


class ResumeScreen(AppScreen):
    """Continue a saved game, or start a new one."""

    BINDINGS = [
        Binding("n", "new", "New game"),
        Binding("d", "delete", "Delete game"),
        Binding("delete", "delete", "Delete game", show=False),
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
            # (a Static: wrapped in a narrow terminal, never cut)
            yield Static("Continue a saved game (Enter or click), delete one (d), or start a "
                         "new one (n).", markup=False)
            yield OptionList(
                *[Option(saved_game_text(g, totals), id=g.id) for g, totals in self.games],
                Option("Start a new game", id="__new__"), id="games",
                markup=False)  # the names as typed
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self.call_after_refresh(self.fit_games)

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_games)

    def fit_games(self) -> None:
        """Each saved game's line wrapped to the list's width with a hanging indent."""
        games = self.query_one("#games", OptionList)
        padding = games.get_component_styles("option-list--option").padding.width
        width = games.scrollable_content_region.width - padding
        if width <= 0:
            return
        for g, totals in self.games:
            games.replace_option_prompt(g.id, hanging(saved_game_text(g, totals), width))

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

    def action_delete(self) -> None:
        """Delete the saved game highlighted in the list, once the person says yes."""
        games = self.query_one("#games", OptionList)
        index = games.highlighted
        option = games.get_option_at_index(index) if index is not None else None
        game = next(((g, t) for g, t in self.games
                     if option is not None and g.id == option.id), None)
        if game is None:
            self.notify("Highlight a saved game to delete it (up and down)", timeout=3)
            return
        info, totals = game

        def done(choice: str | None) -> None:
            if choice == "delete":
                self.delete_game(info.id)

        self.app.push_screen(ChoiceDialog(
            "Delete this saved game?",
            f"{saved_game_text(info, totals)}\n\nIt is deleted for good: it cannot be "
            "resumed afterwards.",
            [("delete", "Yes, delete it", True), ("keep", "No, keep it", True)]), done)

    def delete_game(self, game_id: str) -> None:
        """Take the game out of the store and the list (a problem is said, the list kept)."""
        store = self.yacht_app.store
        try:
            if store is None:
                raise RuntimeError("the games' store is not open")
            store.delete_game(game_id)
        except Exception as e:  # the store's words: one line, the list as it was
            self.notify(f"The game was not deleted: {e}", severity="error", markup=False)
            return
        self.games = [(g, t) for g, t in self.games if g.id != game_id]
        games = self.query_one("#games", OptionList)
        index = games.get_option_index(game_id)
        games.remove_option(game_id)
        games.highlighted = min(index, games.option_count - 1)
        games.focus()
        left = len(self.games)
        self.notify("Saved game deleted" + (f" ({left} left)" if left else
                                            ": no unfinished game is left"), timeout=3)
