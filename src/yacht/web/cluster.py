"""This process among the others of one site: what it tells them, what it takes up
from them, and which process drives a table's computer players.

The database is the one truth; :mod:`yacht.web.news` carries the news (Redis pub/sub
and a lease per table, or nothing with one process). When this process has saved an
action it tells the others, with the actions saved since its last message and the
position they lead to (the part of the snapshot every seat sees alike, made once here
for this process's own browsers too); a process that shows the table plays the actions
when they follow on from its copy (cheap: a tenth of a move's work) and forwards the
position to its browsers, each with its own seat's part made locally (nothing of any
seat's own travels between processes); else it reads the store. News that cannot be
sent (Redis away) is sent again a second later; while news cannot be heard, the tables
someone looks at are polled in one read of the store.

Who is at a table is the site's, not one process's: each process tells the others
which seats its browsers hold whenever that changes ("here"; a process that begins to
show a table asks), so a person playing through another process is neither shown as
gone nor open to a vote that hands their seat to the computer. A process that is
killed cannot say goodbye: each renews a key of its own in Redis, and the browsers of
a process whose key expired stop counting.

The hub (``hub.py``) is the :class:`Site` this works for.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from yacht.engine import Action, action_from_json, action_to_json
from yacht.session.table import Event, Table
from yacht.store import Store

from .live import LiveTable
from .news import LEASE_SECONDS, News
from .protocol import Reaction
from .tasks import Tasks

__all__ = ["NEWS_ACTIONS", "NEWS_KINDS", "Cluster", "Site"]

log = logging.getLogger("yacht.web")

T = TypeVar("T")

#: the events that change the stored game or its flow: the other processes are told
NEWS_KINDS = frozenset({"rolled", "chosen", "gave_back", "scored", "took_back", "went_on",
                        "reloaded"})

#: at most this many actions go with a piece of news (one further behind reads the store)
NEWS_ACTIONS = 16
#: a warning heard from another process is shown cut to this many characters
WARNING_CHARS = 500
#: what the browsers of a table that plays by itself are told when no process may drive
#: it (Redis away: no lease can be held)
NEWS_AWAY = ("The servers cannot reach one another just now (Redis): computer players, "
             "turn clocks and stand-ins wait until they can; people's moves go on")


class Site(Protocol):
    """What the cluster needs of the hub."""

    store: Store

    def find(self, table_id: str) -> LiveTable | None: ...
    def tables(self) -> list[LiveTable]: ...
    async def io_call(self, fn: Callable[..., T], *args: Any) -> T: ...
    async def move_call(self, fn: Callable[..., T], *args: Any) -> T: ...
    async def reload_row(self, live: LiveTable) -> None: ...
    def drive(self, live: LiveTable) -> None: ...
    def react_heard(self, live: LiveTable, body: dict[str, Any]) -> None: ...
    def warning_heard(self, live: LiveTable, text: str) -> None: ...
    def seen_elsewhere(self, live: LiveTable) -> None: ...
    async def stop_driving(self, live: LiveTable) -> None: ...


class Cluster:
    """News in and out for every table of this process, and the leases."""

    def __init__(self, news: News, site: Site, tasks: Tasks) -> None:
        self.news = news
        self.site = site
        self.tasks = tasks
        #: the tables whose browsers were told that no one drives them (Redis away), once
        #: an outage
        self.told_away: set[str] = set()

    @property
    def shared(self) -> bool:
        """Other processes share the site (the news is Redis)."""
        return self.news.shared

    async def start(self) -> None:
        """Listen to the other processes; keep the leases (with Redis)."""
        await self.news.start(self._on_news)
        if not self.shared:
            return
        self.news.on_back = self.catch_up_all  # type: ignore[attr-defined]
        self.tasks.spawn(self._keep_up(), "yacht-keep-up")

    async def close(self) -> None:
        await self.news.close()

    def busy(self) -> bool:
        """Some table is telling or taking up news (what a test waits out)."""
        return any(live.heard.catching_up or live.to_tell.sending
                   for live in self.site.tables())

    # --- following tables ------------------------------------------------------------
    async def follow(self, live: LiveTable) -> None:
        await self.news.follow(live.id)
        if self.shared:  # who is at the table through the others (they answer "here")
            live.to_tell.ask = True
            self._publish_soon(live)

    async def forget(self, live: LiveTable) -> None:
        await self.news.unfollow(live.id)
        self.told_away.discard(live.id)
        await self.news.release(live.id)

    def attached(self, live: LiveTable, table: Table) -> None:
        """A table's game is here: what it holds is known to the others."""
        live.to_tell.sent_upto = table.action_count

    # --- telling ----------------------------------------------------------------------
    def tell_event(self, live: LiveTable, event: Event) -> None:
        """An event of this process's table: the others hear of it (in order)."""
        if not self.shared or event.data.get("remote") or event.kind not in NEWS_KINDS:
            return
        tell = live.to_tell
        if event.kind == "went_on":
            tell.pause_left = str(event.data.get("pause"))
        elif event.kind in ("took_back", "reloaded"):
            tell.rewound = True
        tell.game = True
        self._publish_soon(live)

    def tell_reaction(self, live: LiveTable, message: Reaction) -> None:
        """A reaction at this process's table: the others show it to their browsers (it
        is not stored: news lost while Redis is away is not sent again)."""
        if self.shared:
            self.tasks.spawn(self.news.publish(live.id, {
                "kind": "reaction", "reaction": message["reaction"],
                "seats": message["seats"]}), "yacht-news-reaction")

    def tell_warning(self, live: LiveTable, text: str) -> None:
        """The table's driver here could not save its move (the database away): the
        others' browsers are told why the game stands still, as this process's are (not
        stored, not sent again)."""
        if self.shared:
            self.tasks.spawn(self.news.publish(live.id, {"kind": "warning", "text": text}),
                             "yacht-news-warning")

    def tell_here(self, live: LiveTable, again: bool = False) -> None:
        """The seats this process's browsers hold changed (``again``: say them anyway):
        the others count them as at the table (no seat is absent, nor handed to the
        computer, while its person plays through another process)."""
        if not self.shared or (live.held_here() == live.told_here and not again):
            return
        live.to_tell.here = True
        live.to_tell.here_again = live.to_tell.here_again or again
        self._publish_soon(live)

    def tell_lobby(self, live: LiveTable) -> None:
        """The seats or the start changed: the others read the row."""
        if not self.shared:
            return
        live.to_tell.lobby = True
        self._publish_soon(live)

    def _publish_soon(self, live: LiveTable) -> None:
        if not live.to_tell.sending:
            live.to_tell.sending = True
            self.tasks.spawn(self._publish(live), "yacht-news-out")

    async def _publish(self, live: LiveTable) -> None:
        """Tell the others what changed, one message at a time: the lobby first, then the
        game, with the actions saved since the last message. What could not be sent is
        sent again a second later, with whatever happened meanwhile."""
        tell = live.to_tell
        message: dict[str, Any]
        try:
            await asyncio.sleep(0)  # (the events of one change go out in one message)
            while tell.due and self.site.find(live.id) is live:
                if tell.ask or tell.here:  # (sent as they are now: the newest counts)
                    ask, seats = tell.ask, live.held_here()
                    again, tell.ask, tell.here = tell.here_again, False, False
                    tell.here_again = False
                    if not ask and not again and seats == live.told_here:
                        continue  # (a browser came and went meanwhile: nothing new)
                    message = {"kind": "here", "seats": sorted(seats)}
                    if ask:
                        message["ask"] = True
                    if await self.news.publish(live.id, message):
                        live.told_here = seats
                    else:
                        tell.here, tell.ask = True, tell.ask or ask
                        tell.here_again = tell.here_again or again
                        await asyncio.sleep(1.0)
                    continue
                if tell.lobby:
                    tell.lobby = False
                    if not await self.news.publish(live.id, {"kind": "lobby"}):
                        tell.lobby = True
                        await asyncio.sleep(1.0)
                    continue
                tell.game = False
                pause, rewound, sent_upto = tell.pause_left, tell.rewound, tell.sent_upto
                tell.pause_left, tell.rewound = None, False
                message = {"kind": "changed"}
                if pause is not None:
                    message["pause"] = pause
                table = live.table
                if table is not None:
                    # the actions and the position they lead to, of one moment (the
                    # position is made once here: this process's own snapshots share it),
                    # so that the others need not work it out again
                    actions, position = (table.actions_since(0), None) if rewound \
                        else table.position()
                    start = max(0, min(sent_upto, len(actions)), len(actions) - NEWS_ACTIONS)
                    if position is not None and start < len(actions):
                        message["start"] = start
                        message["actions"] = [action_to_json(a) for a in actions[start:]]
                        message["upto"], message["position"] = len(actions), position
                    tell.sent_upto = len(actions)
                    if len(message) == 1 and not rewound:
                        continue  # (what this change did went out with the last message)
                if not await self.news.publish(live.id, message):
                    tell.game = True
                    tell.rewound = tell.rewound or rewound
                    tell.pause_left = tell.pause_left or pause
                    tell.sent_upto = min(tell.sent_upto, sent_upto)
                    await asyncio.sleep(1.0)
        finally:
            tell.sending = False

    # --- hearing ----------------------------------------------------------------------
    async def _on_news(self, table_id: str, body: dict[str, Any]) -> None:
        live = self.site.find(table_id)
        if live is None:
            return
        kind = body.get("kind")
        if kind == "lobby":
            self.hear(live, lobby=True)
        elif kind == "reaction":
            self.site.react_heard(live, body)
        elif kind == "warning":
            text = body.get("text")
            if isinstance(text, str) and text:
                self.site.warning_heard(live, text[:WARNING_CHARS])
        elif kind == "here":
            self._heard_here(live, body)
        elif kind in ("changed", "went_on"):
            pause = body.get("pause")
            actions = _news_actions(body)
            self.hear(live, pause=pause if isinstance(pause, str) else None,
                      actions=actions,
                      position=_news_position(body) if actions is not None else None)

    def _heard_here(self, live: LiveTable, body: dict[str, Any]) -> None:
        """Another process says which seats its browsers hold (and may ask ours)."""
        sender, seats = body.get("from"), body.get("seats")
        if not isinstance(sender, str) or not isinstance(seats, list):
            return
        held = frozenset(i for i in seats if isinstance(i, int) and not isinstance(i, bool)
                         and 0 <= i < len(live.row.seats))
        if held:
            live.elsewhere[sender] = held
        else:
            live.elsewhere.pop(sender, None)
        self.site.seen_elsewhere(live)
        if body.get("ask") is True and live.held_here():
            self.tell_here(live, again=True)

    async def forget_the_gone(self) -> None:
        """The browsers of processes that stopped (killed: they could not say goodbye)
        no longer count as at the tables; this process says it still runs."""
        seen = [live for live in self.site.tables() if live.elsewhere]
        known = {p for live in seen for p in live.elsewhere}
        alive = await self.news.alive(known)
        for live in seen:
            # (a process first heard of during the look-up was not asked about)
            gone = [p for p in live.elsewhere if p in known and p not in alive]
            for p in gone:
                del live.elsewhere[p]
            if gone:
                self.site.seen_elsewhere(live)

    def hear(self, live: LiveTable, *, lobby: bool = False, pause: str | None = None,
             actions: tuple[int, list[Action]] | None = None,
             position: tuple[int, dict[str, Any]] | None = None) -> None:
        """Note news of another process (or a reason to look at the store): one catch-up
        per table takes it up, however much comes while it works. The listener never
        waits for the store, and no news is lost while a table is being loaded. News
        that carries its actions is played without reading the store when it follows
        on from what this process has; the position they lead to (``position``, the
        part of the snapshot every seat sees alike) is taken as the mover made it, and
        each browser's own snapshot is made here from it."""
        heard = live.heard
        if lobby:
            heard.lobby = True
        else:
            heard.game = True
            if actions is None:
                heard.actions = None  # the store is read
                heard.position = None
            elif heard.actions is not None:
                heard.actions.append(actions)
                heard.position = position
            if pause is not None:
                heard.pauses.append(pause)
        if not heard.catching_up:
            heard.catching_up = True
            self.tasks.spawn(self._catch_up(live), "yacht-news-in")

    async def _catch_up(self, live: LiveTable) -> None:
        try:
            while live.heard.due:
                got = live.heard.take()
                async with live.loading:
                    table = live.table
                    if got.lobby or table is None:
                        # the row (seats, the game started): a game not shown yet is
                        # resumed as stored, with everything the news said
                        await self.site.reload_row(live)
                    if got.game and table is not None:
                        if got.actions:
                            await table.take_up_async(got.actions, got.position,
                                                      offload=self.site.move_call)
                        else:
                            await self.site.move_call(table.sync)
                    table = live.table
                    if table is not None:
                        live.to_tell.sent_upto = max(live.to_tell.sent_upto,
                                                     table.action_count)
                        for pause in got.pauses:
                            await self.site.move_call(table.remote_go_on, pause)
        except Exception:
            log.exception("table %s: taking up news", live.id)
        finally:
            live.heard.catching_up = False

    async def catch_up_all(self) -> None:
        """News is heard again: every table shown here takes up what it missed."""
        for live in self.site.tables():
            self.hear(live, lobby=live.table is None)

    async def poll(self) -> None:
        """No news is heard (Redis away): the tables someone looks at here take up what
        the store has. One read for every game; only the games that went on are read."""
        shown = [live for live in self.site.tables() if live.connections]
        games = {live.table.game_id: live for live in shown
                 if live.table is not None and live.table.game_id is not None}
        stored = await self.site.io_call(self.site.store.progress_many, list(games))
        for game_id, live in games.items():
            table = live.table
            if table is not None and stored.get(game_id, -1) != table.action_count:
                self.hear(live)
        for live in shown:
            if live.table is None:
                self.hear(live, lobby=True)

    # --- who drives the computer players ----------------------------------------------
    async def _keep_up(self) -> None:
        """Renew the leases, start or stop the drivers they decide, and look at the store
        now and then while news may be lost (Redis away)."""
        tick = LEASE_SECONDS / 3
        while True:
            try:
                await self.forget_the_gone()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the other processes' browsers")
            # (only the tables that play by themselves hold a lease: the walk over the
            # others is one cheap test each, with no coroutine made for them)
            for live in [live for live in self.site.tables()
                         if live.playing and live.needs_driver]:
                try:
                    await self.lease(live)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %s: keeping up", live.id)
            if not getattr(self.news, "ok", True):
                try:
                    await self.poll()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("polling the store")
            await asyncio.sleep(tick)

    async def lease(self, live: LiveTable) -> None:
        """Drive the table's computer players (its clock, its stand-ins) while this
        process holds its lease."""
        table = live.table
        if table is None or not live.playing or not live.needs_driver:
            return
        held = await self.news.lease(live.id)
        if held and live.driver is None:
            await self.site.io_call(table.sync)  # whatever the last driver did
            self.site.drive(live)
        elif not held and live.driver is not None:
            await self.site.stop_driving(live)
        if held or getattr(self.news, "ok", True):
            self.told_away.discard(live.id)
        elif live.id not in self.told_away and live.connections:
            # (no process drives the table: its computers stood still with no word why;
            # a table no browser shows is told when one comes, at the next renewal)
            self.told_away.add(live.id)
            self.site.warning_heard(live, NEWS_AWAY)


def _news_position(body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
    """The position a piece of news says its actions lead to (None: none or not
    readable; the snapshots work it out here then)."""
    upto, position = body.get("upto"), body.get("position")
    if not isinstance(upto, int) or isinstance(upto, bool) or not isinstance(position, dict):
        return None
    return upto, position


def _news_actions(body: dict[str, Any]) -> tuple[int, list[Action]] | None:
    """The actions a piece of news carries (None: none, or not readable: the store is
    read instead)."""
    start, raw = body.get("start"), body.get("actions")
    if not isinstance(start, int) or isinstance(start, bool) or start < 0 \
            or not isinstance(raw, list) or not raw:
        return None
    try:
        return start, [action_from_json(a) for a in raw]
    except (ValueError, TypeError):
        return None

