"""The server's gate, before any route: the Host allow-list, the size of a request's
body, and the security headers of every answer (a plain ASGI middleware: no copy of a
response, nothing on the WebSocket's messages).

- **Host.** A page on another name that resolves to this machine (DNS rebinding)
  would talk to a server listening on localhost as if it were its own origin: only
  the names the server is reached by are answered (``--allowed-host``; ``*``: any).
- **Body.** A request's body is read here, up to :data:`~yacht.web.protocol.MAX_BODY`
  bytes, before any parser sees it: a longer one is answered 413 at once.
- **Headers.** A strict Content-Security-Policy and its companions on every answer.
- **HEAD.** A ``HEAD`` request is answered as its ``GET`` would be, without the body
  (every page and ``GET`` endpoint takes it, as HTTP asks; the routes declare ``GET``
  alone): the routes see ``GET`` and ``scope["yacht.head"]``.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

import orjson

from .protocol import MAX_BODY, ErrorCode, error_body

__all__ = ["CSP", "Guard", "allowed_hosts", "host_name"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the page may load only what this server serves
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; media-src 'self'; manifest-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]

#: the names every server answers to (the machine itself)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")


#: a Host header: a name or an IPv4 address (letters, digits, ``.``, ``-``, ``_``), or an
#: IPv6 address in brackets; then a port or not
_HOST = re.compile(r"(?:(?P<name>[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_.])?)"
                   r"|\[(?P<ip6>[0-9a-f:.]+)\])(?::[0-9]{0,5})?")


def host_name(header: str) -> str | None:
    """The name of a Host header, without its port, in lower case; "" when there is none,
    None when it is not one (``127.0.0.1:8765@evil``, ``[::1]evil``, ``a b``: no browser
    sends such a thing).

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("example.org")
    ('localhost', '::1', 'example.org')
    >>> host_name("127.0.0.1:8765@evil"), host_name("[::1]evil"), host_name("")
    (None, None, '')
    """
    header = header.strip().lower()
    if not header:
        return ""
    m = _HOST.fullmatch(header)
    if m is None:
        return None
    if m.group("ip6") is not None:
        try:
            return str(ipaddress.IPv6Address(m.group("ip6")))  # (as the names are listed)
        except ValueError:
            return None
    return m.group("name")


def _listed(name: str) -> str:
    """A name the server is told to answer (``--allowed-host``, the address it listens
    on: a bare IPv6 address too), as :func:`host_name` gives it."""
    name = name.strip().lower()
    try:
        return str(ipaddress.ip_address(name.strip("[]")))
    except ValueError:
        return host_name(name) or name


def allowed_hosts(listen: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The Host names a server listening on ``listen`` answers: the names it listens
    on, this machine's own names when it listens on every address, and ``localhost``;
    plus ``extra`` (``*`` among them: any name, None)."""
    names = {_listed(h) for h in extra if h.strip()}
    if "*" in names:
        return None
    names.update(LOCAL_NAMES)
    names.add(_listed(listen))
    try:
        wildcard = ipaddress.ip_address(_listed(listen)).is_unspecified
    except ValueError:
        wildcard = False
    if wildcard:  # every address of the machine: its names and their addresses
        for name in {socket.gethostname(), socket.getfqdn()}:
            names.add(name.lower())
            try:
                for info in socket.getaddrinfo(name, None):
                    names.add(str(info[4][0]).lower())
            except OSError:
                pass
    return frozenset(names)


class Guard:
    """The ASGI middleware in front of the application (see the module's text)."""

    def __init__(self, app: App, hosts: frozenset[str] | None, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.hosts = hosts
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host")
        name = host_name(host)
        if name is None:  # (the same answer whatever names the server takes)
            await self._refuse(scope, receive, send, 400, "bad_request",
                               "the Host header is not a host name (NAME or NAME:PORT)")
            return
        if self.hosts is not None and name not in self.hosts:
            shown = name[:60] or "no name"
            await self._refuse(scope, receive, send, 421, "bad_host",
                               f"this server does not answer to {shown!r} (its names: "
                               "yacht web --allowed-host)")
            return
        if kind == "websocket":
            # how a connection that stopped reading is dropped (see channel.py): the
            # server's own transport, when the server is one that has it (uvicorn)
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            if transport is not None and hasattr(transport, "abort") \
                    and hasattr(transport, "is_closing"):
                scope["yacht.transport"] = transport
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length or _header(scope, b"transfer-encoding"):
            declared = int(length) if length.isdigit() else 0
            body = None if declared > self.max_body else \
                await _read_body(receive, self.max_body)
            if body is None:
                await self._refuse(scope, receive, send, 413, "too_large",
                                   f"a request's body is at most {self.max_body} bytes")
                return
            receive = _replay(body, receive)

        head = scope.get("method") == "HEAD"
        if head:  # (a copy: the server's own scope still says HEAD, and sends no body)
            scope = {**scope, "method": "GET", "yacht.head": True}

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *_HEADERS]
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, with_headers)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, status: int,
                      code: ErrorCode, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
            return
        body = orjson.dumps(error_body(message, code))
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close"), *_HEADERS]})
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


async def _read_body(receive: Receive, most: int) -> bytes | None:
    """The whole body, or None as soon as it is longer than ``most`` bytes."""
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(parts)  # the client went away: the app hears it
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > most:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
