"""The store keeps each game's secret seed apart from its record (the record shows it only
once the game is finished), and marks games whose dice were entered by hand: their scores
are listed apart, their statistics kept apart."""

from __future__ import annotations

import hashlib

import pytest
from store_helpers import OLD_GAME, database_at

from yacht.engine import Player, Record, Roll, Score, State, verify
from yacht.rules import get
from yacht.store import Store, StoreError, open_store

SEED = bytes(range(32))
ANN = Player("Ann")


def crag_game(seed: bytes = SEED, entered_turn: int | None = None) -> State:
    """A whole game of Tommy's Crag from ``seed``; one roll entered by hand if asked."""
    s = State(get("tommys-crag"), [ANN], seed=seed)
    while not s.is_terminal():
        entered = s.turns_taken(0) == entered_turn
        s.apply(Roll((6, 6, 1), entered=True) if entered else Roll())
        s.apply(Score(s.placements()[0].category))
    return s


def save(store: Store, state: State, upto: int | None = None) -> str:
    """The game started with its seed and its first action, then action by action."""
    log = state.log[:upto]
    first = Record.from_state(state)
    first.actions = log[:1]
    gid = store.start_game(first, seed=state.seed)
    for i in range(1, len(log)):
        store.append_action(gid, i, log[i])
    return gid


def test_the_seed_is_kept_and_shown_only_once_the_game_is_finished(store: Store) -> None:
    state = crag_game()
    gid = save(store, state, upto=10)
    record = store.load_record(gid)
    assert record.dice_seed is not None and record.dice_seed.seed is None
    assert record.dice_seed.commitment == hashlib.sha256(SEED).hexdigest()
    assert SEED.hex() not in record.dumps()  # what a server sends out
    assert store.load_seed(gid) == SEED  # what the session goes on with
    assert store.load_state(gid).seed == SEED
    for i in range(10, len(state.log)):
        store.append_action(gid, i, state.log[i])
    assert store.load_record(gid).dice_seed.seed is None  # type: ignore[union-attr]
    store.finish_game(gid, state)
    finished = store.load_record(gid)
    assert finished.dice_seed is not None and finished.dice_seed.seed == SEED.hex()
    assert verify(finished).ok


def test_a_seed_that_does_not_match_the_commitment_is_refused(store: Store) -> None:
    state = crag_game()
    with pytest.raises(StoreError, match="does not match its commitment"):
        store.start_game(Record.from_state(state), seed=bytes(32))
    no_commitment = Record.from_state(state)
    no_commitment.dice_seed = None
    with pytest.raises(StoreError, match="does not match"):
        store.start_game(no_commitment, seed=SEED)
    assert store.unfinished_games() == []


def test_games_of_a_generator_have_no_seed(store: Store) -> None:
    import random

    s = State(get("tommys-crag"), [ANN], rng=random.Random(1))
    s.apply(Roll())
    gid = store.start_game(Record.from_state(s))
    assert store.load_seed(gid) is None and store.load_record(gid).dice_seed is None
    with pytest.raises(StoreError, match="no game"):
        store.load_seed("0" * 12)


@pytest.mark.parametrize("grouped", [False, True])
def test_dice_entered_mark_the_game_and_its_scores_go_apart(store: Store,
                                                            grouped: bool) -> None:
    if grouped:
        store.group_commits()  # (the server's writer: entered rolls take the general path)
    honest, entered = crag_game(), crag_game(bytes(32), entered_turn=3)
    gid = save(store, entered)
    assert store.game_info(gid).dice_entered and store.game_info(gid).to_json()["dice_entered"]
    hid = save(store, honest)
    assert not store.game_info(hid).dice_entered
    store.finish_game(hid, honest)
    new = store.finish_game(gid, entered)
    rs = entered.ruleset
    assert [(e.game_id, e.dice_entered, e.assisted) for e in new] == [(gid, True, True)]
    assert [e.game_id for e in store.top_ten(rs)] == [hid]
    apart = store.top_ten(rs, assisted=True)
    assert [(e.game_id, e.dice_entered) for e in apart] == [(gid, True)]
    assert apart[0].to_json()["dice_entered"] is True
    assert sorted(store.score_tables()) == [(rs.key, False), (rs.key, True)]
    rows = {r.dice_entered: r for r in store.stats("Ann")}
    assert set(rows) == {False, True}  # a row of their own
    assert rows[False].games == rows[True].games == 1
    assert rows[True].best == entered.returns()[0]
    assert verify(store.load_record(gid)).code == "entered"
    assert verify(store.load_record(hid)).ok


def test_a_finished_game_is_marked_from_its_log_too(store: Store) -> None:
    entered = crag_game(entered_turn=0)
    first = Record.from_state(entered)
    first.actions = []
    gid = store.start_game(first, seed=entered.seed)  # the actions come with the end
    assert not store.game_info(gid).dice_entered
    store.finish_game(gid, entered)
    assert store.game_info(gid).dice_entered
    assert store.top_ten(entered.ruleset) == []


def test_an_older_database_gets_the_new_columns_and_keeps_its_games(db_url: str) -> None:
    database_at(db_url, "yacht_0004", OLD_GAME,
                "UPDATE games SET finished = '2025-01-01 11:00:00', scores = '[99]'",
                "INSERT INTO results (game_id, seat, name, kind, variant, table_key, score, "
                "won, multiplayer, upper_bonus, yachts, assisted, finished) VALUES "
                "('abcdef123456', 0, 'Old', 'person', 'yatzy', 'yatzy', 99, false, false, "
                "false, 0, false, '2025-01-01 11:00:00')")
    with open_store(db_url) as s:
        assert s.load_seed("abcdef123456") is None
        assert not s.game_info("abcdef123456").dice_entered
        assert [(e.name, e.dice_entered) for e in s.top_ten(get("yatzy"))] == [("Old", False)]
        assert [r.dice_entered for r in s.stats()] == [False]
        assert verify(s.load_record("abcdef123456")).code == "no_seed"
