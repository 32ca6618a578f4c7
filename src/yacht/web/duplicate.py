"""Duplicate tables: the same dice for everyone, all playing at once.

A duplicate table is a *group* of ordinary one-seat online tables ("cards"), made
together on one secret seed (:class:`~yacht.store.core.GroupRow`). Each card is a
normal table of its own: its game is stored, resumed after a restart and shared by
the processes of a site like any other, and since the dice of a seed are drawn by
turn, roll and die position (:mod:`yacht.engine.dice`), the same choices meet the
same dice on every card. What is new here:

- **Cards are private.** Once its game has started, a card answers only its own seat's
  token: no watcher on its socket, not in the list of tables, not by
  ``GET /api/tables/ID`` (a watcher would see its dice ahead of the other players). A
  browser that came to the card's lobby without the seat is shut out when the game
  starts (``Fanout``, told by :meth:`Duplicates.private`), on every process.
- **The field.** What player *i* sees of the others: each card up to the turns *i* has
  finished (its boxes and total after that many turns), never a die or a box of a turn
  *i* has not finished; a watcher sees every card up to the slowest player's finished
  turn (a seat still open counts as none). It is pushed (a ``field`` message) to every
  card's browsers whenever a card's turn is scored, here or on another process (whose
  news this process hears for every card of a group it shows).
- **No take-back.** A box scored on a card stands: the others' boxes of that turn are
  shown to its player at once.
- **The end.** Once every card is full: the ranking, the expert's actual total on the
  same seed (:func:`yacht.session.daily.expert_total`), each card's points per turn
  against the mean of the others', and the best of each turn.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from yacht.engine import IllegalAction, Record, RecordError, State, TurnSummary
from yacht.engine.dice import SEED_BYTES
from yacht.engine.records import take_turns
from yacht.rules import Ruleset
from yacht.session.duplicate import SameDice, compare, same_dice
from yacht.store import StoreError
from yacht.store.core import GroupRow, SeatRow, TableRow

from .errors import WebError
from .live import Connection, LiveTable, Phase
from .lobby import check_unlike, clean_name, hash_token, new_token
from .protocol import (
    FieldCard,
    FieldEnd,
    FieldMessage,
    FieldPlace,
    FieldTurn,
    PersonSeat,
    SameDiceView,
    TableRequest,
)

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Duplicates", "daily_of_row", "group_of", "is_card", "is_private_daily"]

log = logging.getLogger("yacht.web")

#: analyses' same dice kept in memory (by game id)
SAME_KEPT = 256
#: the events of a card after which the field has changed for the others (and a friend's
#: seat taken: ``joined``, told by the hub)
FIELD_EVENTS = frozenset({"scored", "took_back", "finished", "reloaded", "joined"})


def group_of(row: TableRow) -> str | None:
    """The duplicate table a table is a card of (None: an ordinary table)."""
    group = row.settings.get("group")
    return group if isinstance(group, str) else None


def is_card(row: TableRow) -> bool:
    return group_of(row) is not None


def daily_of_row(row: TableRow) -> str | None:
    """The day of the daily challenge a table plays (None: not a daily challenge's)."""
    day = row.settings.get("daily")
    return day if isinstance(day, str) else None


def is_private_daily(row: TableRow) -> bool:
    """A daily challenge's table before its day is over: everyone's dice of the day, so
    its player's alone (like a started card)."""
    from yacht.engine.dice import seed_kept
    from yacht.session.daily import today

    return seed_kept(daily_of_row(row), today())


@dataclass
class _Card:
    """A card's scorings, read on only after an event that changes them (a roll does
    not): its turns, and the same as the field shows them; the replay they were read
    with, and how many of the game's actions it has played."""

    table: object  # (the game they are of: a card loaded again has a new one)
    turns: list[TurnSummary]
    shown: list[FieldTurn]
    replay: State | None = None
    read: int = 0
    stale: bool = False  # its card scored since: the actions since ``read`` are read


@dataclass
class _Shared:
    """What every viewer's field is cut from, worked out once per change of the group
    (one score is pushed to every browser of the group: each gets its own cut)."""

    group: GroupRow
    rs: Ruleset
    length: int
    cards: list[FieldCard]  # every turn done, as a player who finished the game sees it
    done: list[int]
    open: list[bool]
    over: bool
    end: FieldEnd | None
    next: list[tuple[str, str] | None]  # per card: the next table's group and card


class Duplicates:
    """The duplicate tables of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.groups: dict[str, GroupRow] = {}
        self._cards: dict[str, _Card] = {}  # card id -> its scorings (stale: not there)
        self._pushing: dict[str, bool] = {}  # group -> a card scored while pushing
        self._same: dict[str, SameDiceView | None] = {}  # game id -> its same dice
        #: the sockets watching a group's field (``/ws/d/GROUP``), pushed as the cards are
        self.watchers: dict[str, set[Connection]] = {}
        # group -> (making its next table, how many ask now)
        self._again: dict[str, tuple[asyncio.Lock, int]] = {}

    # --- making one -------------------------------------------------------------------
    async def create(self, req: TableRequest, rs: Ruleset) -> tuple[LiveTable, str]:
        """A new duplicate table for ``req``: a card per seat, the computers' and this
        browser's games started at once on the group's seed; the card of the person here
        and this browser's token."""
        if not 2 <= len(req.seats) <= rs.max_players:
            raise WebError(f"a duplicate table takes 2-{rs.max_players} players (alone, "
                           "play your own dice)")
        here = [i for i, s in enumerate(req.seats) if isinstance(s, PersonSeat) and s.here]
        if len(here) != 1:
            raise WebError("a duplicate table has one player here (everyone plays at once "
                           "on a screen of their own): the others are friends who join by "
                           "the link, or computers")
        token = new_token()
        mine = hash_token(token)
        seats = self.hub.lobby.seat_rows(req, mine)
        lives = await self._make(rs, req.speed, mine, seats, [{} for _ in seats])
        return lives[here[0]], token

    async def _make(self, rs: Ruleset, speed: str, host: str, seats: list[SeatRow],
                    more: list[dict[str, Any]]) -> list[LiveTable]:
        """A new group on a new seed: a card per seat (``more``: each card's settings
        besides its group's), each started once its person is ready."""
        hub = self.hub
        store = hub.store
        group_id = secrets.token_hex(6)
        seed = hub.seeds() if hub.seeds is not None else secrets.token_bytes(SEED_BYTES)
        try:
            rows = [await hub.io_call(partial(
                store.create_table, rs.id, dict(rs.option_values), speed, [seat],
                host=host, settings={"group": group_id, "card": i, "reactions": False,
                                     **more[i]}))
                for i, seat in enumerate(seats)]
            group = await hub.io_call(store.create_group, group_id, rs.id,
                                      dict(rs.option_values), seed, [r.id for r in rows])
        except StoreError as e:
            raise hub.public(e) from None
        self.groups[group_id] = group
        lives = []
        for row in rows:
            live = LiveTable(row.id, row, rs)
            hub.live[row.id] = live
            await hub.cluster.follow(live)
            async with live.lock:
                await hub._start_if_ready(live)
            lives.append(live)
        return lives

    # --- playing again ----------------------------------------------------------------
    async def again(self, live: LiveTable, conn: Connection) -> None:
        """Play again after a card's game: a new duplicate table with the same seats,
        computer levels, variant, options and pace, on a new seed, made by the first
        player of the group who asks (the others who ask are sent to the same one). Each
        person of the group has a card there held by the same browser, theirs to accept
        (this player's is accepted) or leave; a friend's seat no one took is open again.
        Every browser of the group hears of it in its field (``next``)."""
        mine = conn.token_hash
        if mine is None or not conn.seats:
            raise WebError("only a player at the table can play again", "not_your_turn")
        table = live.table
        if live.phase is not Phase.OVER or table is None or not table.view().finished:
            raise WebError("your game is not over yet", "not_finished")
        group_id = group_of(live.row)
        assert group_id is not None
        lock, asking = self._again.get(group_id, (asyncio.Lock(), 0))
        self._again[group_id] = (lock, asking + 1)
        try:
            async with lock:
                lives = await self.cards(await self.group(group_id))
                for other in lives:  # (another process may have made it: the rows say)
                    async with other.loading:
                        await self.hub.reload_row(other)
                made = _next_of(live.row)
                if made is None:
                    await self._again_made(lives, mine)
                else:  # made already: this player accepts theirs
                    await self._accept(made[1], mine)
        finally:  # the group's lock goes with its last asker (groups come and go)
            lock, asking = self._again[group_id]
            if asking == 1:
                del self._again[group_id]
            else:
                self._again[group_id] = (lock, asking - 1)
        self.event(live, "joined")  # every browser of the group: the next table

    async def _again_made(self, lives: list[LiveTable], mine: str) -> None:
        shared = await self._shared(group_of(lives[0].row) or "")
        winners = [p["name"] for p in shared.end["ranking"] if p["place"] == 1] \
            if shared.end is not None else []
        seats: list[SeatRow] = []
        more: list[dict[str, Any]] = []
        for live in lives:
            seat = live.row.seats[0] if live.row.seats else SeatRow(None)
            if seat.kind == "person" and seat.token is not None:
                seats.append(SeatRow(seat.name, "person", None, seat.token,
                                     ready=seat.token == mine))
                done = [*(live.row.settings.get("series") or []),
                        {"game": live.row.game_id, "winners": winners}]
                more.append({"series": done})
            elif seat.kind == "person":  # a friend's seat no one took: open again
                seats.append(SeatRow(seat.name, "person"))
                more.append({})
            else:
                seats.append(SeatRow(seat.name, seat.kind, seat.level))
                more.append({})
        first = lives[0]
        made = await self._make(first.ruleset, first.row.speed, mine, seats, more)
        new_group = group_of(made[0].row)
        for live, card in zip(lives, made, strict=True):
            await self._tell_next(live, {"group": new_group, "card": card.id})

    async def _tell_next(self, live: LiveTable, found: dict[str, Any]) -> None:
        """Keep the next table in the card's row (every process's browsers hear of it)."""
        hub = self.hub
        async with live.lock:
            for _ in range(3):
                row = live.row
                try:
                    live.take_row(await hub.io_call(partial(
                        hub.store.update_table, row.id, row.version,
                        settings={**row.settings, "next": found})))
                    break
                except StoreError:  # (changed meanwhile: read again)
                    live.take_row(await hub.io_call(hub.store.load_table, row.id))
            hub.cluster.tell_lobby(live)

    async def _accept(self, card_id: str, mine: str) -> None:
        """This browser's card at the next table: accepted (its game starts)."""
        hub = self.hub
        card = await hub.get(card_id)
        async with card.lock:
            row = card.row
            if not any(s.token == mine and not s.ready for s in row.seats):
                return
            seats = [replace(s, ready=True) if s.token == mine else s for s in row.seats]
            try:
                card.take_row(await hub.io_call(partial(
                    hub.store.update_table, row.id, row.version, seats=seats)))
            except StoreError as e:
                raise WebError(f"{e}", "conflict") from None
            hub.fanout.reseat(card)
            hub.cluster.tell_lobby(card)
            await hub._start_if_ready(card)
        hub.fanout.changed(card)

    @staticmethod
    def left(row: TableRow, mine: str) -> list[SeatRow]:
        """A card's seats once its person leaves its next game: the seat is open (a
        friend may take it; no one: it is left out of the comparison)."""
        return [SeatRow(s.name, "person") if s.token == mine else s for s in row.seats]

    async def group(self, group_id: str) -> GroupRow:
        found = self.groups.get(group_id)
        if found is None:
            try:
                found = await self.hub.io_call(self.hub.store.load_group, group_id)
            except StoreError as e:
                raise WebError(str(self.hub.public(e)), "not_found") from None
            self.groups[group_id] = found
        return found

    async def seed_of(self, row: TableRow) -> tuple[bytes, dict[str, Any]] | None:
        """A card's game starts on its group's seed (None: not a card)."""
        group_id = group_of(row)
        if group_id is None:
            return None
        group = await self.group(group_id)
        return group.seed, {"duplicate": group_id, "card": row.settings.get("card")}

    # --- what a card refuses ---------------------------------------------------------
    @staticmethod
    def private(live: LiveTable) -> str | None:
        """Why a table shows itself only to its own seats' browsers: a card whose game has
        started (None: any other table, or a card still in its lobby). The hello, the
        states (``Fanout``: a browser without the seat is shut out the moment its card
        starts) and ``GET /api/tables/ID`` all ask this. A daily challenge's table is
        private too until its day is over: every player of the day gets the same dice."""
        if is_private_daily(live.row):
            return ("this is a player's own game of the daily challenge: its dice are "
                    "everyone's of the day, so it cannot be watched before the day is over")
        if not is_card(live.row) or (live.row.game_id is None and live.table is None):
            return None
        return ("this is a player's own card of a duplicate table: watch the field at "
                f"/d/{group_of(live.row)}")

    @classmethod
    def check_watch(cls, live: LiveTable, token: str | None) -> None:
        """A started card shows itself only to its own seat's token."""
        why = cls.private(live)
        if why is not None and (token is None or not live.seats_of(hash_token(token))):
            raise WebError(why, "private")

    @staticmethod
    def check_command(live: LiveTable, command: Any) -> None:
        from .protocol import TakeBackCommand

        if is_card(live.row) and isinstance(command, TakeBackCommand):
            raise WebError("no take-back at a duplicate table: the others see your box as "
                           "soon as it is scored", "illegal")

    async def check_join(self, live: LiveTable, name: str | None = None) -> None:
        """A friend's seat may be taken until the others have all finished (the field
        is open to everyone then), under a name the others can tell from the names of
        the group's other cards (``lobby.check_unlike``: each card is a table of one)."""
        group_id = group_of(live.row)
        if group_id is None:
            return
        message = await self.field(group_id, None)
        if message["end"] is not None:
            raise WebError("this duplicate game is over: the others have finished",
                           "conflict")
        if name is not None:
            group = await self.group(group_id)
            check_unlike(clean_name(name), (
                c["name"] for c, card_id in zip(message["cards"], group.cards, strict=True)
                if c["name"] is not None and card_id != live.id))

    # --- the field --------------------------------------------------------------------
    async def cards(self, group: GroupRow) -> list[LiveTable]:
        """The group's cards, loaded here (and their news heard) if they were not."""
        out = []
        for card_id in group.cards:
            live = self.hub.live.get(card_id)
            if live is None:
                live = await self.hub.get(card_id)
            out.append(live)
        return out

    def _card(self, live: LiveTable) -> _Card:
        """A card's scorings: kept until an event of the card changes them (``event``),
        then read on from the game's actions since (not from a copy of its whole state,
        nor from its start: a field is made at every score of any card of the group, on
        the event loop)."""
        table = live.table
        known = self._cards.get(live.id)
        if table is None:
            return _Card(None, [], [])
        if known is not None and known.table is table:
            if not known.stale:
                return known
            if known.replay is not None:
                since = table.actions_since(known.read)
                try:
                    take_turns(known.replay, since, known.turns)
                except (IllegalAction, AssertionError):
                    pass  # (not the game it was: read again from the start, below)
                else:
                    known.read += len(since)
                    known.shown = [_turn(t) for t in known.turns]
                    known.stale = False
                    return known
        if len(self._cards) > 2 * len(self.hub.live) + 64:  # (cards unloaded meanwhile)
            self._cards = {k: v for k, v in self._cards.items() if k in self.hub.live}
        rs = live.ruleset
        actions = table.actions_since(0)
        record = Record(rs.id, dict(rs.option_values), list(table.players), actions)
        replay = record.new_state()
        turns: list[TurnSummary] = []
        take_turns(replay, actions, turns)
        found = _Card(table, turns, [_turn(t) for t in turns], replay, len(actions))
        self._cards[live.id] = found
        return found

    async def _shared(self, group_id: str) -> _Shared:
        """The group's field before it is cut for a viewer."""
        group = await self.group(group_id)
        lives = await self.cards(group)
        rs = lives[0].ruleset
        length = _length(rs)
        found = [self._card(live) for live in lives]
        open_ = [live.row.game_id is None for live in lives]
        done = [len(c.turns) for c in found]
        over = all(d >= length for d, o in zip(done, open_, strict=True) if not o) \
            and not all(open_)
        cards: list[FieldCard] = []
        for i, (live, card) in enumerate(zip(lives, found, strict=True)):
            seat = live.row.seats[0]
            cards.append({
                "card": i, "name": seat.name,
                "kind": "computer" if seat.kind == "computer" else "person",
                "level": seat.level, "open": open_[i], "mine": False,
                "done": done[i], "shown": done[i],
                "total": card.turns[-1].totals[0] if card.turns else 0,
                "turns": card.shown})
        end = await self._end(group, cards, [c.turns for c in found]) if over else None
        return _Shared(group, rs, length, cards, done, open_, over, end,
                       [_next_of(live.row) for live in lives])

    @staticmethod
    def _cut(shared: _Shared, viewer: int | None) -> FieldMessage:
        """The field as card ``viewer`` (None: a watcher) may see it: every card up to
        the turns the viewer has finished (a watcher: the slowest player's)."""
        if shared.over:
            upto = shared.length
        elif viewer is None:
            upto = min(shared.done)
        else:
            upto = shared.done[viewer]
        cards: list[FieldCard] = []
        for c, card_id in zip(shared.cards, shared.group.cards, strict=True):
            shown = c["turns"][:upto]
            cut: FieldCard = {**c, "mine": c["card"] == viewer, "shown": len(shown),
                              "total": shown[-1]["total"] if shown else 0, "turns": shown}
            if viewer is None:  # (a watcher: the links of the seats still open)
                cut["url"] = f"/t/{card_id}" if c["open"] else None
            cards.append(cut)
        group = shared.group
        if viewer is None:  # a watcher: the next table's field
            made = next((n for n in shared.next if n is not None), None)
            after = f"/d/{made[0]}" if made is not None else None
        else:  # a player: their own card at the next table, once their game is over
            mine = shared.next[viewer] if shared.done[viewer] >= shared.length else None
            after = f"/t/{mine[1]}" if mine is not None else None
        return {"type": "field", "group": group.id, "variant": shared.rs.id,
                "name": shared.rs.name, "commitment": group.commitment,
                "length": shared.length, "me": viewer, "upto": upto, "cards": cards,
                "end": shared.end, "next": after}

    async def field(self, group_id: str, viewer: int | None) -> FieldMessage:
        """The field as card ``viewer`` (None: a watcher) may see it now."""
        return self._cut(await self._shared(group_id), viewer)

    async def _end(self, group: GroupRow, cards: list[FieldCard],
                   scorings: list[list[TurnSummary]]) -> FieldEnd:
        """Every card full: the cards compared (``yacht.session.duplicate``), by card."""
        played = [c["card"] for c in cards if not c["open"]]
        st = compare([cards[i]["name"] or f"Player {i + 1}" for i in played],
                     [[t.points for t in scorings[i]] for i in played],
                     [cards[i]["total"] for i in played], expert=await self.expert(group))
        ranking: list[FieldPlace] = [{"card": played[p.card], "name": p.name,
                                      "total": p.total, "place": p.place} for p in st.ranking]
        against: list[list[float]] = [[] for _ in cards]
        for i, row in zip(played, st.against, strict=True):
            against[i] = row
        return {"ranking": ranking, "expert": st.expert, "against": against,
                "best": [[played[i] for i in b] for b in st.best]}

    async def expert(self, group: GroupRow) -> int | None:
        """The expert's actual total on the group's dice (worked out once, kept)."""
        if group.expert is not None:
            return group.expert
        from yacht.rules import get
        from yacht.session.daily import expert_total

        try:
            total = await self.hub.think_call(
                expert_total, get(group.variant, group.options), group.seed)
            await self.hub.io_call(self.hub.store.set_group_expert, group.id, total)
        except Exception:  # (the end is shown without it)
            log.exception("duplicate table %s: the expert's total", group.id)
            return None
        self.groups[group.id] = replace(group, expert=total)
        return total

    # --- the analysis of a card's game ---------------------------------------------------
    async def same_dice(self, game_id: str) -> SameDiceView | None:
        """The games of the duplicate table that ``game_id`` was played at, compared as
        the end of the field shows them (None: not a card's game, or a game of its table
        is not full yet). Kept once known (finished games do not change)."""
        if game_id in self._same:
            return self._same[game_id]
        hub = self.hub
        try:
            record = await hub.io_call(hub.store.load_record, game_id)
            group_id = record.meta.get("duplicate")
            if not isinstance(group_id, str):
                found = None
            else:
                found = await hub.io_call(partial(same_dice, hub.store, group_id,
                                                  expert=False))
                if found is not None and found.expert is None:
                    found = replace(found, expert=await self.expert(
                        await self.group(group_id)))
        except (StoreError, RecordError) as e:
            log.warning("game %s: the same dice: %s", game_id, e)
            return None
        if group_id is not None and found is None:
            return None  # (a game of its table goes on: asked again later)
        view = None if found is None else _same_view(found, game_id)
        if view is not None and view["end"]["expert"] is None:
            return view  # (the expert's total failed this time: worked out again next)
        if len(self._same) >= SAME_KEPT:
            self._same.pop(next(iter(self._same)))
        self._same[game_id] = view
        return view

    # --- pushing it -------------------------------------------------------------------
    def event(self, live: LiveTable, kind: str, greeted: Connection | None = None) -> None:
        """A card's event: when the field changed, every card's browsers hear of it
        (``greeted``, sent the field just now, is left out of a push this starts)."""
        group_id = group_of(live.row)
        if group_id is None or kind not in FIELD_EVENTS:
            return
        known = self._cards.get(live.id)
        if kind == "scored" and known is not None:
            known.stale = True  # its scorings are read on from where they were
        else:
            self._cards.pop(live.id, None)  # ... or again from the start
        if group_id in self._pushing:  # one pusher per group: it goes round once more
            self._pushing[group_id] = True
            return
        self._pushing[group_id] = False
        self.hub.tasks.spawn(self._push_all(group_id, greeted), "yacht-field")

    async def _push_all(self, group_id: str, greeted: Connection | None = None) -> None:
        """Push until no card scored meanwhile (so the newest field is sent last);
        ``greeted`` is left out of the first round (a round more: the field changed)."""
        try:
            again = True
            while again:
                self._pushing[group_id] = False
                await self.push(group_id, greeted)
                greeted = None
                again = self._pushing[group_id]
        finally:
            del self._pushing[group_id]

    async def push(self, group_id: str, greeted: Connection | None = None) -> None:
        try:
            shared = await self._shared(group_id)
            lives = await self.cards(shared.group)
            if shared.end is not None:
                self._show_seeds(lives)
            by_viewer: dict[int | None, FieldMessage] = {}
            for i, live in enumerate(lives):
                for conn in list(live.connections):
                    if conn is greeted:
                        continue
                    viewer = i if conn.seats else None
                    if viewer not in by_viewer:
                        by_viewer[viewer] = self._cut(shared, viewer)
                    conn.send(by_viewer[viewer])
            watchers = self.watchers.get(group_id)
            if watchers:
                if None not in by_viewer:
                    by_viewer[None] = self._cut(shared, None)
                for conn in list(watchers):
                    conn.send(by_viewer[None])
        except WebError as e:
            log.warning("duplicate table %s: %s", group_id, e)

    # --- the seed: every card's, secret until the field's end -----------------------------
    async def show_seed(self, live: LiveTable) -> None:
        """A card loaded: its seed is shown once its game is finished if the field's end
        is there (every card taken is full; till then the seed would tell a player still
        playing every die to come: ``hub._attach`` withholds it)."""
        group_id = group_of(live.row)
        if group_id is None:
            return
        try:
            shared = await self._shared(group_id)
        except WebError as e:
            log.warning("duplicate table %s: %s", group_id, e)
            return
        if shared.end is not None:
            self._show_seeds([live])

    def _show_seeds(self, lives: list[LiveTable]) -> None:
        for live in lives:
            table = live.table
            if table is not None and table.withhold_seed(False):
                self.hub.fanout.changed(live)

    async def seed_shown(self, group_id: str) -> bool:
        """Whether a card's seed may be shown (``GET /api/games/ID/verify``): the field's
        end is there."""
        return (await self._shared(group_id)).end is not None

    async def greet(self, live: LiveTable, conn: Connection) -> None:
        """A browser came to a card: its field, at once."""
        group_id = group_of(live.row)
        if group_id is None:
            return
        try:
            index = live.row.settings.get("card")
            conn.send(await self.field(group_id, index if conn.seats and isinstance(
                index, int) else None))
        except WebError as e:
            log.warning("duplicate table %s: %s", group_id, e)

    def busy(self, live: LiveTable) -> bool:
        """A card is kept loaded while a browser is at any card of its group, or watches
        its field (its computer plays on; its news is heard)."""
        group_id = group_of(live.row)
        if group_id is None:
            return False
        group = self.groups.get(group_id)
        return group is not None and (bool(self.watchers.get(group_id)) or any(
            (other := self.hub.live.get(c)) is not None and other.connections
            for c in group.cards))

    # --- watchers of the field (/ws/d/GROUP) --------------------------------------------
    def watch(self, group_id: str, conn: Connection) -> None:
        """A watcher's socket: sent the field now (its cards are loaded here, so their
        news is heard) and whenever it changes."""
        self.watchers.setdefault(group_id, set()).add(conn)
        self.hub.tasks.spawn(self._greet_watcher(group_id, conn), "yacht-field")

    def unwatch(self, group_id: str, conn: Connection) -> None:
        watchers = self.watchers.get(group_id)
        if watchers is not None:
            watchers.discard(conn)
            if not watchers:
                del self.watchers[group_id]

    async def _greet_watcher(self, group_id: str, conn: Connection) -> None:
        try:
            conn.send(await self.field(group_id, None))
        except WebError as e:
            log.warning("duplicate table %s: %s", group_id, e)


def _same_view(found: SameDice, game_id: str) -> SameDiceView:
    """What the analysis of one game of a duplicate table shows of the others (the
    field's end, every turn shown; the cards numbered among the games played)."""
    me = found.games.index(game_id)
    totals = {p.card: p.total for p in found.ranking}
    cards: list[FieldCard] = []
    for i, (name, turns) in enumerate(zip(found.names, found.turns, strict=True)):
        player = found.players[i]
        cards.append({"card": i, "name": name,
                      "kind": "computer" if player.kind == "computer" else "person",
                      "level": player.level if player.kind == "computer" else None,
                      "open": False, "mine": i == me, "done": len(turns),
                      "shown": len(turns), "total": totals[i],
                      "turns": [_turn(t) for t in turns]})
    end: FieldEnd = {"ranking": [{"card": p.card, "name": p.name, "total": p.total,
                                  "place": p.place} for p in found.ranking],
                     "expert": found.expert, "against": found.against, "best": found.best}
    return {"me": me, "length": max((len(t) for t in found.turns), default=0),
            "cards": cards, "end": end}


def _next_of(row: TableRow) -> tuple[str, str] | None:
    """The next table of a card's group, once someone asked to play again: (group, the
    card of the same seat there)."""
    found = row.settings.get("next")
    if isinstance(found, dict) and isinstance(found.get("group"), str) \
            and isinstance(found.get("card"), str):
        return found["group"], found["card"]
    return None


def _length(rs: Ruleset) -> int:
    """A full card's turns: one per box of every column."""
    return len(rs.categories) * len(rs.columns)


def _turn(t: TurnSummary) -> FieldTurn:
    return {"turn": t.number, "category": t.category, "column": t.column,
            "points": t.points, "total": t.totals[0]}
