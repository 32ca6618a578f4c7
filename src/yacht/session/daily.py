"""The daily challenge: every day (UTC) each variant has one game's dice, the same for
everyone who plays it that day, and the expert's total on those very dice to beat.

A day's challenge is a secret seed the store makes the first time the day's game of a
variant is asked for (:meth:`yacht.store.Store.daily`); its commitment (SHA-256 of the
seed) is public from the start, and the seed itself is kept until the day is over,
even from players who have finished (their game would tell the others the dice), so
``yacht verify`` works on every daily game from the next day on. A daily game is a
solitaire game of the variant with its usual options on that seed: the same choices
give the same dice (:mod:`yacht.engine.dice` draws a die from the turn, the roll and
its place). A name's first finished game of the day is ranked; later ones are
practice.

>>> from yacht.store import open_store
>>> store = open_store(":memory:")
>>> t = open_daily(store, "tommys-crag", "Ann", day="2026-12-01", source="doc")
>>> t.record().meta["daily"], t.record().dice_seed.commitment == store.daily(
...     "2026-12-01", "tommys-crag").commitment
('2026-12-01', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yacht.engine import Player, State
from yacht.rules import Ruleset, UnknownVariant, get
from yacht.store import Daily, Store, utc_day

from .game import SessionError
from .opening import open_table
from .table import Table

__all__ = ["Entry", "Standings", "expert_total", "open_daily", "share_line", "standings",
           "today"]


def today() -> str:
    """Today (UTC) as ``YYYY-MM-DD``: the day whose challenge is played now."""
    return utc_day()


def _variant(variant: str) -> Ruleset:
    try:
        return get(variant)
    except UnknownVariant as e:
        raise SessionError(str(e)) from None


def open_daily(store: Store, variant: str, name: str, *, source: str,
               day: str | None = None, **flow: Any) -> Table:
    """A new game of the day's challenge of ``variant`` for the person ``name`` (its
    usual options; ``day``: today's, the only one a game is started on except in
    tests); ``flow``: how the game flows here, as :func:`open_table` takes it."""
    rs = _variant(variant)
    daily = store.daily(day or today(), rs.id)
    return open_table(store, source=source, variant=rs.id, players=[Player(name)],
                      seed=daily.seed, meta={"daily": daily.day}, **flow)


def expert_total(ruleset: Ruleset, seed: bytes) -> int:
    """The expert's final total alone on the dice of ``seed`` (its actual game, not an
    average)."""
    from yacht.strategy.base import make_player, play_turn

    state = State(ruleset, [Player("Expert", "computer", "expert")], seed=seed)
    expert = make_player("expert", ruleset)
    while not state.is_terminal():
        play_turn(state, expert)
    return state.totals(0).grand


def _expert_of(store: Store, daily: Daily) -> int:
    if daily.expert is None:
        total = expert_total(get(daily.variant), daily.seed)
        store.set_daily_expert(daily.day, daily.variant, total)
        return total
    return daily.expert


@dataclass(frozen=True)
class Entry:
    """A line of a day's standings: ``place`` among the ranked games (None: practice, a
    name's game after its first); ``assisted``: hints were asked (or dice entered)."""

    place: int | None
    name: str
    score: int
    game_id: str
    assisted: bool

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "score": self.score,
                "game_id": self.game_id, "assisted": self.assisted,
                "ranked": self.place is not None}


@dataclass(frozen=True)
class Standings:
    """A day's challenge of a variant, as anyone may see it: the commitment, the seed
    only once the day is over, the expert's total on its dice and every finished game
    (ranked ones by score, then practice)."""

    day: str
    variant: str
    commitment: str
    seed: str | None
    expert: int | None
    entries: tuple[Entry, ...] = field(default=())

    @property
    def ranked(self) -> list[Entry]:
        return [e for e in self.entries if e.place is not None]

    def place_of(self, game_id: str) -> Entry | None:
        return next((e for e in self.entries if e.game_id == game_id), None)

    def to_json(self) -> dict[str, Any]:
        return {"date": self.day, "variant": self.variant, "commitment": self.commitment,
                "seed": self.seed, "expert": self.expert, "over": self.seed is not None,
                "standings": [e.to_json() for e in self.entries]}


def standings(store: Store, variant: str, day: str | None = None, *,
              expert: bool = True) -> Standings:
    """The day's standings of ``variant`` (default today); ``expert``: work out the
    expert's total on the day's dice if it is not known yet (a second or so, once)."""
    rs = _variant(variant)
    daily = store.daily(day or today(), rs.id)
    seen: set[str] = set()
    ranked: list[tuple[int, str, str, bool]] = []
    practice: list[Entry] = []
    for r in store.daily_results(daily.day, rs.id):
        key = r.name.strip().casefold()
        if key in seen:
            practice.append(Entry(None, r.name, r.score, r.game_id, r.assisted))
            continue
        seen.add(key)
        ranked.append((r.score, r.name, r.game_id, r.assisted))
    ranked.sort(key=lambda x: -x[0])
    entries: list[Entry] = []
    for i, (score, name, game_id, assisted) in enumerate(ranked):
        # (equal totals share a place)
        place = entries[-1].place if entries and entries[-1].score == score else i + 1
        entries.append(Entry(place, name, score, game_id, assisted))
    return Standings(daily.day, rs.id, daily.commitment,
                     daily.seed.hex() if daily.over else None,
                     _expert_of(store, daily) if expert else daily.expert,
                     tuple(entries + practice))


def share_line(st: Standings, game_id: str, title: str | None = None) -> str:
    """One line to copy and share: the day, the variant, the total, the expert's and
    the place (plain text, no link).

    >>> st = Standings("2026-12-02", "yatzy", "ab", None, 241,
    ...                (Entry(1, "Bo", 260, "g2", False), Entry(2, "Ann", 250, "g1", False)))
    >>> share_line(st, "g1", "Yatzy")
    'Yacht daily 2026-12-02, Yatzy: 250 (the expert 241), 2nd of 2'
    """
    entry = st.place_of(game_id)
    name = title or st.variant
    if entry is None:
        return f"Yacht daily {st.day}, {name}: not finished"
    where = (f"{_ordinal(entry.place)} of {len(st.ranked)}" if entry.place is not None
             else "practice")
    expert = f" (the expert {st.expert})" if st.expert is not None else ""
    return f"Yacht daily {st.day}, {name}: {entry.score}{expert}, {where}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
