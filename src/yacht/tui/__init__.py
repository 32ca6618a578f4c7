"""The terminal game (Textual). ``make_app()`` builds the application.

Import this package only to run the game: ``make_app`` pulls in Textual.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yacht.session import Launch

    from .app import YachtApp

__all__ = ["Launch", "YachtApp", "make_app"]


def make_app(launch: Launch | None = None, **kw: Any) -> YachtApp:
    """The game application (``yacht play``); keyword arguments go to :class:`YachtApp`.

    From here until the first screen is on the terminal Python makes a great many
    objects (Textual's modules, the screen) and no garbage: its cycle collector
    rests meanwhile (it went through them all again and again: a tenth of the
    start-up). The app turns it back on (:meth:`YachtApp.first_screen_drawn`).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        from .app import YachtApp

        app = YachtApp(launch, **kw)
    except BaseException:
        if paused:
            gc.enable()
        raise
    app.gc_paused = paused
    return app


def __getattr__(name: str) -> Any:
    if name == "YachtApp":
        from .app import YachtApp

        return YachtApp
    if name == "Launch":
        from yacht.session import Launch

        return Launch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
