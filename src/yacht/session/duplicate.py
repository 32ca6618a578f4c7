"""What the same dice show: a duplicate table's games side by side.

A duplicate table (``yacht.web.duplicate``) is a group of one-player games on one seed:
the same choices met the same dice, so the games compare turn by turn. Once every
game is full: each player's total and place, the expert's actual total on that seed
(its own game, not an average: :func:`yacht.session.daily.expert_total`), each turn's
points against the mean of the others', and the best of each turn.

>>> st = compare(["Ann", "Bo", "Cy"], [[10, 0, 5], [4, 6, 5], [1, 3, 5]], expert=30)
>>> [(p.place, p.name, p.total) for p in st.ranking]
[(1, 'Ann', 15), (1, 'Bo', 15), (3, 'Cy', 9)]
>>> st.against[0], st.best
([7.5, -4.5, 0.0], [[0], [1], [0, 1, 2]])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yacht.engine import Player, Record, TurnSummary
from yacht.store import Store, StoreError

__all__ = ["Place", "SameDice", "compare", "same_dice"]


@dataclass(frozen=True)
class Place:
    card: int
    name: str
    total: int
    place: int  # (equal totals share a place)

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "name": self.name, "total": self.total,
                "place": self.place}


@dataclass(frozen=True)
class SameDice:
    """The games of one seed compared: ``against[i][k]``, player i's points on turn k
    minus the mean of the others'; ``best[k]``, the players who scored most on turn k."""

    names: tuple[str, ...]
    ranking: tuple[Place, ...]
    expert: int | None
    against: list[list[float]]
    best: list[list[int]]
    #: the games compared, in the same order (when read from the store)
    games: tuple[str, ...] = ()
    #: each game's scorings and player, in the same order (when read from the store)
    turns: tuple[list[TurnSummary], ...] = ()
    players: tuple[Player, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"ranking": [p.to_json() for p in self.ranking], "expert": self.expert,
                "against": self.against, "best": self.best}

    def text(self, me: int | None = None) -> str:
        """A few lines for the terminal (``me``: the player whose game this is)."""
        lines = ["On the same dice (a duplicate table):"]
        for p in self.ranking:
            mark = " <- this game" if p.card == me else ""
            lines.append(f"  {p.place}. {p.name}: {p.total}{mark}")
        if self.expert is not None:
            lines.append(f"  The expert's own game on these dice: {self.expert}")
        if me is not None and self.against[me]:
            row = " ".join(f"{x:+g}" for x in self.against[me])
            won = sum(1 for b in self.best if me in b)
            lines.append(f"  {self.names[me]}, each turn against the mean of the others: {row}")
            lines.append(f"  Best (or shared best) on {won} of {len(self.best)} turns")
        return "\n".join(lines)


def compare(names: list[str], points: list[list[int]], totals: list[int] | None = None, *,
            expert: int | None = None) -> SameDice:
    """The games of one seed side by side: ``points[i]``, player i's points per turn;
    ``totals``: their final totals (with bonuses; default the sums of the points)."""
    totals = totals if totals is not None else [sum(p) for p in points]
    order = sorted(range(len(names)), key=lambda i: -totals[i])
    ranking: list[Place] = []
    for n, i in enumerate(order):
        place = ranking[-1].place if ranking and ranking[-1].total == totals[i] else n + 1
        ranking.append(Place(i, names[i], totals[i], place))
    length = max((len(p) for p in points), default=0)
    best: list[list[int]] = []
    for k in range(length):
        of_turn = {i: p[k] for i, p in enumerate(points) if len(p) > k}
        top = max(of_turn.values())
        best.append(sorted(i for i, v in of_turn.items() if v == top))
    against: list[list[float]] = []
    for i, p in enumerate(points):
        row = []
        for k, mine in enumerate(p):
            others = [q[k] for j, q in enumerate(points) if j != i and len(q) > k]
            row.append(round(mine - sum(others) / len(others), 2) if others else 0.0)
        against.append(row)
    return SameDice(tuple(names), tuple(ranking), expert, against, best)


def same_dice(store: Store, group_id: str, *, expert: bool = True) -> SameDice | None:
    """A duplicate table's games compared, from the store (None: a game is not full
    yet); ``expert``: work out the expert's total on the seed if it is not kept yet."""
    group = store.load_group(group_id)
    names: list[str] = []
    points: list[list[int]] = []
    totals: list[int] = []
    games: list[str] = []
    turns: list[list[TurnSummary]] = []
    players: list[Player] = []
    for card in group.cards:
        row = store.load_table(card)
        if row.game_id is None:
            continue  # a friend's seat no one took
        record: Record = store.load_record(row.game_id)
        state = record.final_state()
        if not state.is_terminal():
            return None
        games.append(row.game_id)
        names.append(record.players[0].name)
        players.append(record.players[0])
        turns.append(record.turns())
        points.append([t.points for t in turns[-1]])
        totals.append(state.totals(0).grand)
    total = group.expert
    if total is None and expert:
        from yacht.rules import get

        from .daily import expert_total

        total = expert_total(get(group.variant, group.options), group.seed)
        try:
            store.set_group_expert(group.id, total)
        except StoreError:
            pass  # (a read-only store: worked out again next time)
    found = compare(names, points, totals, expert=total)
    return SameDice(found.names, found.ranking, found.expert, found.against, found.best,
                    tuple(games), tuple(turns), tuple(players))
