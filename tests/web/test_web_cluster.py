"""Several `yacht web` processes on one PostgreSQL database and one Redis: a table played
from both, races for one move, a driver killed mid-turn, Redis stopped and back.

The PostgreSQL server is the store tests' private cluster; Redis is a private
`redis-server` on a loopback port (skipped, saying so, where neither is installed).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "store"))

from pgcluster import PgCluster, find_pg_bin  # noqa: E402

from .socket_page import Page  # noqa: E402

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Redis:
    """A private redis-server: nothing saved, loopback only."""

    def __init__(self) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
        self.exe = exe
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="yacht-redis-")
        # (its folder goes with it: every run left one behind, 250 in /tmp after a day)
        weakref.finalize(self, shutil.rmtree, self.dir, True)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.dir], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


class Server:
    """One `yacht web` process."""

    def __init__(self, db: str, redis: str, tmp: Path, name: str) -> None:
        self.port = free_port()
        self.db, self.redis, self.name = db, redis, name
        self.log = tmp / f"{name}.log"
        self.env = dict(os.environ, YACHT_CACHE_DIR=str(tmp / "cache"),
                        YACHT_CONFIG_DIR=str(tmp / "cfg"))
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "yacht", "web", "--port", str(self.port), "--db",
                 self.db, "--redis", self.redis, "--log-level", "warning"],
                env=self.env, cwd=ROOT, stdout=log, stderr=log)
        deadline = time.monotonic() + 90  # a loaded machine takes its time to import
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=1)
                return
            except urllib.error.HTTPError:
                return  # answering (503: Redis may still be connecting)
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None

    def health(self) -> tuple[int, dict[str, Any]]:
        try:
            with urllib.request.urlopen(f"{self.base}/healthz", timeout=5) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.base}{path}", timeout=30) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(f"{self.base}{path}", json.dumps(body).encode(),
                                     method="POST", headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Redis]]:
    url = os.environ.get("YACHT_TEST_PG_URL", "").strip()
    pg = None
    if not url:
        bindir = find_pg_bin()
        if bindir is None:
            pytest.skip("PostgreSQL is not installed (no initdb/pg_ctl) and "
                        "YACHT_TEST_PG_URL is not set")
        pg = PgCluster(bindir)
        url = pg.start()
    redis = Redis()
    redis.start()
    try:
        yield url, redis
    finally:
        redis.stop()
        if pg is not None:
            pg.stop()


@pytest.fixture
def servers(cluster: tuple[str, Redis], tmp_path: Path) -> Iterator[list[Server]]:
    url, redis = cluster
    pair = [Server(url, redis.url, tmp_path, f"server{i}") for i in (1, 2)]
    try:
        for s in pair:
            s.start()
        yield pair
    finally:
        for s in pair:
            s.stop()


def friends_table(server: Server, seats: list[dict[str, Any]] | None = None
                  ) -> tuple[str, str]:
    made = server.post("/api/tables", {"variant": "tommys-crag", "speed": "fast",
                                       "seats": seats or [
                                           {"kind": "person", "name": "Ann", "here": True},
                                           {"kind": "person", "here": False}]})
    return made["id"], made["token"]


def test_two_processes_play_one_table_to_the_end(servers: list[Server]) -> None:
    one, two = servers
    table, token = friends_table(one)
    ann = Page(one, table, token)
    bob = Page(two, table, None)  # Bob's browser is on the other process
    bob_token = bob.answer(bob.send("join", seat=1, name="Bob"))["token"]
    watcher = Page(two, table, None)
    ann.wait(lambda t: t["phase"] == "game")
    pages = {0: ann, 1: Page(two, table, bob_token)}
    bob.close()
    for turn in range(26):  # Ann on one process, Bob on the other, in turn
        me = pages[turn % 2]
        s = me.wait(lambda t: t["snapshot"]["seat"]["my_turn"]
                    and not t["snapshot"]["dice"])["snapshot"]
        assert me.act({"type": "roll"}, s["version"])["type"] == "ack"
        box = me.snap["previews"][0]
        assert me.act({"type": "score", "category": box["category"]},
                      me.snap["version"])["type"] == "ack"
        # the watcher, on the other process, sees the score
        watcher.wait(lambda t, n=turn: sum(p["turns_taken"]
                                            for p in t["snapshot"]["players"]) > n)
    end = watcher.wait(lambda t: t["snapshot"]["over"])["snapshot"]
    assert end["players"][0]["turns_taken"] == end["players"][1]["turns_taken"] == 13
    assert ann.wait(lambda t: t["snapshot"]["over"])["snapshot"]["cards"] == end["cards"]
    for p in (ann, pages[1], watcher):
        p.close()


def test_a_player_at_the_other_process_shows_as_here(servers: list[Server]) -> None:
    """Ann's process counts Bob's browser at the other process as at the table (Redis
    carries who is where), and sees him go when his browser closes."""
    one, two = servers
    table, token = friends_table(one)
    ann = Page(one, table, token)
    bob = Page(two, table, None)
    bob.answer(bob.send("join", seat=1, name="Bob"))
    ann.wait(lambda t: t["phase"] == "game" and t["seats"][1]["connected"])
    assert ann.table["seats"][1]["absent"] is None
    bob.close()
    ann.wait(lambda t: not t["seats"][1]["connected"])
    ann.close()


def test_the_same_move_from_two_processes_is_accepted_once(servers: list[Server]) -> None:
    one, two = servers
    table, token = friends_table(one, [{"kind": "person", "name": "Ann", "here": True}])
    pages = [Page(one, table, token), Page(two, table, token)]  # one player, two windows
    accepted = 0
    rounds = 0
    for _ in range(200):
        for p in pages:
            p.wait(lambda t: t["phase"] == "game")
        # both windows at the same version, then the same move from both at once
        versions = [p.wait(lambda t, v=pages[0].snap["version"]:
                           t["snapshot"]["version"] >= v)["snapshot"]["version"] for p in pages]
        target = max(versions)
        for p in pages:
            p.wait(lambda t, v=target: t["snapshot"]["version"] >= v)
        if pages[0].snap["over"]:
            break
        s = pages[0].snap
        cmd: dict[str, Any] = ({"type": "roll"} if not s["dice"] else
                               {"type": "score", "category": s["previews"][0]["category"]})
        barrier = threading.Barrier(2)
        answers: list[dict[str, Any]] = [{}, {}]

        def send(i: int, cmd: dict[str, Any] = cmd, barrier: threading.Barrier = barrier,
                 answers: list[dict[str, Any]] = answers) -> None:
            barrier.wait()
            answers[i] = pages[i].act(cmd)

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        kinds = sorted(a.get("type", "") for a in answers)
        assert kinds == ["ack", "error"], answers  # exactly one of the two
        accepted += 1
        rounds += 1
        if s["turn"] == s["turns"] and s["dice"]:
            break
    assert rounds >= 20  # a whole game of races (26 moves) or 200
    from yacht.store import open_store

    with open_store(one.db) as store:
        actions = store.load_record(pages[0].snap["game_id"]).actions
    assert len(actions) == accepted  # every accepted move once, no refused one
    for p in pages:
        p.close()


def test_a_driver_killed_mid_turn_is_taken_over(servers: list[Server]) -> None:
    one, two = servers
    table, token = friends_table(one, [{"kind": "expert", "name": "Cpu1"},
                                       {"kind": "expert", "name": "Cpu2"}])
    watchers = [Page(one, table, None), Page(two, table, None)]
    watchers[0].wait(lambda t: t["phase"] == "game" and t["snapshot"]["version"] >= 3)
    # kill the process that holds the table's lease (it drives the computers) while a
    # computer's dice are showing, mid-turn; watch from the other
    driving = [s.health()[1]["driving"] for s in servers]
    assert sorted(driving) == [0, 1]  # one driver, never two
    victim, survivor = (one, watchers[1]) if driving[0] else (two, watchers[0])
    (watchers[0] if victim is one else watchers[1]).wait(
        lambda t: bool(t["snapshot"]["dice"]) and t["snapshot"]["turn"] > 2)
    at_kill = survivor.snap["version"]
    victim.kill()
    # the survivor takes the table over and plays on; then the host hurries it to the
    # end (the rest at the fast pace took most of this test's minute)
    survivor.wait(lambda t: t["snapshot"]["version"] >= at_kill + 3, timeout=60)
    host = Page(survivor.server, table, token)
    assert host.answer(host.send("speed", speed="instant"))["type"] in ("ack", "state")
    end = survivor.wait(lambda t: t["snapshot"]["over"], timeout=120)["snapshot"]
    assert [p["turns_taken"] for p in end["players"]] == [13, 13]
    # the record: every action once, in order, a game that replays
    from yacht.engine import Record
    from yacht.store import open_store

    with open_store(survivor.server.db) as store:
        record = store.load_record(end["game_id"])
    state = Record(record.variant, record.options, record.players, record.actions).final_state()
    assert state.is_terminal() and state.returns() == [p["total"] for p in end["players"]]
    survivor.close()
    host.close()


def test_redis_stopped_and_back(servers: list[Server], cluster: tuple[str, Redis]) -> None:
    _, redis = cluster
    one, two = servers
    table, token = friends_table(one)
    ann = Page(one, table, token)
    bob = Page(two, table, None)
    bob_token = bob.answer(bob.send("join", seat=1, name="Bob"))["token"]
    ann.wait(lambda t: t["phase"] == "game")
    assert ann.act({"type": "roll"})["type"] == "ack"
    redis.stop()
    try:
        status, body = one.health()
        assert status == 503 and "redis" in body["news"]
        # the game goes on: every move is saved, and the other process catches up
        assert ann.act({"type": "score", "category": ann.snap["previews"][0]["category"]},
                       )["type"] == "ack"
        watcher = Page(two, table, bob_token)
        watcher.wait(lambda t: t["snapshot"]["current"] == 1, timeout=30)
    finally:
        redis.start()
    for s in (one, two):  # (a busy machine may take a while: bounded in time)
        deadline = time.monotonic() + 30
        while s.health()[0] != 200 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert s.health()[0] == 200
    s2 = watcher.wait(lambda t: t["snapshot"]["seat"]["my_turn"])["snapshot"]
    assert watcher.act({"type": "roll"}, s2["version"])["type"] == "ack"
    ann.wait(lambda t: bool(t["snapshot"]["dice"]) and t["snapshot"]["current"] == 1)
    for p in (ann, bob, watcher):
        p.close()


def test_a_reaction_reaches_the_browsers_of_the_other_process(servers: list[Server]) -> None:
    one, two = servers
    table, token = friends_table(one)
    ann = Page(one, table, token)
    bob = Page(two, table, None)
    bob.answer(bob.send("join", seat=1, name="Bob"))
    watcher = Page(two, table, None)  # on the other process than Ann's
    ann.wait(lambda t: t["phase"] == "game")
    watcher.wait(lambda t: t["phase"] == "game")
    assert ann.answer(ann.send("react", reaction="luck"))["type"] == "ack"
    end = time.monotonic() + 30
    while True:
        msg = watcher.recv(max(0.1, end - time.monotonic()))
        if msg.get("type") == "reaction":
            break
    # the names are the other process's own reading of the table
    assert msg == {"type": "reaction", "reaction": "luck", "seats": [0], "names": ["Ann"]}
    for p in (ann, bob, watcher):
        p.close()


def test_a_clock_runs_out_once_with_two_processes(servers: list[Server]) -> None:
    """A 5-second clock and no one plays: the expert plays each turn that runs out, once,
    driven by the one process that holds the table's lease; the other shows it."""
    from yacht.engine import Record, Score
    from yacht.store import open_store

    one, two = servers
    made = one.post("/api/tables", {"variant": "tommys-crag", "speed": "fast",
                                    "clock": {"kind": "turn", "seconds": 5},
                                    "seats": [{"kind": "person", "name": "Ann", "here": True},
                                              {"kind": "person", "here": False}]})
    table = made["id"]
    ann = Page(one, table, made["token"])
    bob = Page(two, table, None)
    assert bob.answer(bob.send("join", seat=1, name="Bob"))["type"] == "joined"
    watchers = [Page(one, table, None), Page(two, table, None)]
    begun = time.monotonic()
    for w in watchers:
        w.wait(lambda t: t["phase"] == "game")
    assert sorted(s.health()[1]["driving"] for s in servers) == [0, 1]  # one, never two
    ends = []
    for n in (1, 2):  # Ann's turn, then Bob's, run out
        watchers[1].wait(lambda t, n=n: sum(p["turns_taken"]
                                            for p in t["snapshot"]["players"]) >= n, timeout=60)
        ends.append(time.monotonic() - begun)
    assert ends[0] >= 4.5 and ends[1] - ends[0] >= 4.5  # each turn had its 5 seconds
    cards = [w.wait(lambda t: sum(p["turns_taken"] for p in t["snapshot"]["players"]) >= 2)
             ["snapshot"] for w in watchers]
    assert [c["cards"][0]["played_by"][0]["by"] for c in cards] == ["clock", "clock"]
    with open_store(one.db) as store:
        record = store.load_record(cards[0]["game_id"])
    scored = [a for a in record.actions if isinstance(a, Score)]
    assert [a.by for a in scored[:2]] == ["clock", "clock"]
    state = Record(record.variant, record.options, record.players, record.actions).final_state()
    assert sum(state.turns_taken(i) for i in range(2)) == len(scored)  # every action once
    for p in (ann, bob, *watchers):
        p.close()


class Card(Page):
    """A browser's socket to a card of a duplicate table: it keeps the field messages,
    checking each (no card shown past the viewer's own finished turns)."""

    def __init__(self, server: Server, table: str, token: str | None) -> None:
        self.fields: list[dict[str, Any]] = []
        super().__init__(server, table, token)

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        msg = super().recv(timeout)
        if msg.get("type") == "field":
            if msg["end"] is None and msg["me"] is not None:
                mine = msg["cards"][msg["me"]]
                assert all(c["shown"] <= mine["done"] for c in msg["cards"]), msg
            self.fields.append(msg)
        return msg


def duplicate_of_two(one: Server, two: Server) -> tuple[dict[str, Any], str]:
    """A duplicate table made on ``one`` for Ann (here) and a seat still open, and the id
    of that open seat's card as ``two`` lists it."""
    made = one.post("/api/tables", {"variant": "tommys-crag", "speed": "fast",
                                    "dice": "duplicate", "seats": [
                                        {"kind": "person", "name": "Ann", "here": True},
                                        {"kind": "person", "here": False}]})
    bob_card = next(c["url"] for c in two.get(f"/api/groups/{made['group']}")["cards"]
                    if c["open"]).rsplit("/", 1)[-1]
    return made, bob_card


def test_a_duplicate_table_played_on_two_processes(servers: list[Server]) -> None:
    """Ann's card on one process, Bob's on the other: each hears the other's scores
    (a field message), never ahead of its own finished turns, and both end with the
    same ranking."""
    one, two = servers
    made, bob_card = duplicate_of_two(one, two)
    ann = Card(one, made["id"], made["token"])
    bob = Card(two, bob_card, None)  # Bob's browser is on the other process
    bob.answer(bob.send("join", seat=0, name="Bob"))
    bob.wait(lambda t: t["phase"] == "game")
    # a watcher of the field on Ann's process: Bob's scores are pushed to it as well
    watcher = connect(f"ws://127.0.0.1:{one.port}/ws/d/{made['group']}", open_timeout=10,
                      legacy=True)
    watcher.send(json.dumps({"type": "hello", "token": None}))
    watched: list[dict[str, Any]] = []

    def watched_when(pred: Any) -> dict[str, Any]:
        end = time.monotonic() + 30
        while not (watched and pred(watched[-1])):
            msg = json.loads(watcher.recv(max(0.1, end - time.monotonic())))
            assert msg["type"] == "field" and msg["me"] is None
            # never past the slowest player's finished turn
            assert msg["upto"] == min(c["done"] for c in msg["cards"]) or msg["end"]
            watched.append(msg)
        return watched[-1]

    def field_when(page: Card, pred: Any) -> dict[str, Any]:
        end = time.monotonic() + 30
        while not (page.fields and pred(page.fields[-1])):
            page.recv(max(0.1, end - time.monotonic()))
        return page.fields[-1]

    for turn in range(13):
        for page in (ann, bob):
            s = page.wait(lambda t: t["snapshot"]["seat"]["my_turn"]
                          and not t["snapshot"]["dice"])["snapshot"]
            assert page.act({"type": "roll"}, s["version"])["type"] == "ack"
            box = page.snap["previews"][0]
            assert page.act({"type": "score", "category": box["category"]},
                            page.snap["version"])["type"] == "ack"
        # each hears of the other's score on the other process
        field_when(ann, lambda m, n=turn: m["cards"][1]["done"] == n + 1)
        field_when(bob, lambda m, n=turn: m["cards"][0]["done"] == n + 1)
        if turn < 12:
            watched_when(lambda m, n=turn: m["upto"] == n + 1)
    a = field_when(ann, lambda m: m["end"] is not None)["end"]
    b = field_when(bob, lambda m: m["end"] is not None)["end"]
    assert a == b and a["expert"] is not None
    # the same choices on the same dice: the same totals
    assert a["ranking"][0]["total"] == a["ranking"][1]["total"]
    assert watched_when(lambda m: m["end"] is not None)["end"] == a
    watcher.close()
    for p in (ann, bob):
        p.close()


def test_a_card_started_and_scored_elsewhere_while_this_process_was_behind(
        servers: list[Server]) -> None:
    """Bob joins his card on the other process and scores while Ann's process hears
    nothing (stopped): it then learns of the start and the score together, resumes the
    card as stored (no score happens here to tell of), and Ann's field still shows it."""
    one, two = servers
    made, bob_card = duplicate_of_two(one, two)
    ann = Card(one, made["id"], made["token"])  # Bob's card is loaded on her process
    assert one.proc is not None
    os.kill(one.proc.pid, signal.SIGSTOP)
    try:
        bob = Card(two, bob_card, None)
        bob.answer(bob.send("join", seat=0, name="Bob"))
        s = bob.wait(lambda t: t["phase"] == "game" and t["snapshot"]["seat"]["my_turn"]
                     and not t["snapshot"]["dice"])["snapshot"]
        assert bob.act({"type": "roll"}, s["version"])["type"] == "ack"
        box = bob.snap["previews"][0]
        assert bob.act({"type": "score", "category": box["category"]},
                       bob.snap["version"])["type"] == "ack"
    finally:
        os.kill(one.proc.pid, signal.SIGCONT)
    end = time.monotonic() + 20
    while not (ann.fields and ann.fields[-1]["cards"][1]["done"] == 1):
        ann.recv(max(0.1, end - time.monotonic()))
    field = ann.fields[-1]
    assert field["cards"][1]["name"] == "Bob" and not field["cards"][1]["open"]
    assert field["cards"][1]["shown"] == 0  # (Ann has finished no turn yet)
    for p in (ann, bob):
        p.close()


def test_news_published_at_once_goes_in_one_batch_and_in_order() -> None:
    """What one turn of the loop publishes goes to Redis in one pipeline, not a round trip
    a message; every message arrives, each table's in the order it was sent; with Redis
    gone a publish says it failed (its caller sends it again), and works once it is back."""
    import asyncio

    from yacht.web.news import RedisNews

    redis = Redis()
    redis.start()

    async def main() -> None:
        sender, hearer = RedisNews(redis.url), RedisNews(redis.url)
        heard: dict[str, list[int]] = {}
        got_all = asyncio.Event()

        async def listener(table_id: str, body: dict[str, Any]) -> None:
            heard.setdefault(table_id, []).append(body["n"])
            if sum(map(len, heard.values())) == 20 * 10:
                got_all.set()

        pipelines = 0
        made = sender.client.pipeline

        def counting(*args: Any, **kwargs: Any) -> Any:
            nonlocal pipelines
            pipelines += 1
            return made(*args, **kwargs)

        sender.client.pipeline = counting  # type: ignore[method-assign]
        await hearer.start(listener)
        tables = [f"t{i:02}" for i in range(20)]
        for t in tables:
            await hearer.follow(t)
        for _ in range(100):  # (subscribed once the listener has connected)
            if hearer.ok and hearer.pubsub is not None and \
                    len(hearer.pubsub.channels) > len(tables):
                break
            await asyncio.sleep(0.05)

        async def table_news(t: str) -> list[bool]:
            return [await sender.publish(t, {"kind": "changed", "n": n}) for n in range(10)]

        sent = await asyncio.gather(*(table_news(t) for t in tables))
        assert all(all(s) for s in sent)
        await asyncio.wait_for(got_all.wait(), 10)
        assert heard == {t: list(range(10)) for t in tables}
        assert 1 <= pipelines <= 10 * 2  # (one a round, not one a message: 200 were sent)

        redis.stop()
        assert await sender.publish("t00", {"kind": "changed", "n": 99}) is False
        assert sender.failed >= 1
        redis.start()
        for _ in range(100):
            if await sender.publish("t00", {"kind": "changed", "n": 100}):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("publishing did not work again with Redis back")
        await sender.close()
        await hearer.close()

    try:
        asyncio.run(main())
    finally:
        redis.stop()
