"""The table's WebSocket, ``/ws/TABLE``: one connection's receive and send loops.

- **In.** Text frames of at most :data:`~yacht.web.protocol.MAX_MESSAGE` bytes (a
  longer one closes the connection, 1009; a binary one, 1003), read by
  :func:`~yacht.web.protocol.read_client` and nothing else; at most ``rate`` a second
  after a burst (past that, every message waiting for an answer is told ``flood``, and
  a connection that keeps flooding is closed, 1008), and within its address's budget,
  shared by all the sockets of the address (``limits.AddressRate``: the same answers
  past it). The first message is a hello; it is counted in the address's budget too (a
  socket opened afresh is no way round it), and past it the socket is told ``flood``
  and closed, 1013 (try again later).
  One message at a time: a browser's commands are applied in the order it sent them.
- **Out.** The connection's outbox in order; a state is made when it is sent (the
  newest then). A browser that stops reading is dropped: a send it does not take
  within :data:`SEND_WITHIN` seconds, or a socket the server is closing that does not
  close (``watch_transports``), ends the connection and its socket, and it stops
  counting at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from yacht.store import StoreError

from .errors import WebError
from .fanout import CLOSE_PRIVATE
from .hub import Hub
from .limits import AddressRate, address_key
from .live import Close, Connection, LiveTable, StateDue
from .protocol import (
    MAX_MESSAGE,
    Again,
    Away,
    ClientMessage,
    CommandMessage,
    ErrorCode,
    Hello,
    HintRequest,
    Join,
    Leave,
    Ping,
    PrefsChange,
    ProtocolError,
    React,
    ServerMessage,
    SpeedChange,
    Start,
    State,
    message_id,
    parse_json,
    read_client,
)
from .tasks import Tasks

__all__ = ["BURST", "RATE", "Limits", "TokenBucket", "client_address", "serve_group",
           "serve_table", "watch_transports"]

log = logging.getLogger("yacht.web")

#: messages a connection may send in a burst, and per second after it
BURST, RATE = 40, 20.0
#: refused messages after which a flooding connection is closed
FLOOD_CLOSE = 200
#: the first message (a hello) must come within this many seconds
HELLO_WITHIN = 15.0
#: a send the browser does not take within this many seconds: it stopped reading
SEND_WITHIN = 20.0
#: turns of the loop a state waits for its own command's answer to go on it (_send_one):
#: the command's caller has the loop back two turns after its state is due
ACK_TURNS = 3
#: how often the server looks for sends not taken and sockets stuck closing (seconds)
WATCH_EVERY = 5.0


@dataclass(frozen=True)
class Limits:
    rate: float = RATE
    burst: int = BURST
    hello_within: float = HELLO_WITHIN
    send_within: float = SEND_WITHIN
    #: the budget every address's sockets share (one for the server: None, no limit)
    messages: AddressRate | None = None


class TokenBucket:
    def __init__(self, burst: int = BURST, rate: float = RATE) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _same_origin(origin: str, host: str | None) -> bool:
    from urllib.parse import urlsplit

    try:
        return host is not None and urlsplit(origin).netloc.lower() == host.lower()
    except ValueError:
        return False


def _error(code: ErrorCode, message: str, msg_id: int | str | None = None) -> ServerMessage:
    out: Any = {"type": "error", "code": code, "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return out  # type: ignore[no-any-return]


def _ack(conn: Connection, msg_id: int | str | None) -> None:
    """Answer a message done. When a state is due (a command's: it is queued before the
    answer), the answer goes on that state as its ``id``: one frame, not two (a frame
    less a move for the player who made it: issue 28). The state is built when it is
    sent, after what is answered, so it shows it; a page takes a state with its id
    as the ack."""
    if msg_id is not None and conn.state_due and conn.ack_due is None and not conn.leaving:
        conn.ack_due = msg_id
    else:
        conn.send(_with_id({"type": "ack"}, msg_id))


def _held_ack(conn: Connection) -> ServerMessage | None:
    """The ack held for the next state, as one of its own (that state is not sent)."""
    if conn.ack_due is None:
        return None
    msg_id, conn.ack_due = conn.ack_due, None
    return _with_id({"type": "ack"}, msg_id)


def _with_id(message: Any, msg_id: int | str | None) -> ServerMessage:
    if msg_id is not None:
        message["id"] = msg_id
    return message  # type: ignore[no-any-return]


async def _accepted(ws: WebSocket) -> bool:
    """Accept a socket opened from this site's own pages (another origin: closed, 1008)."""
    origin = ws.headers.get("origin")
    if origin is not None and not _same_origin(origin, ws.headers.get("host")):
        await ws.close(code=1008, reason="another origin")
        return False
    await ws.accept()
    return True


async def serve_table(ws: WebSocket, table_id: str, hub: Hub, limits: Limits) -> None:
    """One browser at table ``table_id``, from the handshake to the end."""
    if not await _accepted(ws):
        return
    try:
        live = await hub.get(table_id)
    except WebError as e:
        await _say_and_close(ws, _error(e.code, str(e)), 4404, e.code)
        return
    hello = await _hello(ws, limits)
    address = client_address(ws)
    if hello is None or not await _hello_counted(ws, limits, address):
        return
    try:  # (a player's own card of a duplicate table: its seat only)
        hub.duplicates.check_watch(live, hello.token)
    except WebError as e:
        await _say_and_close(ws, _error(e.code, str(e)), CLOSE_PRIVATE, e.code)
        return
    await hub.catch_up(live)  # (the terminal game may have played on meanwhile)
    conn = hub.connect(live, hello.token)
    conn.transport = ws.scope.get("yacht.transport")
    conn.address = address
    if hello.prefs is not None:
        try:
            await hub.set_prefs(live, conn, hello.prefs.dice_mark, hello.prefs.pause)
        except Exception:  # (never a reason to refuse a browser)
            log.exception("table %s: a browser's choices", live.id)
    tasks = Tasks(f"table {live.id}: a connection")
    sender = tasks.spawn(_send_loop(ws, hub, live, conn, limits), "yacht-send")
    receiver = tasks.spawn(_receive_loop(ws, hub, live, conn, limits, tasks, address),
                           "yacht-receive")
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        hub.disconnect(live, conn)  # (it no longer counts at the table)
        if receiver.done() and not sender.done() and conn.leaving:
            # the server closes it: what was queued goes out first, then the close
            await asyncio.wait({sender}, timeout=5)
        stalled = sender.done() and not sender.cancelled() and sender.result() == "stalled"
    finally:
        hub.disconnect(live, conn)
        await tasks.close()
    if stalled:
        log.info("table %s: a browser stopped reading; its connection is dropped", live.id)
        _drop(ws, conn)


async def serve_group(ws: WebSocket, group_id: str, hub: Hub, limits: Limits) -> None:
    """A watcher of a duplicate table's field, ``/ws/d/GROUP``: after its hello it is sent
    the field as a watcher sees it, then again whenever it changes; it may only ping."""
    from yacht.parsing import InputError, parse_table_id

    if not await _accepted(ws):
        return
    try:
        group_id = parse_table_id(group_id, "group id")
        await hub.duplicates.group(group_id)
    except (InputError, WebError) as e:
        await _say_and_close(ws, _error("not_found", str(e)), 4404, "not_found")
        return
    address = client_address(ws)
    if await _hello(ws, limits) is None or not await _hello_counted(ws, limits, address):
        return
    conn = Connection(None)
    conn.transport = ws.scope.get("yacht.transport")
    tasks = Tasks(f"duplicate table {group_id}: a watcher")
    sender = tasks.spawn(_send_loop(ws, hub, None, conn, limits), "yacht-send")
    receiver = tasks.spawn(_watch_loop(ws, conn, limits, address), "yacht-receive")
    hub.duplicates.watch(group_id, conn)
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
        hub.duplicates.unwatch(group_id, conn)
        if receiver.done() and not sender.done() and conn.leaving:
            # the server closes it (a flood, a frame refused): the answers, then the close
            await asyncio.wait({sender}, timeout=5)
        stalled = sender.done() and not sender.cancelled() and sender.result() == "stalled"
    finally:
        hub.duplicates.unwatch(group_id, conn)
        await tasks.close()
    if stalled:
        _drop(ws, conn)


async def _next_frame(ws: WebSocket, conn: Connection) -> str | None:
    """The browser's next text frame; None when it left, or when the frame was refused
    (the connection is then closing with the reason)."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    refusal = _frame_refusal(text)
    if refusal is not None:
        conn.close(*refusal)
        return None
    return text


def client_address(ws: WebSocket) -> str:
    """Whose budget a socket's messages spend (``limits.address_key``): its address as
    the server sees it (behind a proxy ``yacht web --proxy`` names, the browser's), as
    the sockets an address holds are counted (``app.py``)."""
    return address_key(ws.client.host if ws.client is not None else "?")


async def _hello_counted(ws: WebSocket, limits: Limits, address: str) -> bool:
    """The hello just read, counted in its address's budget; past it the socket is told
    ``flood`` and closed, 1013 (False)."""
    if limits.messages is None or limits.messages.take(address):
        return True
    await _say_and_close(ws, _error("flood", "too many messages from this address: at most "
                                             f"{limits.messages.rate:g} a second; try again "
                                             "in a moment"), 1013, "flood")
    return False


class _Flood:
    """A connection's rate (every socket's alike), and its address's budget (all its
    sockets': ``limits.AddressRate``): past either, every message waiting for an answer
    is told ``flood`` and not done, and a connection that keeps flooding
    (:data:`FLOOD_CLOSE` messages refused) is closed, 1008."""

    def __init__(self, limits: Limits, address: str) -> None:
        self.bucket = TokenBucket(limits.burst, limits.rate)
        self.messages, self.address = limits.messages, address
        self.refused = 0

    def let_in(self, conn: Connection, text: str) -> bool:
        """Whether the message is within the rates (False: refused, or the connection is
        closing: :attr:`closed`)."""
        mine = self.bucket.take()
        if mine and (self.messages is None or self.messages.take(self.address)):
            return True
        self.refused += 1
        # every refused message that waits for an answer gets one
        msg_id = _quiet_id(text)
        if msg_id is not None or self.refused == 1:
            if mine and self.messages is not None:
                said = f"too many messages from this address: at most {self.messages.rate:g} " \
                       "a second"
            else:
                said = f"too many messages: at most {self.bucket.rate:g} a second"
            conn.send(_error("flood", said, msg_id))
        if self.closed:
            conn.close(1008, "flood")
        return False

    @property
    def closed(self) -> bool:
        return self.refused >= FLOOD_CLOSE


async def _watch_loop(ws: WebSocket, conn: Connection, limits: Limits, address: str) -> None:
    """A field watcher's messages: pings (anything else is answered ``bad_request``),
    within the rate of a table's socket."""
    flood = _Flood(limits, address)
    while True:
        text = await _next_frame(ws, conn)
        if text is None:
            return
        if not flood.let_in(conn, text):
            if flood.closed:
                return
            continue
        try:
            msg = read_client(text)
        except ProtocolError as e:
            conn.send(_error(e.code, str(e), e.id))
            continue
        if isinstance(msg, Ping):
            conn.send(_with_id({"type": "pong"}, msg.id))
        else:
            conn.send(_error("bad_request", "a watcher of the field only pings", msg.id))


async def _say_and_close(ws: WebSocket, message: ServerMessage, code: int, reason: str) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(orjson.dumps(message).decode())
        await ws.close(code=code, reason=reason)


async def _hello(ws: WebSocket, limits: Limits) -> Hello | None:
    """The first message: a hello, or the connection is closed (None)."""
    try:
        message = await asyncio.wait_for(ws.receive(), limits.hello_within)
    except TimeoutError:
        await _say_and_close(ws, _error("bad_request", "the first message is a hello"),
                             1008, "no hello")
        return None
    except Exception:  # (gone before it said anything)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    refusal = _frame_refusal(text)
    if refusal is not None:
        with contextlib.suppress(Exception):
            await ws.close(code=refusal[0], reason=refusal[1])
        return None
    try:
        msg = read_client(text)  # type: ignore[arg-type]
    except ProtocolError as e:
        await _say_and_close(ws, _error(e.code, str(e), e.id), 1008, "no hello")
        return None
    if not isinstance(msg, Hello):
        await _say_and_close(ws, _error("bad_request", "the first message is a hello",
                                        msg.id), 1008, "no hello")
        return None
    return msg


def _frame_refusal(text: str | None) -> tuple[int, str] | None:
    """Why a frame closes the connection: bytes (1003) or too long (1009); None: read it."""
    if text is None:
        return 1003, "text frames only"
    if len(text) > MAX_MESSAGE // 4 and len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
        return 1009, f"a message is at most {MAX_MESSAGE} bytes"
    return None


async def _send_loop(ws: WebSocket, hub: Hub, live: LiveTable | None, conn: Connection,
                     limits: Limits) -> str:
    """Send the connection's outbox until it closes: "closed" (a close was sent), "gone"
    (the browser went away) or "stalled" (it stopped reading)."""
    me = asyncio.current_task()
    conn.sender = me
    hub.sockets.add(conn)
    try:
        while True:
            said = await _send_one(ws, hub, live, conn, await conn.outbox.get(), limits)
            if said is not None:
                return said
    except (WebSocketDisconnect, RuntimeError, ConnectionError, OSError):  # (gone meanwhile)
        return "gone"
    except asyncio.CancelledError:
        if conn.stalled and me is not None:  # (the watchdog: see watch_transports)
            me.uncancel()
            return "stalled"
        raise
    finally:
        hub.sockets.discard(conn)
        conn.sender = None


async def _send_one(ws: WebSocket, hub: Hub, live: LiveTable | None, conn: Connection,
                    item: Any, limits: Limits) -> str | None:
    """Send one item of the outbox; None to go on.

    Its own function so that the state it sends is let go once it is sent: a send loop
    that kept its last message held a whole snapshot per browser until the next move
    (10 KB a table at 5,000 tables), all of it for the garbage collector to walk."""
    if isinstance(item, StateDue):
        # the state of this browser's own command is due before the command's caller
        # has the loop back to answer it: a few turns of the loop let the answer come
        # and go on the state (one frame). Not longer: a state not of its command (the
        # command still waiting for the store) goes out as it would have.
        for _ in range(ACK_TURNS):
            if not conn.answering or conn.ack_due is not None:
                break
            await asyncio.sleep(0)
        state: State | None = None
        if live is not None:  # (a field's watcher has no table state; nor has a browser
            try:  # without the seat at a private table: it is being shut out)
                state = hub.fanout.state(live, conn)
            except Exception:  # never leave a browser without its states
                log.exception("table %s: the state for a browser", live.id)
        if state is None:  # (an ack held for it goes on its own)
            held = _held_ack(conn)
            if held is None:
                return None
            item = held
        else:
            if conn.ack_due is not None:
                state["id"] = conn.ack_due
                conn.ack_due = None
            item = state
    elif isinstance(item, Close):
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(code=item.code, reason=item.reason),
                                   limits.send_within)
        return "closed"
    text = orjson.dumps(item).decode()
    # a send the browser does not take is ended by the watchdog (watch_transports), not
    # by a timeout scope around every send: one was 4 % of a busy server's loop (issue 28)
    conn.sending_since = time.monotonic()
    try:
        await ws.send_text(text)
    finally:
        conn.sending_since = 0.0
    return None


async def _receive_loop(ws: WebSocket, hub: Hub, live: LiveTable, conn: Connection,
                        limits: Limits, tasks: Tasks, address: str) -> None:
    """Read and answer messages until the browser leaves or the connection is closed."""
    flood = _Flood(limits, address)
    while True:
        text = await _next_frame(ws, conn)
        if text is None:
            return
        if not flood.let_in(conn, text):
            if flood.closed:
                return
            continue
        try:
            msg = read_client(text)
        except ProtocolError as e:
            conn.send(_error(e.code, str(e), e.id))
            continue
        try:
            await _dispatch(hub, live, conn, msg, tasks)
        except WebError as e:
            conn.send(_error(e.code, str(e), msg.id))
        except StoreError as e:
            found = hub.public(e)
            conn.send(_error(found.code, str(found), msg.id))
        except Exception:  # a fault of ours: logged; the server goes on
            log.exception("table %s: a %s message", live.id, msg.type)
            conn.send(_error("server", "the server could not do that (it is logged)", msg.id))


def _quiet_id(text: str) -> int | str | None:
    """The id of a message not handled (a flood's), if it has one."""
    try:
        return message_id(parse_json(text))
    except ProtocolError:
        return None


async def _dispatch(hub: Hub, live: LiveTable, conn: Connection, msg: ClientMessage,
                    tasks: Tasks) -> None:
    if isinstance(msg, CommandMessage):
        conn.answering = msg.id is not None
        try:
            await hub.command(live, conn, msg.command, msg.version)
        finally:
            conn.answering = False
        _ack(conn, msg.id)
    elif isinstance(msg, Join):
        token = await hub.join(live, conn, msg.seat, msg.name, msg.token)
        conn.send(_with_id({"type": "joined", "token": token, "seats": sorted(conn.seats)},
                           msg.id))
    elif isinstance(msg, Start):
        await hub.start(live, conn)
        _ack(conn, msg.id)
    elif isinstance(msg, HintRequest):
        async def answer() -> None:  # a first hint may build tables: keep listening
            try:
                conn.send(_with_id(await hub.hint(live, conn), msg.id))
            except WebError as e:
                conn.send(_error(e.code, str(e), msg.id))

        tasks.spawn(answer(), "yacht-hint")
    elif isinstance(msg, SpeedChange):
        await hub.set_speed(live, conn, msg.speed)
        _ack(conn, msg.id)
    elif isinstance(msg, PrefsChange):
        # (the seat's new way with the dice is a state: answered on it, as a command is)
        conn.answering = msg.id is not None
        try:
            await hub.set_prefs(live, conn, msg.dice_mark, msg.pause)
        finally:
            conn.answering = False
        _ack(conn, msg.id)
    elif isinstance(msg, Ping):
        conn.send(_with_id({"type": "pong"}, msg.id))
    elif isinstance(msg, React):
        hub.react(live, conn, msg.reaction)
        _ack(conn, msg.id)
    elif isinstance(msg, Away | Again | Leave):
        await _keep_going(hub, live, conn, msg)
    else:  # Hello
        conn.send(_error("bad_request", "hello only once", msg.id))


async def _keep_going(hub: Hub, live: LiveTable, conn: Connection,
                      msg: Away | Again | Leave) -> None:
    """A table that keeps going: a seat handed to the computer, the next game."""
    if isinstance(msg, Away):
        await hub.away(live, conn, msg.seat, msg.on)
    elif isinstance(msg, Again):
        await hub.again(live, conn)
    else:
        await hub.leave(live, conn)
    _ack(conn, msg.id)


def _drop(ws: WebSocket, conn: Connection) -> None:
    """End a connection whose browser does not read: its socket is reset (a close frame
    would wait behind what the browser does not take)."""
    transport = conn.transport
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.abort()
    elif ws.application_state is not WebSocketState.DISCONNECTED:
        conn.leaving = True


async def watch_transports(hub: Hub, every: float = WATCH_EVERY,
                           send_within: float = SEND_WITHIN) -> None:
    """End the sends a browser has not taken within ``send_within`` seconds (it stopped
    reading: its send loop ends "stalled" and the connection is dropped), and reset the
    sockets the server has been closing for a while without their closing (the close
    waits behind what the browser does not take)."""
    while True:
        await asyncio.sleep(every)
        now = time.monotonic()
        for conn in list(hub.sockets):
            since, sender = conn.sending_since, conn.sender
            if since and now - since > send_within and sender is not None \
                    and not conn.stalled:
                conn.stalled = True
                sender.cancel()
        for live in hub.tables():
            for conn in list(live.connections):
                transport = conn.transport
                if transport is None:
                    continue
                closing = transport.is_closing()
                if closing and conn.closing_seen:
                    log.info("table %s: a socket stuck closing is reset", live.id)
                    hub.disconnect(live, conn)
                    with contextlib.suppress(Exception):
                        transport.abort()
                conn.closing_seen = closing
