"""Every error the server answers, in one shape: ``{"error": "one line", "code": ...}``.

A request the server does not take is a :class:`WebError` (a code from
:data:`~yacht.web.protocol.ErrorCode` and one line): the one way a refusal's text
reaches a client, over HTTP and over a socket alike. Its line is made without any file
path or URL (:func:`redact`: the database's location is "the database", any other
path "a file"), whatever it was made from: a store error, the table's ``Refused``
(which may carry a store error's text), a session's error. Anything else is a fault
of ours: logged with its traceback, answered ``server``. A client's mistake never
logs a traceback.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.routing import Match

from yacht.store import StoreError

from .protocol import ErrorCode, describe, error_body, validation_line

__all__ = ["STATUS", "WebError", "allowed_methods", "hide", "install_handlers", "public",
           "redact", "response"]

log = logging.getLogger("yacht.web")

#: the HTTP status of each code (the socket sends the code alone)
STATUS: dict[str, int] = {
    "bad_request": 400, "bad_host": 421, "too_large": 413, "not_found": 404,
    "conflict": 409, "not_finished": 409, "not_analysable": 409, "not_started": 409,
    "store": 503, "busy": 503, "server": 500, "flood": 429,
    "private": 403, "method_not_allowed": 405, "upgrade_required": 426}


#: the databases' locations of this process's servers (told "the database")
_HIDDEN: set[str] = set()
#: a URL, and a file path: absolute, of two parts or more (``/tmp/x.db``, ``C:\\y\\z``,
#: ``\\\\host\\share\\z``, ``~/x/y``; a folder's name may hold spaces), not a part of a word
#: (``and/or``) or of a relative path (``js/app.js``); a run of backslashes without a
#: drive is no path (a name's escapes, ``\\u202e\\u202e``)
_URL = r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>()]*"
_PART = r"[^\s/\\'\"<>(),;:]"
_PARTS = rf"(?:{_PART}+(?: {_PART}+)*[/\\])+{_PART}*"
_PATH = rf"(?<![\w.~/\\-])(?:(?:~|[A-Za-z]:)?/{_PARTS}|(?:[A-Za-z]:|\\)\\{_PARTS})"
_WHERE = re.compile(rf"(?P<in> in )?(?:(?P<url>{_URL})|(?P<path>{_PATH}))")
#: the site's own addresses, told as they are (``/d/GROUP``, ``/api/variants``)
_OWN = ("/api/", "/d/", "/t/", "/ws/", "/static/")


def hide(location: str) -> None:
    """Never tell a client ``location`` (a database's file path or URL, which may hold
    spaces): it is "the database" in every error's line."""
    if location:
        _HIDDEN.add(location)


def redact(text: str) -> str:
    """``text`` without a file path or URL of the server's: "X in PATH" is "X", any
    other path "a file", a URL "an address" (the database's own location, however
    written, "the database").

    >>> redact("game 3f2a in /srv/yacht/db.sqlite is finished")
    'game 3f2a is finished'
    >>> redact("disk full writing /var/lib/yacht/db.sqlite."), redact("and/or js/app.js")
    ('disk full writing a file.', 'and/or js/app.js')
    >>> redact("cannot connect to postgresql+psycopg://ann:***@db/yacht: refused")
    'cannot connect to an address: refused'
    >>> redact("watch the field at /d/1861aa0ee6c1"), redact(r"open C:\\yacht\\db.sqlite")
    ('watch the field at /d/1861aa0ee6c1', 'open a file')
    """
    for hidden in sorted(_HIDDEN, key=len, reverse=True):
        if hidden in text:
            text = text.replace(f" in {hidden}", "").replace(hidden, "the database")
    return _WHERE.sub(_unsaid, text)


def _unsaid(m: re.Match[str]) -> str:
    found = m.group("url") or m.group("path")
    if found.startswith(_OWN):
        return m.group(0)
    tail = found[len(found.rstrip(".,:;")):]  # (a sentence's stop is not the path's)
    if m.group("in"):
        return tail
    return ("an address" if m.group("url") else "a file") + tail


class WebError(Exception):
    """A request the server does not take: one line for the client (never a file path
    or a URL: :func:`redact`) and a code."""

    def __init__(self, message: str, code: ErrorCode = "bad_request") -> None:
        super().__init__(redact(message))
        self.code: ErrorCode = code

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)


def public(error: StoreError, location: str) -> WebError:
    """The store's error as a client may read it: no file path or URL, and "no game" /
    "no table" as ``not_found``."""
    hide(location)
    text = redact(str(error))
    if text.startswith(("no game ", "no table ")):
        return WebError(text, "not_found")
    if "changed meanwhile" in text:
        return WebError(text, "conflict")
    return WebError(text, "store")


def response(error: WebError) -> JSONResponse:
    return JSONResponse(error_body(str(error), error.code), status_code=error.status)


#: the methods a route may take (``HEAD``: wherever ``GET`` is, ``guard.py``)
_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """The methods the request's path takes, whichever of its routes takes them (the
    router's 405 names only the first route of the path: ``GET /api/tables`` and ``POST
    /api/tables`` are two), ``HEAD`` wherever ``GET`` is (``guard.py``)."""
    found = {method for method in _METHODS
             if any(route.matches({**request.scope, "type": "http", "method": method})[0]
                    is Match.FULL for route in request.app.router.routes)}
    if "GET" in found:
        found.add("HEAD")
    return sorted(found)


def install_handlers(app: FastAPI, location: str) -> None:
    """Every error of the HTTP API in the one shape (FastAPI's own included);
    ``location``, the store's, is never told."""
    hide(location)

    async def web_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, WebError)
        return response(exc)

    async def store_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StoreError)
        found = public(exc, location)
        if found.code == "store":
            log.warning("%s %s: %s", request.method, request.url.path, exc)
        return response(found)

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, ValidationError):
            return response(WebError(validation_line(exc, socket=False)))
        errors: Any = exc.errors() if isinstance(exc, RequestValidationError) else []
        if not errors:
            return response(WebError("the request is not valid"))
        first = dict(errors[0])
        where = tuple(first.get("loc", ()))
        first["loc"] = where[1:] if where[:1] in (("body",), ("query",), ("path",)) else where
        return response(WebError(describe(first, socket=False)))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        code: ErrorCode = "not_found" if exc.status_code == 404 else "bad_request"
        text = "no such page" if exc.status_code == 404 else str(exc.detail)
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            allowed = allowed_methods(request)
            method = "HEAD" if request.scope.get("yacht.head") else request.method
            code = "method_not_allowed"
            text = f"{method} is not answered here (it takes {', '.join(allowed)})"
            headers = {**(headers or {}), "Allow": ", ".join(allowed)}
        elif exc.status_code == 400:  # (FastAPI's "There was an error parsing the body":
            # JSON nested too deep for it, a number of thousands of digits)
            text = "the body could not be read: a JSON object is expected"
        return JSONResponse(error_body(text, code), status_code=exc.status_code,
                            headers=headers)

    async def fault(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse(error_body("the server could not do that (it is logged)",
                                       "server"), status_code=500)

    app.add_exception_handler(WebError, web_error)
    app.add_exception_handler(StoreError, store_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(ValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, fault)
