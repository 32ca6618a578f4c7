"""What every screen of the app shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.screen import Screen

if TYPE_CHECKING:
    from ..app import YachtApp

__all__ = ["AppScreen", "page_title"]


def page_title(words: str, name: str, width: int) -> str:
    """A page's title, ``words`` and a variant's ``name``, in ``width`` cells when it can
    be: the name's part before its comma when the whole one does not fit (at 45 columns
    'Top ten - Ancient Yacht Challenge, two colum'), as the table's title does.

    >>> page_title("Analysis - ", "Ancient Yacht Challenge, two columns", 45)
    ' Analysis - Ancient Yacht Challenge'
    """
    title = f" {words}{name}"
    if cell_len(title) > width and "," in name:
        title = f" {words}{name.split(',')[0]}"
    return title


class AppScreen(Screen[None]):
    """A screen of :class:`~yacht.tui.app.YachtApp` (its config, store and screens)."""

    @property
    def yacht_app(self) -> YachtApp:
        from ..app import YachtApp

        app = self.app
        assert isinstance(app, YachtApp)
        return app
