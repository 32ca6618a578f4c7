"""A daily challenge's web table is private until its day is over because its settings
name the day (``daily``). Tables a store kept from before the day was stored there get
it from their game when the store is upgraded: without it, an upgraded server would
list and show today's daily games to anyone."""

from __future__ import annotations

from store_helpers import downgrade_to

from yacht.engine import Player, Record
from yacht.store import open_store
from yacht.store.core import SeatRow


def test_an_upgrade_gives_old_daily_tables_their_day(db_url: str) -> None:
    store = open_store(db_url)
    try:
        seats = [SeatRow(name="Ann", kind="person")]
        daily = store.start_game(Record("yahtzee", {}, [Player("Ann")],
                                        meta={"daily": "2026-12-06"}))
        plain = store.start_game(Record("yahtzee", {}, [Player("Bob")]))
        old_daily = store.create_table("yahtzee", {}, "normal", seats, game_id=daily,
                                       settings={"reactions": True})
        bare_daily = store.create_table("yahtzee", {}, "normal", seats, game_id=daily)
        other = store.create_table("yahtzee", {}, "normal", seats, game_id=plain,
                                   settings={"reactions": True})
        lobby = store.create_table("yahtzee", {}, "normal", seats)
    finally:
        store.close()
    assert downgrade_to(db_url, "yacht_0010",  # as the previous version left them
                        "SELECT COUNT(*) FROM web_tables WHERE settings LIKE '%daily%'") == [0]
    store = open_store(db_url)  # upgraded
    try:
        assert store.load_table(old_daily.id).settings == {"reactions": True,
                                                           "daily": "2026-12-06"}
        assert store.load_table(bare_daily.id).settings == {"daily": "2026-12-06"}
        assert store.load_table(other.id).settings == {"reactions": True}
        assert store.load_table(lobby.id).settings == {}
    finally:
        store.close()
