"""Online tables in the store: created with their seats, changed only at the version
read (two friends racing for one seat: one wins), listed until closed."""

from __future__ import annotations

import pytest

from yacht.store import Store, StoreError
from yacht.store.core import SeatRow


def test_a_table_round_trips_and_changes_at_its_version(store: Store) -> None:
    seats = [SeatRow("Ann", "person", None, "h1"), SeatRow(None), SeatRow("Max", "computer",
                                                                          "expert")]
    t = store.create_table("yatzy", {}, "normal", seats)
    assert store.load_table(t.id) == t and t.version == 1 and t.game_id is None
    assert t.seats == tuple(seats) and t.closed is None
    bob = store.update_table(t.id, t.version,
                             seats=[seats[0], SeatRow("Bob", token="h2"), seats[2]])
    assert bob.version == 2 and bob.seats[1].name == "Bob"
    # a second friend read version 1 too: refused, nothing changed
    with pytest.raises(StoreError, match="changed meanwhile"):
        store.update_table(t.id, t.version, seats=[seats[0], SeatRow("Cy", token="h3"),
                                                   seats[2]])
    assert store.load_table(t.id).seats[1].name == "Bob"
    started = store.update_table(t.id, bob.version, game_id="abc123")
    assert started.game_id == "abc123" and started.seats == bob.seats
    assert [x.id for x in store.open_tables()] == [t.id]
    store.update_table(t.id, started.version, closed=True)
    assert store.open_tables() == [] and store.load_table(t.id).closed is not None


def test_missing_tables_are_one_line(store: Store) -> None:
    with pytest.raises(StoreError, match="no table nope"):
        store.load_table("nope")
    with pytest.raises(StoreError, match="changed meanwhile"):
        store.update_table("nope", 1, closed=True)


def test_damaged_seats_are_reported(store: Store) -> None:
    from sqlalchemy import update

    from yacht.store.schema import web_tables

    t = store.create_table("yatzy", {}, "normal", [SeatRow("Ann", token="h")])
    with store._engine.begin() as conn:
        conn.execute(update(web_tables).where(web_tables.c.id == t.id).values(seats="[{}]"))
    with pytest.raises(StoreError, match="damaged"):
        store.load_table(t.id)


def test_group_commits_keep_each_writers_outcome(store: Store) -> None:
    """Many threads writing at once: one transaction for what waits together, and every
    writer still gets its own answer (a conflicting action fails alone)."""
    import random
    import threading

    from yacht.engine import Player, Record, Roll, State
    from yacht.rules import get
    from yacht.store import GameMovedOn

    store.group_commits()
    games = []
    for seed in range(8):
        s = State(get("yatzy"), [Player("Ann")], rng=random.Random(seed))
        games.append((store.start_game(Record.from_state(s)), s))
    errors: list[BaseException] = []

    def play(gid: str, s: State) -> None:
        try:
            for _ in range(10):
                s.apply(Roll())
                store.append_action(gid, len(s.log) - 1, s.log[-1])
                s.apply(s.legal_actions()[-1])
                store.append_action(gid, len(s.log) - 1, s.log[-1])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    def conflict() -> None:  # meanwhile, a different first action for game 0
        gid = games[0][0]
        while store.progress(gid)[0] == 0:
            pass
        try:
            store.append_action(gid, 0, Roll((9, 9, 9, 9, 9)))
        except GameMovedOn as e:
            errors.append(e)

    threads = [threading.Thread(target=play, args=g) for g in games]
    threads.append(threading.Thread(target=conflict))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(errors) == 1 and "different action 1" in str(errors[0])  # that one alone
    for gid, s in games:
        assert store.load_record(gid).actions == s.log
