"""The terminal game (Textual). ``make_app()`` builds the application.

Import this package only to run the game: it pulls in Textual.
"""

from .app import Launch, YachtApp, make_app

__all__ = ["Launch", "YachtApp", "make_app"]
