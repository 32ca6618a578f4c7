"""What every screen of the app shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

if TYPE_CHECKING:
    from ..app import YachtApp

__all__ = ["AppScreen"]


class AppScreen(Screen[None]):
    """A screen of :class:`~yacht.tui.app.YachtApp` (its config, store and screens)."""

    @property
    def yacht_app(self) -> YachtApp:
        from ..app import YachtApp

        app = self.app
        assert isinstance(app, YachtApp)
        return app
