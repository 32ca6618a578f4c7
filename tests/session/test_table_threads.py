"""One table driven from several threads and asyncio tasks at once: commands from random
seats, stale versions, computer players on their own driver. Whatever the interleaving,
the record replays to the table's state and no refused command changed anything."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import Counter
from typing import Any

import pytest

from yacht.engine import Choose, GiveBack, Player, Record, Roll, Score, TakeBack
from yacht.rules import get
from yacht.session.commands import Command, ComputerMove, GoOn, ScoreBox, Select, Toggle
from yacht.session.table import LOCAL, Event, Refused, Seat, Table, ThreadDriver, drive_async

#: the events that stand for one engine action each
ACTION_EVENTS = {"rolled", "chosen", "gave_back", "scored", "took_back"}

SEATS = [Seat("ann", frozenset({0})), Seat("bob", frozenset({1})),
         Seat("watcher", frozenset()), Seat(LOCAL, frozenset({0, 1}), operator=True)]


def new_table(store: Any, factory: Any, seed: int) -> Table:
    return Table.new(get("tommys-crag"), [Player("Ann"), Player("Bob"),
                                          Player("Cpu", "computer", "random")],
                     store=store, rng=random.Random(seed), strategy_factory=factory,
                     speed="instant", seats=SEATS)


def random_command(table: Table, pick: random.Random) -> tuple[str, Command, int | None]:
    """A command a careless or a malicious client might send (most are refused)."""
    rs = table.ruleset
    seat = pick.choice(SEATS).id
    cats = [c.id for c in rs.categories]
    cmd: Command = pick.choice([
        Roll(), Roll(), Roll(), Toggle(pick.randrange(-1, rs.dice + 1)),
        Select(pick.choice(["all", "singlets", "none"])), Choose((pick.randrange(rs.dice),)),
        ScoreBox(pick.choice(cats)), ScoreBox(pick.choice(cats)), Score(pick.choice(cats)),
        GiveBack(), TakeBack(), GoOn(), GoOn(), ComputerMove()])
    version = table.version
    if pick.random() < 0.1:
        version -= pick.randrange(1, 3)  # stale
    elif pick.random() < 0.5:
        return seat, cmd, None
    return seat, cmd, version


class Tally:
    def __init__(self, table: Table) -> None:
        self.lock = threading.Lock()
        self.events: Counter[str] = Counter()
        self.accepted = 0
        self.refused: Counter[str] = Counter()
        table.subscribe(self.on_event)

    def on_event(self, event: Event) -> None:
        self.events[event.kind] += 1

    def act(self, table: Table, seat: str, cmd: Command, version: int | None) -> None:
        try:
            table.act(seat, cmd, version=version)
        except Refused as e:
            with self.lock:
                self.refused[e.code] += 1
            return
        with self.lock:
            self.accepted += 1


def check_consistent(table: Table, tally: Tally, store: Any) -> None:
    """Every engine action is in the log once, saved, evented; the record replays."""
    s = table._game
    log = s.state.log
    assert sum(tally.events[k] for k in ACTION_EVENTS) == len(log)
    assert table.version == len(log) + tally.events["went_on"]
    if s.game_id is None:
        # a game is stored with its first action: the last table may get only the last
        # step or two, each refused (a score before a roll), and then none was taken
        assert not log, "actions taken and the game never stored"
        return
    assert store.games[s.game_id].record.actions == log
    replayed = Record.from_state(s.state).final_state()
    assert replayed.position_key() == s.state.position_key()


@pytest.mark.slow
def test_two_threads_and_a_driver_on_one_table(store: Any, factory: Any) -> None:
    steps_left = [10_000]
    games = 0
    refused: Counter[str] = Counter()
    deadline = time.monotonic() + 120
    while steps_left[0] > 0 and time.monotonic() < deadline:
        table = new_table(store, factory, games)
        tally = Tally(table)
        driver = ThreadDriver(table).start()
        counter_lock = threading.Lock()

        def worker(seed: int, table: Table = table, tally: Tally = tally,
                   lock: threading.Lock = counter_lock) -> None:
            pick = random.Random(seed)
            while not table.view().finished:
                with lock:
                    if steps_left[0] <= 0:
                        return
                    steps_left[0] -= 1
                tally.act(table, *random_command(table, pick))

        threads = [threading.Thread(target=worker, args=(games * 2 + i,)) for i in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(timeout=120)
            assert not th.is_alive()
        driver.stop()
        check_consistent(table, tally, store)
        refused += tally.refused
        games += 1
    assert steps_left[0] <= 0, "10,000 commands were not sent within the time limit"
    assert games >= 2  # whole games were played, then more
    # every kind of refusal happened, and none of them changed anything
    assert {"illegal", "not_your_turn", "stale", "paused"} <= set(refused)


@pytest.mark.slow
def test_two_asyncio_tasks_and_the_async_driver_on_one_table(store: Any, factory: Any) -> None:
    async def main() -> tuple[int, Counter[str]]:
        steps_left = 10_000
        games = 0
        refused: Counter[str] = Counter()
        while steps_left > 0:
            table = new_table(store, factory, 100 + games)
            tally = Tally(table)
            stop = asyncio.Event()
            driver = asyncio.create_task(drive_async(table, stop=stop))

            async def task(seed: int, table: Table = table, tally: Tally = tally) -> None:
                nonlocal steps_left
                pick = random.Random(seed)
                while not table.view().finished and steps_left > 0:
                    steps_left -= 1
                    seat, cmd, version = random_command(table, pick)
                    if pick.random() < 0.3:  # some from a worker thread, as a server would
                        await asyncio.to_thread(tally.act, table, seat, cmd, version)
                    else:
                        tally.act(table, seat, cmd, version)
                    await asyncio.sleep(0)

            await asyncio.wait_for(asyncio.gather(task(games * 2), task(games * 2 + 1)), 120)
            stop.set()
            await asyncio.wait_for(driver, 10)
            check_consistent(table, tally, store)
            refused += tally.refused
            games += 1
        return games, refused

    games, refused = asyncio.run(main())
    assert games >= 2
    assert {"illegal", "not_your_turn", "stale"} <= set(refused)


def test_the_thread_driver_plays_a_demo_to_its_end(store: Any, factory: Any) -> None:
    table = Table.new(get("tommys-crag"), [Player("A", "computer", "random"),
                                           Player("B", "computer", "random")],
                      store=store, rng=random.Random(1), strategy_factory=factory,
                      speed="instant")
    done = threading.Event()
    table.subscribe(lambda e: done.set() if e.kind == "finished" else None)
    driver = ThreadDriver(table).start()
    try:
        assert done.wait(60)
        assert table._game.finished and driver.idle()
    finally:
        driver.stop()


def test_the_async_driver_makes_the_tables_own_moves_off_the_event_loop(
        store: Any, factory: Any) -> None:
    """A roll the table makes by itself saves the game and tells every listener (a
    server's: Redis). Made on the event loop, a listener that waited (Redis away) held up
    every table and request of the process; the loop now goes on meanwhile."""
    table = Table.new(get("tommys-crag"), [Player("Ann"), Player("Bob")], store=store,
                      rng=random.Random(3), strategy_factory=factory, speed="instant",
                      auto_roll=True)
    entered, release = threading.Event(), threading.Event()
    stuck: list[bool] = []

    def slow(event: Event) -> None:  # a listener that waits for the loop to say go
        if event.kind == "rolled" and not release.is_set():
            entered.set()
            stuck.append(not release.wait(5))

    table.subscribe(slow)

    async def main() -> None:
        task = asyncio.create_task(drive_async(table))
        for _ in range(500):
            if entered.is_set():
                break
            await asyncio.sleep(0.01)
        assert entered.is_set(), "the table did not roll by itself"
        release.set()  # (the loop runs while the roll is being told)
        table.close()
        await asyncio.wait_for(task, 10)

    asyncio.run(main())
    assert stuck == [False]
    assert table.view().state.dice  # the roll was made, and kept


def test_the_async_driver_stops_when_the_table_closes(store: Any, factory: Any) -> None:
    table = new_table(store, factory, 7)

    async def main() -> None:
        task = asyncio.create_task(drive_async(table))
        await asyncio.sleep(0.05)
        table.close()
        await asyncio.wait_for(task, 5)

    asyncio.run(main())
    assert table.closed


def test_stop_ends_the_driver_before_what_is_due(store: Any) -> None:
    """A driver waits for what is due next (a turn clock of minutes); ``stop`` ends it
    then and there: a server that stops did not wait out a clock's turn."""
    table = Table.new(get("tommys-crag"), [Player("Ann"), Player("Bob")], store=store,
                      rng=random.Random(3), speed="instant", seats=SEATS,
                      meta={"clock": {"per_turn": 600}})

    async def main() -> None:
        stop = asyncio.Event()
        driver = asyncio.create_task(drive_async(table, stop=stop))
        await asyncio.sleep(0.1)
        due = table.due()
        assert due is not None and due.kind == "clock" and not driver.done()
        stop.set()
        await asyncio.wait_for(driver, 30)  # (it waited out the 600 s: the test failed)

    asyncio.run(main())
    assert not table.closed
