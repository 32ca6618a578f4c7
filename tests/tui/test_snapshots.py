"""SVG snapshots of the main screens at 80x24 and 120x40 (seeded, date-free)."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import fast_forward, game, random_players, settle, until

from yacht.session import Config, Launch, PlayerSpec, save_config
from yacht.tui import YachtApp, make_app
from yacht.tui.screens.end import EndScreen
from yacht.tui.screens.topten import TopTenScreen

SIZES = [(80, 24), (120, 40)]
FIXED = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)


class FixedDates:
    """The real store, with every high-score date shown as one fixed day."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def finish_game(self, game_id: str, state: Any) -> list[Any]:
        return [dataclasses.replace(e, date=FIXED)
                for e in self.store.finish_game(game_id, state)]

    def top_ten(self, ruleset: Any, assisted: bool = False) -> list[Any]:
        return [dataclasses.replace(e, date=FIXED)
                for e in self.store.top_ten(ruleset, assisted)]


def build(store: Any, launch: Launch | None = None, seed: int = 1) -> YachtApp:
    app = make_app(launch, store=FixedDates(store), strategy_factory=random_players,
                   rng=random.Random(seed))
    app.config.speed = "instant"
    app.config.sound = False
    return app


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_setup_screen(snap_compare: Any, store: Any, size: tuple[int, int]) -> None:
    save_config(Config(variant="yahtzee", players=[PlayerSpec("Ann"),
                                                   PlayerSpec("Max", "expert")],
                       sound=False))

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(build(store), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_table_mid_turn(snap_compare: Any, store: Any, size: tuple[int, int]) -> None:
    launch = Launch(variant="yahtzee", players=[PlayerSpec("Ann"), PlayerSpec("Bob")])

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        # Ann: Chance; the Next player pause; Bob rolls, picks two dice
        await pilot.press("r", "v", "enter", "r", "1", "3")
        await settle(pilot)

    assert snap_compare(build(store, launch, seed=5), terminal_size=size, run_before=before)


#: the players of the small-screen snapshots: people and computers, long names too
PLAYERS = {1: ["Ann"], 4: ["Ann", "Bob", "Cyd", "Expert=expert"],
           8: ["Ann", "Bob", "Cyd", "Dan", "Intermediate=intermediate", "Expert=expert", "Eve",
               "Beginner=beginner"]}
#: a 5-dice game and a 10-dice two-column game
GAMES = ["yahtzee", "ancient-yacht-10-double"]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", sorted(PLAYERS), ids=lambda n: f"{n}p")
@pytest.mark.parametrize("variant", GAMES)
def test_table_at_each_size(snap_compare: Any, store: Any, size: tuple[int, int],
                            count: int, variant: str) -> None:
    """Every card, the totals and whose turn it is, on a small and a big terminal."""
    players = [PlayerSpec(*n.split("=")) for n in PLAYERS[count]]
    launch = Launch(variant=variant, players=players)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r", "1")  # Ann's first roll, a die chosen: the previews show
        await settle(pilot)

    assert snap_compare(build(store, launch, seed=4), terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_end_screen(snap_compare: Any, store: Any, size: tuple[int, int]) -> None:
    from yacht.rules import get
    from yacht.session import category_keys

    last = list(category_keys(get("tommys-crag")).values())[-1]
    launch = Launch(variant="tommys-crag", players=[PlayerSpec("Ann")])

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        fast_forward(game(pilot))
        await pilot.press("r", last, "enter")
        await settle(pilot)

    assert snap_compare(build(store, launch, seed=3), terminal_size=size, run_before=before)


def test_help_screen(snap_compare: Any, store: Any) -> None:
    launch = Launch(variant="tommys-crag", players=[PlayerSpec("Ann")])

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(build(store, launch), terminal_size=(80, 24), run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_end_of_eight_players(snap_compare: Any, store: Any, size: tuple[int, int]) -> None:
    """The winner, every total and every comment; the top ten on its own page."""
    players = [PlayerSpec(*n.split("=")) for n in PLAYERS[8]]
    launch = Launch(variant="yahtzee", players=players)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        play_to_the_end(game(pilot))
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(build(store, launch, seed=6), terminal_size=size, run_before=before)


def test_top_ten_page(snap_compare: Any, store: Any) -> None:
    launch = Launch(variant="tommys-crag", players=[PlayerSpec("Ann")])

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        fast_forward(game(pilot), leave=0)
        game(pilot).go_on()
        await until(pilot, lambda: isinstance(pilot.app.screen, EndScreen)
                    and pilot.app.screen.query("#result"))
        await pilot.press("t")
        await until(pilot, lambda: isinstance(pilot.app.screen, TopTenScreen))

    assert snap_compare(build(store, launch, seed=3), terminal_size=(80, 24),
                        run_before=before)


def play_to_the_end(screen: Any) -> None:
    """People score their first open box, computers play (at once: speed instant)."""
    from yacht.engine import Roll, Score
    from yacht.session.commands import GoOn
    from yacht.session.table import LOCAL

    table = screen.table
    while not table.view().over:
        view = table.view()
        if view.pause is not None:
            table.act(LOCAL, GoOn())
        elif view.computer_turn:
            table.run_due()
        else:
            table.act(LOCAL, Roll())
            first = table.view().state.placements()[0]
            table.act(LOCAL, Score(first.category, first.column))
    screen.refresh_all()


@pytest.mark.parametrize("variant", ["maxi-yatzy", "kismet", "generala"])
def test_four_players_beyond_the_seeds_at_80x24(snap_compare: Any, store: Any,
                                                variant: str) -> None:
    """Every box of every card in view at 80x24: Maxi Yatzy's twenty folded in two halves
    beside its six dice, Kismet's without the lower total."""
    # (no expert: its tables for these variants take minutes to make in a fresh cache)
    players = [PlayerSpec(*n.split("=")) for n in ["Ann", "Bob", "Cyd", "Cpu=intermediate"]]
    launch = Launch(variant=variant, players=players)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r", "1")
        await settle(pilot)

    assert snap_compare(build(store, launch, seed=4), terminal_size=(80, 24),
                        run_before=before)
