"""Keepalive pings for browsers that have gone quiet, not for every browser.

A server pings each WebSocket every ``ws_ping_interval`` seconds and closes one that
does not answer within ``ws_ping_timeout``: that is how a browser that vanished (a
laptop closed, a phone out of reach, a socket half-open behind a proxy) stops holding
its seat. A browser that sent something within the interval has just shown that it is
there, so pinging it proves nothing new; at 10,000 sockets the pings were 400 writes a
second and as many pongs read, a fifth of a busy server's frames (issue 28).

:class:`QuietPings` is uvicorn's WebSocket protocol with that one change: when a ping
falls due, a browser heard from within the interval is not pinged, and the ping is put
off until the interval has passed since it was last heard. A browser that stops
sending is pinged an interval after its last message, and dropped a timeout later: no
later than before. Browsers that only listen (a watcher, the seat not on turn) are
pinged as they were. A browser that sends but stops reading is not a keepalive matter:
its sends not taken are ended by ``channel.watch_transports``.

It also closes a text frame that is not UTF-8 (1007, as the protocol asks) with one
line in the log: uvicorn's own protocol logged a traceback at the error level for it,
so any stranger could fill the server's log with tracebacks of their own bytes (a
client's mistake is never logged with a traceback: ``PROTOCOL.md``).

``yacht web`` serves with it (``ws=WS_PROTOCOL``).
"""

from __future__ import annotations

import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["WS_PROTOCOL", "QuietPings"]

#: uvicorn's ``ws`` setting for :class:`QuietPings` (a string: it crosses to worker
#: processes)
WS_PROTOCOL = "yacht.web.keepalive:QuietPings"

#: a timer may fire this much before its time (seconds): then the ping is sent
EARLY = 0.01

log = logging.getLogger("yacht.web")


class QuietPings(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, pinging only browsers that went quiet (and
    closing a text frame that is not UTF-8 without a traceback)."""

    heard_at = 0.0  # the loop's time when the browser last sent anything

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        interval = self.ping_interval
        if interval and self.pending_ping_payload is None:
            quiet = self.loop.time() - self.heard_at
            if quiet < interval - EARLY:  # heard from lately: look again once quiet
                self.ping_timer = self.loop.call_later(interval - quiet,
                                                       self.send_keepalive_ping)
                return
        super().send_keepalive_ping()

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:  # (a frame is at most a few KB: checked in a microsecond)
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                log.info("a browser sent a text frame that is not UTF-8: its socket is "
                         "closed (1007)")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
