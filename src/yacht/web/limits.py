"""How many new tables one address may make: :data:`TABLES` in any :data:`TABLES_WINDOW`
seconds on each server process; past that the request is answered ``flood`` (429) and
nothing is made. Without it a stranger could fill the public list of tables (and the
store) with hundreds of empty lobbies a second. And how many WebSockets one address may
hold open at once: :data:`SOCKETS` on each server process (:class:`OpenSockets`); past
that a new socket's handshake is refused. Without it one stranger could open sockets
until the process has no file left to open, and no one else could connect. The address
is the client's as the server sees it: behind a proxy, the browser's address the proxy
passes on when ``yacht web --proxy`` names it (a proxy on the same machine is believed
by default), else the proxy's own.
"""

from __future__ import annotations

import os
import time

from .errors import WebError
from .reactions import Window

__all__ = ["ENV", "SOCKETS", "SOCKETS_ENV", "TABLES", "TABLES_WINDOW", "OpenSockets",
           "PerAddress", "configured", "configured_sockets"]

#: new tables an address may make in a window of this many seconds (each process)
TABLES, TABLES_WINDOW = 30, 600.0

#: the environment's word on it: a number of tables in the window, 0 or ``none``: no limit
ENV = "YACHT_NEW_TABLES"

#: WebSockets an address may hold open at once (each process): a family's or a club's
#: browsers behind one router hold one a table page each
SOCKETS = 200
#: the environment's word on it: a number, 0 or ``none``: no limit
SOCKETS_ENV = "YACHT_SOCKETS"

#: addresses remembered at most before the quiet ones are forgotten
_ADDRESSES = 10_000


class PerAddress:
    """At most ``most`` in any ``seconds`` for each address (None: no limit)."""

    def __init__(self, most: int | None, seconds: float = 0.0) -> None:
        self.most, self.seconds = most, seconds
        self.windows: dict[str, Window] = {}

    def take(self, address: str, what: str, now: float | None = None) -> None:
        """Count one for ``address``, or raise :class:`WebError` ``flood`` (counting
        nothing) when it had its ``most`` in the window."""
        if self.most is None:
            return
        now = time.monotonic() if now is None else now
        window = self.windows.get(address)
        if window is None:
            if len(self.windows) >= _ADDRESSES:   # forget the addresses gone quiet
                for quiet in [a for a, w in self.windows.items()
                              if w.free(now) and not w.times]:
                    del self.windows[quiet]
            window = self.windows[address] = Window(self.most, self.seconds)
        if not window.free(now):
            wait = max(1, round(self.seconds - (now - window.times[0])))
            raise WebError(f"too many new {what} from this address: at most {self.most} in "
                           f"{self.seconds / 60:g} minutes; try again in {wait} s", "flood")
        window.take(now)



def configured() -> tuple[int, float] | None:
    """The new tables an address may make, and in how many seconds, as :data:`ENV` says
    (None: no limit; unset: :data:`TABLES` in :data:`TABLES_WINDOW`). A value that is not
    a number is said in one line on the log's stream, and the default used."""
    raw = os.environ.get(ENV, "").strip().lower()
    if not raw:
        return TABLES, TABLES_WINDOW
    if raw in ("0", "none"):
        return None
    if raw.isascii() and raw.isdigit():
        return int(raw), TABLES_WINDOW
    import sys

    print(f"yacht: warning: {ENV}={os.environ[ENV]!r} is not a number of tables (accepted: "
          f"a whole number, 0 or none: no limit): {TABLES} is used", file=sys.stderr)
    return TABLES, TABLES_WINDOW


class OpenSockets:
    """The WebSockets open from each address, at most ``most`` (None: no limit)."""

    def __init__(self, most: int | None) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more socket of ``address``; False (counting nothing) when it holds
        its ``most`` already."""
        held = self.open.get(address, 0)
        if self.most is not None and held >= self.most:
            return False
        self.open[address] = held + 1
        return True

    def give(self, address: str) -> None:
        """A socket of ``address`` closed."""
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)


def configured_sockets() -> int | None:
    """The sockets an address may hold open, as :data:`SOCKETS_ENV` says (None: no limit;
    unset: :data:`SOCKETS`). A value that is not a number is said in one line on the
    log's stream, and the default used."""
    raw = os.environ.get(SOCKETS_ENV, "").strip().lower()
    if not raw:
        return SOCKETS
    if raw in ("0", "none"):
        return None
    if raw.isascii() and raw.isdigit():
        return int(raw)
    import sys

    print(f"yacht: warning: {SOCKETS_ENV}={os.environ[SOCKETS_ENV]!r} is not a number of "
          f"sockets (accepted: a whole number, 0 or none: no limit): {SOCKETS} is used",
          file=sys.stderr)
    return SOCKETS
