"""News between the server processes of one site: Redis pub/sub, and a lease per table.

The database is the one truth. When a process accepts an action it has saved
it, then it tells the others "table T changed" on Redis, with the actions
saved since its last message and the position they lead to (``{"kind": "changed",
"start": i, "actions": [...], "upto": n, "position": {...}}``, one message at a time
per table, so they arrive in order; ``"pause"``
when a player left a pause; ``{"kind": "lobby"}`` when the seats or the start
changed). Every process that shows T plays those actions when they follow on
from its copy (``Table.take_up``), or else reads the store (``Table.sync``),
and pushes the result to its own browsers: the position as the mover made it (the
part of the snapshot every seat sees alike), each browser's own part made there.

Exactly one process drives a table's computer players: the one that holds the
table's lease (a Redis key with an expiry, renewed while it lives; when its
process dies another takes the table over within seconds).

Without Redis (one process) :class:`LocalNews` says nothing and every lease is
this process's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

__all__ = ["LEASE_SECONDS", "LocalNews", "News", "RedisNews", "make_news"]

log = logging.getLogger("yacht.web")

#: how long a lease lasts without renewal (its holder renews every third of it)
LEASE_SECONDS = 6.0

Listener = Callable[[str, dict[str, Any]], Awaitable[None]]


class News:
    """What a process tells the others, and the leases; this base is the one-process kind."""

    #: this process, as the others know it
    me: str = ""
    shared = False

    async def start(self, listener: Listener) -> None:
        """Begin listening: ``listener(table_id, message)`` for every other process's news."""

    async def close(self) -> None:
        pass

    async def publish(self, table_id: str, message: dict[str, Any]) -> bool:
        """Tell the other processes; False when it could not be sent (try again later)."""
        return True

    async def follow(self, table_id: str) -> None:
        """Hear the news of table ``table_id`` (this process shows it)."""

    async def unfollow(self, table_id: str) -> None:
        pass

    async def lease(self, table_id: str) -> bool:
        """Take or renew the right to drive the table's computer players."""
        return True

    async def release(self, table_id: str) -> None:
        pass

    async def alive(self, processes: set[str]) -> set[str]:
        """Which of ``processes`` still run (and say this one does): the others' news
        of who is at a table counts while its process lives."""
        return set(processes)

    async def healthy(self) -> tuple[bool, str]:
        return True, "one process (no Redis)"


class LocalNews(News):
    """One server process: nothing to tell anyone."""


_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
elseif redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisNews(News):
    """Redis pub/sub (a channel per table) and leases (a key per table)."""

    shared = True

    def __init__(self, url: str, prefix: str = "yacht") -> None:
        import redis.asyncio as redis

        self.url = url
        self.prefix = prefix
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        # a busy process publishes for many tables at once: they wait for one of the
        # pool's connections (a plain pool refuses past its size: news lost for nothing)
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=32, timeout=5, socket_timeout=2, socket_connect_timeout=2,
            health_check_interval=10)
        self.client = redis.Redis(connection_pool=pool)
        self.followed: set[str] = set()
        self.pubsub: Any = None
        self.listener: Listener | None = None
        self.task: asyncio.Task[None] | None = None
        self.ok = False
        self.failed = 0  # publishes that failed (their callers sent them again)
        self.warned = -60.0  # when that was last logged
        self.problem = "not connected yet"
        self.on_back: Callable[[], Awaitable[None]] | None = None
        # the messages of this turn of the loop, sent together; the batches on their way
        self._outgoing: list[tuple[str, bytes, asyncio.Future[bool]]] = []
        self._sending: set[asyncio.Task[None]] = set()

    def _channel(self, table_id: str) -> str:
        return f"{self.prefix}:table:{table_id}"

    async def start(self, listener: Listener) -> None:
        self.listener = listener
        self.task = asyncio.create_task(self._listen(), name="yacht-news")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        try:  # (the others stop counting this process's browsers at once)
            await self.client.delete(f"{self.prefix}:process:{self.me}")
        except Exception:
            pass
        try:
            await self.client.aclose()
        except Exception:
            pass

    async def _listen(self) -> None:
        """Listen for ever: on a lost connection, say so, wait, connect again, and let
        the hub catch up on what it missed."""
        first = True
        while True:
            try:
                self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                await self.pubsub.subscribe(f"{self.prefix}:hello")
                for table_id in list(self.followed):
                    await self.pubsub.subscribe(self._channel(table_id))
                if not self.ok:
                    log.info("redis: connected to %s", self.url.split("@")[-1])
                was_down = not self.ok and not first
                self.ok, self.problem, first = True, "", False
                if was_down and self.on_back is not None:
                    await self.on_back()
                while True:
                    msg = await self.pubsub.get_message(timeout=1.0)
                    if msg is None or msg.get("type") != "message":
                        continue
                    await self._deliver(msg)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # redis down, or the connection dropped
                if self.ok or first:
                    log.warning("redis: lost (%s); the store is polled until it is back", e)
                self.ok, self.problem, first = False, f"redis: {e}", False
                try:
                    if self.pubsub is not None:
                        await self.pubsub.aclose()
                except Exception:
                    pass
                await asyncio.sleep(1.0)

    async def _deliver(self, msg: dict[str, Any]) -> None:
        channel = msg["channel"].decode() if isinstance(msg["channel"], bytes) else msg["channel"]
        table_id = channel.rsplit(":", 1)[-1]
        try:
            body = orjson.loads(msg["data"])
        except (ValueError, TypeError):
            return
        if not isinstance(body, dict) or body.get("from") == self.me:
            return
        if self.listener is not None:
            try:
                await self.listener(table_id, body)
            except Exception:
                log.exception("table %s: news %r", table_id, body)

    async def publish(self, table_id: str, message: dict[str, Any]) -> bool:
        # The messages published in one turn of the loop go to Redis together, in one
        # pipeline (one write and one read for all of them, not one round trip each: at
        # hundreds of moves a second the commands' own cost was a tenth of a process).
        # Each table publishes one message at a time, so a table's news keeps its order.
        # (A failed publish does not mark the news as down: the listener knows whether
        # news is heard; the caller sends it again later.)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._outgoing.append((self._channel(table_id),
                               orjson.dumps({**message, "from": self.me}), done))
        if len(self._outgoing) == 1:
            asyncio.get_running_loop().call_soon(self._send_outgoing)
        return await done

    def _send_outgoing(self) -> None:
        batch, self._outgoing = self._outgoing, []
        if batch:
            task = asyncio.get_running_loop().create_task(self._send_batch(batch))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send_batch(self, batch: list[tuple[str, bytes, asyncio.Future[bool]]]) -> None:
        results: list[Any]
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for channel, data, _ in batch:
                    pipe.publish(channel, data)
                results = await pipe.execute(raise_on_error=False)
        except asyncio.CancelledError:  # (the process stops: no publisher waits for ever)
            for _, _, done in batch:
                if not done.done():
                    done.set_result(False)
            raise
        except Exception as e:
            results = [e] * len(batch)
        failed = [r for r in results if isinstance(r, BaseException)]
        for (_, _, done), result in zip(batch, results, strict=True):
            if not done.done():
                done.set_result(not isinstance(result, BaseException))
        if failed:
            self.failed += len(failed)
            now = time.monotonic()
            if now - self.warned >= 60:  # a saturated process fails often: once a minute
                log.warning("redis: cannot publish (%s); sending again (%d failed)",
                            failed[0], self.failed)
                self.warned = now

    async def follow(self, table_id: str) -> None:
        if table_id in self.followed:
            return
        self.followed.add(table_id)
        if self.ok and self.pubsub is not None:
            try:
                await self.pubsub.subscribe(self._channel(table_id))
            except Exception:  # the listener subscribes it again when it reconnects
                pass

    async def unfollow(self, table_id: str) -> None:
        self.followed.discard(table_id)
        if self.ok and self.pubsub is not None:
            try:
                await self.pubsub.unsubscribe(self._channel(table_id))
            except Exception:
                pass

    async def lease(self, table_id: str) -> bool:
        try:
            got = await self.client.eval(_RENEW, 1, f"{self.prefix}:lease:{table_id}", self.me,
                                         int(LEASE_SECONDS * 1000))
        except Exception:
            return False
        return bool(got)

    async def release(self, table_id: str) -> None:
        try:
            await self.client.eval(_RELEASE, 1, f"{self.prefix}:lease:{table_id}", self.me)
        except Exception:
            pass

    async def alive(self, processes: set[str]) -> set[str]:
        # each process's key lives three leases unless renewed (every third of a lease)
        others = sorted(processes)
        try:
            await self.client.set(f"{self.prefix}:process:{self.me}", 1,
                                  px=int(3 * LEASE_SECONDS * 1000))
            if not others:
                return set()
            found = await self.client.mget([f"{self.prefix}:process:{p}" for p in others])
        except Exception:
            return set(processes)  # (Redis away: nothing is known to have died)
        return {p for p, v in zip(others, found, strict=True) if v is not None}

    async def healthy(self) -> tuple[bool, str]:
        try:
            await self.client.ping()
        except Exception as e:
            return False, f"redis: {e}"
        return True, "redis: ok"


def make_news(url: str | None, what: str = "YACHT_REDIS") -> News:
    """Redis news for ``url`` (or ``$YACHT_REDIS``); one-process news without one. A URL
    that is not a Redis URL raises :class:`~yacht.parsing.InputError` (one line naming it
    ``what`` and the accepted forms) before anything connects."""
    from yacht.parsing import parse_redis_url

    url = url or os.environ.get("YACHT_REDIS") or None
    return RedisNews(parse_redis_url(url, what)) if url else LocalNews()
