"""What the same dice show, read from the store (``yacht.session.duplicate.same_dice``):
each game of a duplicate table with its player and its scorings, which the analysis
of one of them in the browser draws turn by turn (issue 24, item 2)."""

from __future__ import annotations

from pathlib import Path

from yacht.engine import Player, Record, Roll, Score, State
from yacht.rules import get
from yacht.session.duplicate import same_dice
from yacht.store import Store, open_store
from yacht.store.core import SeatRow

SEED = bytes(range(32))


def played(store: Store, player: Player, pick: int, group: str) -> str:
    """A one-player game on SEED, stored and finished: each turn one roll, then the
    ``pick``-th box by points (0: the best, -1: the worst)."""
    state = State(get("yatzy"), [player], seed=SEED)
    while not state.is_terminal():
        state.apply(Roll())
        ranked = sorted(state.placements(), key=lambda p: (-p.points, p.category))
        state.apply(Score(ranked[pick].category, ranked[pick].column))
    game_id = store.start_game(Record.from_state(state, duplicate=group), SEED)
    store.finish_game(game_id, state)
    return game_id


def test_same_dice_keeps_each_games_player_and_scorings(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "yacht.sqlite3"))
    ann, cpu = Player("Ann"), Player("Cpu", "computer", "expert")
    games = [played(store, ann, 0, "g1"), played(store, cpu, -1, "g1")]
    cards = []
    for player, game in zip((ann, cpu), games, strict=True):
        row = store.create_table("yatzy", {}, "normal", [SeatRow(
            player.name, "person" if player.kind != "computer" else "computer",
            player.level if player.kind == "computer" else None)],
            settings={"group": "g1"})
        cards.append(store.update_table(row.id, row.version, game_id=game).id)
    store.create_group("g1", "yatzy", {}, SEED, cards)

    found = same_dice(store, "g1", expert=False)
    assert found is not None and found.expert is None
    assert found.games == tuple(games)
    assert [p.name for p in found.players] == ["Ann", "Cpu"]
    assert [p.kind for p in found.players] == [ann.kind, "computer"]
    records = [store.load_record(g).turns() for g in games]
    assert [[t.points for t in turns] for turns in found.turns] == \
        [[t.points for t in turns] for turns in records]
    assert [len(t) for t in found.turns] == [15, 15]
    # the comparison is of those scorings: turn by turn against the other's
    k = 0
    assert found.against[0][k] == records[0][k].points - records[1][k].points
    # the same dice at the first roll of each game (the same choices so far)
    first = [store.load_record(g).actions[0] for g in games]
    assert first[0] == first[1]
    store.close()
