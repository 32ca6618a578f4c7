"""Duplicate tables: the same dice for everyone, all playing at once.

A duplicate table is a *group* of ordinary one-seat online tables ("cards"), made
together on one secret seed (:class:`~yacht.store.core.GroupRow`). Each card is a
normal table of its own: its game is stored, resumed after a restart and shared by
the processes of a site like any other, and since the dice of a seed are drawn by
turn, roll and die position (:mod:`yacht.engine.dice`), the same choices meet the
same dice on every card. What is new here:

- **Cards are private.** Once its game has started, a card answers only its own seat's
  token: no watcher on its socket, not in the list of tables, not by
  ``GET /api/tables/ID`` (a watcher would see its dice ahead of the other players).
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

import logging
import secrets
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from yacht.engine import Record, TurnSummary
from yacht.engine.dice import SEED_BYTES
from yacht.rules import Ruleset
from yacht.session.duplicate import compare
from yacht.store import StoreError
from yacht.store.core import GroupRow, TableRow

from .errors import WebError
from .live import Connection, LiveTable
from .lobby import hash_token, new_token
from .protocol import (
    FieldCard,
    FieldEnd,
    FieldMessage,
    FieldPlace,
    FieldTurn,
    PersonSeat,
    TableRequest,
)

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Duplicates", "group_of", "is_card"]

log = logging.getLogger("yacht.web")

#: the events of a card after which the field has changed for the others
FIELD_EVENTS = frozenset({"scored", "took_back", "finished", "reloaded"})


def group_of(row: TableRow) -> str | None:
    """The duplicate table a table is a card of (None: an ordinary table)."""
    group = row.settings.get("group")
    return group if isinstance(group, str) else None


def is_card(row: TableRow) -> bool:
    return group_of(row) is not None


@dataclass
class _Turns:
    """A card's scorings, worked out once per version of its game."""

    version: int
    turns: list[TurnSummary]


class Duplicates:
    """The duplicate tables of one hub."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.groups: dict[str, GroupRow] = {}
        self._turns: dict[str, _Turns] = {}
        self._pushing: dict[str, bool] = {}  # group -> a card scored while pushing

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
        hub = self.hub
        store = hub.store
        group_id = secrets.token_hex(6)
        seed = hub.seeds() if hub.seeds is not None else secrets.token_bytes(SEED_BYTES)
        try:
            rows = [await hub.io_call(partial(
                store.create_table, rs.id, dict(rs.option_values), req.speed, [seat],
                host=mine, settings={"group": group_id, "card": i, "reactions": False}))
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
        return lives[here[0]], token

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
    def check_watch(live: LiveTable, token: str | None) -> None:
        """A started card shows itself only to its own seat's token."""
        if not is_card(live.row) or live.row.game_id is None:
            return
        if token is None or not live.seats_of(hash_token(token)):
            raise WebError("this is a player's own card of a duplicate table: watch the "
                           f"field at /d/{group_of(live.row)}", "private")

    @staticmethod
    def check_command(live: LiveTable, command: Any) -> None:
        from .protocol import TakeBackCommand

        if is_card(live.row) and isinstance(command, TakeBackCommand):
            raise WebError("no take-back at a duplicate table: the others see your box as "
                           "soon as it is scored", "illegal")

    async def check_join(self, live: LiveTable) -> None:
        """A friend's seat may be taken until the others have all finished (the field
        is open to everyone then)."""
        group_id = group_of(live.row)
        if group_id is None:
            return
        message = await self.field(group_id, None)
        if message["end"] is not None:
            raise WebError("this duplicate game is over: the others have finished",
                           "conflict")

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

    def _scorings(self, live: LiveTable) -> list[TurnSummary]:
        table = live.table
        if table is None:
            return []
        known = self._turns.get(live.id)
        if known is not None and known.version == table.version:
            return known.turns
        if len(self._turns) > 2 * len(self.hub.live) + 64:  # (cards unloaded meanwhile)
            self._turns = {k: v for k, v in self._turns.items() if k in self.hub.live}
        view = table.view()
        turns = Record.from_state(view.state).turns()
        self._turns[live.id] = _Turns(view.version, turns)
        return turns

    async def field(self, group_id: str, viewer: int | None) -> FieldMessage:
        """The field as card ``viewer`` (None: a watcher) may see it now."""
        group = await self.group(group_id)
        lives = await self.cards(group)
        rs = lives[0].ruleset
        length = _length(rs)
        scorings = [self._scorings(live) for live in lives]
        open_ = [live.row.game_id is None for live in lives]
        done = [len(s) for s in scorings]
        over = all(d >= length for d, o in zip(done, open_, strict=True) if not o) \
            and not all(open_)
        if over:
            upto = length
        elif viewer is None:
            upto = min(done)
        else:
            upto = done[viewer]
        cards: list[FieldCard] = []
        for i, (live, turns) in enumerate(zip(lives, scorings, strict=True)):
            seat = live.row.seats[0]
            shown = turns[:upto]
            cards.append({
                "card": i, "name": seat.name,
                "kind": "computer" if seat.kind == "computer" else "person",
                "level": seat.level, "open": open_[i], "mine": i == viewer,
                "done": done[i], "shown": len(shown),
                "total": shown[-1].totals[0] if shown else 0,
                "turns": [_turn(t) for t in shown]})
        end = await self._end(group, cards, scorings, length) if over else None
        return {"type": "field", "group": group.id, "variant": rs.id, "name": rs.name,
                "commitment": group.commitment, "length": length, "me": viewer,
                "upto": upto, "cards": cards, "end": end}

    async def _end(self, group: GroupRow, cards: list[FieldCard],
                   scorings: list[list[TurnSummary]], length: int) -> FieldEnd:
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
        from dataclasses import replace

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

    # --- pushing it -------------------------------------------------------------------
    def event(self, live: LiveTable, kind: str) -> None:
        """A card's event: when the field changed, every card's browsers hear of it."""
        group_id = group_of(live.row)
        if group_id is None or kind not in FIELD_EVENTS:
            return
        if group_id in self._pushing:  # one pusher per group: it goes round once more
            self._pushing[group_id] = True
            return
        self._pushing[group_id] = False
        self.hub.tasks.spawn(self._push_all(group_id), "yacht-field")

    async def _push_all(self, group_id: str) -> None:
        """Push until no card scored meanwhile (so the newest field is sent last)."""
        try:
            again = True
            while again:
                self._pushing[group_id] = False
                await self.push(group_id)
                again = self._pushing[group_id]
        finally:
            del self._pushing[group_id]

    async def push(self, group_id: str) -> None:
        try:
            group = await self.group(group_id)
            lives = await self.cards(group)
            by_viewer: dict[int | None, FieldMessage] = {}
            for i, live in enumerate(lives):
                for conn in list(live.connections):
                    viewer = i if conn.seats else None
                    if viewer not in by_viewer:
                        by_viewer[viewer] = await self.field(group_id, viewer)
                    conn.send(by_viewer[viewer])
        except WebError as e:
            log.warning("duplicate table %s: %s", group_id, e)

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
        """A card is kept loaded while a browser is at any card of its group (its
        computer plays on; its news is heard)."""
        group_id = group_of(live.row)
        if group_id is None:
            return False
        group = self.groups.get(group_id)
        return group is not None and any(
            (other := self.hub.live.get(c)) is not None and other.connections
            for c in group.cards)


def _length(rs: Ruleset) -> int:
    """A full card's turns: one per box of every column."""
    return len(rs.categories) * len(rs.columns)


def _turn(t: TurnSummary) -> FieldTurn:
    return {"turn": t.number, "category": t.category, "column": t.column,
            "points": t.points, "total": t.totals[0]}
