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
