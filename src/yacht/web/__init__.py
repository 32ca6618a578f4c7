"""The browser game: ``yacht web`` serves the page, a JSON API and a WebSocket per table.

Import this package only to serve: it pulls in FastAPI. ``make_app(store)``
builds the ASGI application.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

    from yacht.store import Store

__all__ = ["make_app"]


def make_app(store: Store, **kw: Any) -> FastAPI:
    """The ASGI application serving ``store``; see :func:`yacht.web.app.make_app`."""
    from .app import make_app as make

    return make(store, **kw)
