"""The daily challenge: every day (UTC) each variant has one game's dice, the same for
everyone who plays it that day, and the expert's total on those very dice to beat.

A day's challenge is a secret seed the store makes the first time the day's game of a
variant is asked for (:meth:`yacht.store.Store.daily`); its commitment (SHA-256 of the
seed) is public from the start, and the seed itself is kept until the day is over,
even from players who have finished (their game would tell the others the dice), so
``yacht verify`` works on every daily game from the next day on. A daily game is a
solitaire game of the variant with its usual options on that seed: the same choices
give the same dice (:mod:`yacht.engine.dice` draws a die from the turn, the roll and
its place).

**Who is ranked.** A name's first game *started* on a day's challenge (of a variant) is
its ranked game; its later ones are practice. A name plays one game of a day's
challenge at a time: another is started only once its game under way is finished
(:class:`UnderWay`), so no game of the name can show the dice its ranked game is still
to meet (a die is drawn from the turn, the roll and its place: a second game played
ahead would tell them). A name is not an account: someone may still play ahead under
another name, or first under a name not theirs; the standings say so.

**Which days.** Today's challenge is made the first time it is asked for; a day gone
by is only read (nothing is made for it after the fact: :class:`NoChallenge`), a day to
come or before the first challenge of the store is refused (:class:`DayRefused`).

>>> from yacht.store import open_store
>>> store = open_store(":memory:")
>>> t = open_daily(store, "tommys-crag", "Ann", day="2026-12-01", source="doc")
>>> t.record().meta["daily"], t.record().dice_seed.commitment == store.daily(
...     "2026-12-01", "tommys-crag").commitment
('2026-12-01', True)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from yacht.engine import Player, State
from yacht.parsing import check_name, name_key
from yacht.rules import Ruleset, UnknownVariant, get
from yacht.store import Daily, Store, utc_day

from .game import SessionError
from .opening import open_table
from .table import Table

__all__ = ["DayRefused", "Entry", "NoChallenge", "Standings", "UnderWay", "challenge",
           "check_alone", "expert_total", "open_daily", "ranked_game", "share_line",
           "standings", "today", "under_way"]


class DayRefused(SessionError):
    """A day whose challenge is not to be asked for: one to come, or one before the first
    challenge of the store (the line names the days accepted)."""


class NoChallenge(SessionError):
    """A day gone by without a challenge of the variant here: no one played it (and none
    is made for it after the fact)."""


class UnderWay(SessionError):
    """``name`` has a game of the day's challenge under way, ``game_id``: a name plays one
    game of a day's challenge at a time."""

    def __init__(self, name: str, game_id: str, day: str, title: str) -> None:
        super().__init__(f"{name} has a game of the {title} challenge of {day} under way "
                         f"(game {game_id}): a name plays one game of a day's challenge at "
                         "a time")
        self.name, self.game_id, self.day = name, game_id, day


def today() -> str:
    """Today (UTC) as ``YYYY-MM-DD``: the day whose challenge is played now."""
    return utc_day()


def _variant(variant: str) -> Ruleset:
    try:
        return get(variant)
    except UnknownVariant as e:
        raise SessionError(str(e)) from None


def _key(name: str) -> str:
    """A name as the standings tell names apart: as :func:`~yacht.parsing.check_name`
    makes it (spaces, the way its accents are written), as it reads
    (:func:`~yacht.parsing.name_key`: any case, and a Cyrillic ``А`` or a full-width
    ``Ａ`` is an ``A``), so that no one stands in the day's standings twice, nor as
    someone else, under a name no one can tell apart."""
    return name_key(unicodedata.normalize("NFC", " ".join(name.split())))


def open_daily(store: Store, variant: str, name: str, *, source: str,
               day: str | None = None, **flow: Any) -> Table:
    """A new game of the day's challenge of ``variant`` for the person ``name`` (its
    usual options; ``day``: today's, the only one a game is started on except in
    tests), saved at once (it is started: the name's first is its ranked game);
    ``flow``: how the game flows here, as :func:`open_table` takes it. :class:`UnderWay`
    when the name has a game of that day's challenge under way (one started at the same
    moment as this one: one of the two, or both, are refused, never neither)."""
    name = check_name(name)  # (the checks of every player's name: InputError)
    rs = _variant(variant)
    daily = store.daily(day or today(), rs.id)
    found = under_way(store, rs.id, name, daily.day)
    if found is not None:
        raise UnderWay(name, found, daily.day, rs.name)
    t = open_table(store, source=source, variant=rs.id, players=[Player(name)],
                   seed=daily.seed, meta={"daily": daily.day}, **flow)
    game_id = t.save()
    if game_id is not None:
        check_alone(store, rs.id, name, daily.day, game_id)
    return t


def check_alone(store: Store, variant: str, name: str, day: str, game_id: str) -> None:
    """After ``game_id`` was started for ``name``: if another game of the name's is under
    way on the day's challenge (started at the same moment, by another process), this
    one is deleted and :class:`UnderWay` raised. Of two started at once, each looks for
    the other once it is saved, so at least one of them is refused."""
    found = under_way(store, variant, name, day, besides=game_id)
    if found is not None:
        store.delete_game(game_id)
        raise UnderWay(name, found, day, _variant(variant).name)


def under_way(store: Store, variant: str, name: str, day: str | None = None, *,
              besides: str | None = None) -> str | None:
    """The id of ``name``'s game of the day's challenge (default today's) not finished
    yet, its first started (``besides``: not that one); None: there is none."""
    key = _key(name)
    return next((g.game_id for g in store.daily_games(day or today(), variant)
                 if g.finished is None and g.game_id != besides and _key(g.name) == key),
                None)


def ranked_game(store: Store, variant: str, name: str, day: str | None = None) -> str | None:
    """The id of ``name``'s ranked game of the day's challenge: its first started
    (finished or not); None: the name has started none."""
    return _ranked(store, variant, day or today()).get(_key(name))


def _ranked(store: Store, variant: str, day: str) -> dict[str, str]:
    """Each name (as :func:`_key` has it) and its first game started on the day."""
    first: dict[str, str] = {}
    for g in store.daily_games(day, variant):
        first.setdefault(_key(g.name), g.game_id)
    return first


def challenge(store: Store, variant: str, day: str | None = None) -> Daily:
    """The day's challenge of ``variant`` (default today's, made the first time it is
    asked for). A day gone by is only read: :class:`NoChallenge` when none was made that
    day; :class:`DayRefused` for a day to come or one before the store's first
    challenge (their lines name the days accepted)."""
    rs = _variant(variant)
    now = today()
    day = day or now
    if day > now:
        raise DayRefused(f"{day} has not come yet: give a day up to today, {now} (UTC)")
    if day == now:
        return store.daily(day, rs.id)
    found = store.find_daily(day, rs.id)
    if found is not None:
        return found
    first = store.first_daily()
    if first is None or day < first:
        since = f"from {first}, the first challenge here, " if first is not None else ""
        raise DayRefused(f"there was no daily challenge here on {day}: give a day {since}"
                         f"up to today, {now} (UTC, YYYY-MM-DD)")
    raise NoChallenge(f"no one played the {rs.name} challenge of {day} here")


def expert_total(ruleset: Ruleset, seed: bytes) -> int:
    """The expert's final total alone on the dice of ``seed`` (its actual game, not an
    average)."""
    from yacht.strategy.base import make_player, play_turn

    state = State(ruleset, [Player("Expert", "computer", "expert")], seed=seed)
    expert = make_player(ruleset, "expert")
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
    name's game after its first started); ``assisted``: hints were asked (or dice
    entered)."""

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
    """The day's standings of ``variant`` (default today; a day as :func:`challenge`
    takes it): each name's first game started, once finished, ranked; its later ones
    practice. ``expert``: work out the expert's total on the day's dice if it is not
    known yet (a second or so, once)."""
    rs = _variant(variant)
    daily = challenge(store, rs.id, day)
    first = _ranked(store, rs.id, daily.day)
    ranked: list[tuple[int, str, str, bool]] = []
    practice: list[Entry] = []
    for r in store.daily_results(daily.day, rs.id):
        if first.get(_key(r.name)) != r.game_id:  # (not the name's first game started)
            practice.append(Entry(None, r.name, r.score, r.game_id, r.assisted))
            continue
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
