"""How many new tables one address may make: :data:`TABLES` in any :data:`TABLES_WINDOW`
seconds on each server process; past that the request is answered ``flood`` (429) and
nothing is made. Without it a stranger could fill the public list of tables (and the
store) with hundreds of empty lobbies a second. And how many WebSockets one address may
hold open at once: :data:`SOCKETS` on each server process (:class:`OpenSockets`); past
that a new socket's handshake is refused. Without it one stranger could open sockets
until the process has no file left to open, and no one else could connect. And how many
messages all the WebSockets of one address may send: :class:`AddressRate`, a budget the
address's sockets share (each socket has its own rate too, ``channel.py``); without it
200 sockets at a connection's 20 a second each were 4,000 messages a second from one
stranger, and a socket opened afresh starts with a full budget of its own. The address
is the client's as the server sees it: behind a proxy, the browser's address the proxy
passes on when ``yacht web --proxy`` names it (a proxy on the same machine is believed
by default), else the proxy's own.
"""

from __future__ import annotations

import os
import time

from .errors import WebError
from .reactions import Window

__all__ = ["ENV", "MESSAGES_BURST", "MESSAGES_ENV", "MESSAGES_TIMES", "SOCKETS", "SOCKETS_ENV",
           "TABLES", "TABLES_WINDOW", "AddressRate", "OpenSockets", "PerAddress", "address_key",
           "configured", "configured_messages", "configured_sockets"]

#: new tables an address may make in a window of this many seconds (each process)
TABLES, TABLES_WINDOW = 30, 600.0

#: the environment's word on it: a number of tables in the window, 0 or ``none``: no limit
ENV = "YACHT_NEW_TABLES"

#: WebSockets an address may hold open at once (each process): a family's or a club's
#: browsers behind one router hold one a table page each
SOCKETS = 200
#: the environment's word on it: a number, 0 or ``none``: no limit
SOCKETS_ENV = "YACHT_SOCKETS"

#: the messages all the sockets of an address may send a second, and at once, as so many
#: times a connection's (``channel.RATE``, ``channel.BURST``): 60 a second after a burst
#: of 240. A person's page sends at most 15 a second (``socket.js``: a key held down) and
#: a player at play one or two; a family's pages behind one router, a few of them on
#: their turn at once, stay far below it; and the burst lets every socket the address may
#: hold (:data:`SOCKETS`) say its hello at once (a server restarted: all reconnect)
MESSAGES_TIMES = (3, 6)
#: the environment's word on it: messages an address may send a second (a burst of
#: :data:`MESSAGES_BURST` seconds' worth), 0 or ``none``: no limit
MESSAGES_ENV = "YACHT_MESSAGES"
MESSAGES_BURST = 4

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



def _env_number(name: str, what: str, default: float) -> int | None:
    """The whole number the environment's ``name`` gives (None: 0 or ``none``, no limit;
    -1: unset, the default). A value that is not a number is said in one line on the
    log's stream (``what``: what it counts; ``default``: what is used), and the default
    used."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return -1
    if raw in ("0", "none"):
        return None
    if raw.isascii() and raw.isdigit():
        return int(raw)
    import sys

    print(f"yacht: warning: {name}={os.environ[name]!r} is not a number of {what} "
          f"(accepted: a whole number, 0 or none: no limit): {default:g} is used",
          file=sys.stderr)
    return -1


def configured() -> tuple[int, float] | None:
    """The new tables an address may make, and in how many seconds, as :data:`ENV` says
    (None: no limit; unset: :data:`TABLES` in :data:`TABLES_WINDOW`). A value that is not
    a number is said in one line on the log's stream, and the default used."""
    n = _env_number(ENV, "tables", TABLES)
    return None if n is None else (TABLES if n < 0 else n, TABLES_WINDOW)


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
    n = _env_number(SOCKETS_ENV, "sockets", SOCKETS)
    return None if n is None else SOCKETS if n < 0 else n


def address_key(host: str) -> str:
    """Whose budget a client's address spends: an IPv4 address its own (an IPv4 address
    an IPv6 socket carries too, ``::ffff:a.b.c.d``), an IPv6 address its /64 network (a
    home or a machine is handed a whole /64: one stranger holds billions of addresses of
    it), anything else as it is (a test client's name).

    >>> address_key("192.0.2.7"), address_key("::ffff:192.0.2.7")
    ('192.0.2.7', '192.0.2.7')
    >>> address_key("2001:db8:1:2:aaaa::1"), address_key("testclient")
    ('2001:db8:1:2::/64', 'testclient')
    """
    import ipaddress

    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class AddressRate:
    """A token bucket per address (:func:`address_key`), shared by all its sockets:
    ``rate`` messages a second after a burst of ``burst``. An address whose bucket is
    full again is forgotten (a full bucket is what a new address gets: nothing is lost),
    so the addresses kept are those that sent in the last ``burst / rate`` seconds."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, tuple[float, float]] = {}   # address: (tokens, when)
        self.swept: float | None = None   # when the full buckets were last forgotten
        #: how often the full buckets are forgotten (seconds)
        self.sweep_every = max(1.0, min(60.0, burst / rate if rate > 0 else 60.0))

    def take(self, address: str, now: float | None = None) -> bool:
        """One message of ``address`` (False: its budget is spent; nothing is counted)."""
        now = time.monotonic() if now is None else now
        if self.swept is None:
            self.swept = now
        elif now - self.swept >= self.sweep_every:
            self.sweep(now)
        tokens, at = self.buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - at) * self.rate)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True

    def sweep(self, now: float) -> None:
        """Forget the addresses whose buckets are full again."""
        self.swept = now
        full = [a for a, (tokens, at) in self.buckets.items()
                if tokens + (now - at) * self.rate >= self.burst]
        for address in full:
            del self.buckets[address]


def configured_messages(rate: float, burst: int) -> tuple[float, int] | None:
    """The messages an address's sockets may send a second, and at once, as
    :data:`MESSAGES_ENV` says (None: no limit; unset: :data:`MESSAGES_TIMES` a
    connection's ``rate`` and ``burst``). A value that is not a number is said in one
    line on the log's stream, and the default used."""
    default = rate * MESSAGES_TIMES[0], burst * MESSAGES_TIMES[1]
    n = _env_number(MESSAGES_ENV, "messages a second", default[0])
    return None if n is None else default if n < 0 else (float(n), n * MESSAGES_BURST)
