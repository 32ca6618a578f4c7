"""Fuzz: random keys and clicks in every state of every variant never crash the game.

Seeded, so a failure names its seed and can be replayed. After every few keys
the game on screen must still replay from its own record (and from the store
when it is saved) to exactly the state shown.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import fast_forward, quick_waits, run, settle

from yacht.engine import Record
from yacht.rules import Ruleset, all_variants
from yacht.session import Launch, PlayerSpec, category_keys
from yacht.tui import YachtApp
from yacht.tui.screens.game import GameScreen

App = Callable[..., YachtApp]


@pytest.fixture(autouse=True)
def _quick_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    quick_waits(monkeypatch)


#: the game's own keys (see KEYS_HELP and the screens' bindings)
KEYMAP: list[str] = [
    "r", "a", "s", "n", "o", "h", "b", "plus", "minus", "question_mark", "f1", "escape", "q",
    "p", "enter", "space", "tab", "shift+tab", "left", "right", "up", "down", "f2", "f3", "f4",
    "f5", *"1234567890"]
JUNK: list[str] = [
    *"cdgijklmtuvwxyzECGKLMQRXYZ", "exclamation_mark", "at", "number_sign", "comma",
    "full_stop", "slash", "backslash", "semicolon", "apostrophe", "equals_sign", "underscore",
    "asterisk", "left_square_bracket", "home", "end", "pageup", "pagedown", "delete",
    "backspace", "insert", "ctrl+a", "ctrl+e", "ctrl+k", "ctrl+s", "ctrl+z", "ctrl+x", "ctrl+v",
    "ctrl+l", "ctrl+r", "ctrl+up", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "shift+up",
    "shift+left", "alt+x"]
#: rare: they end the app (checked to end it cleanly)
ENDING = ["ctrl+c", "ctrl+q"]


def pick_key(rng: random.Random, rs: Ruleset) -> str:
    letters = list(category_keys(rs).values())
    roll = rng.random()
    if roll < 0.004:
        return rng.choice(ENDING)
    if roll < 0.30:
        letter = rng.choice(letters)
        return letter.upper() if rng.random() < 0.25 else letter
    if roll < 0.80:
        return rng.choice(KEYMAP)
    return rng.choice(JUNK)


def check_consistent(app: YachtApp, store: Any) -> None:
    """The game on screen replays from its record (and from the store when saved): the
    game's table, on the game's screen or the end's."""
    table = getattr(app.screen, "table", None)
    if table is None:
        return
    session = table._game
    st = session.state
    for state in [Record.from_state(st).final_state()] + (
            [store.load_record(session.game_id).final_state()]
            if session.saved and session.store is store else []):
        assert state.log == st.log
        assert [state.card(i) for i in range(len(st.players))] == \
            [st.card(i) for i in range(len(st.players))]
        assert (state.current, state.dice, state.chosen, state.rolls) == \
            (st.current, st.dice, st.chosen, st.rolls)
        assert state.is_terminal() == st.is_terminal()


def forwardable(screen: GameScreen) -> bool:
    """The person's game may be played on through the table (see fast_forward): not over,
    not in a pause, and not a demo (a click or a key may start one: the computer then
    plays every seat and the table refuses the person's moves)."""
    return (screen.app.screen is screen and not screen.table._game.is_over()
            and not screen.paused and not screen.table.view().taken_over)


def launch_for(rs: Ruleset, rng: random.Random) -> Launch | None:
    """Half the runs start at the setup screen, half straight in a game."""
    if rng.random() < 0.4:
        return None
    players = [PlayerSpec("Ann")]
    if rng.random() < 0.5:
        players.append(PlayerSpec("Cpu", "beginner"))
    return Launch(variant=rs.id, players=players)


async def fuzz_keys(pilot: Pilot[Any], app: YachtApp, store: Any, rs: Ruleset,
                    rng: random.Random, budget: int) -> int:
    """Press up to ``budget`` keys; returns how many were pressed (fewer if the app ended)."""
    pressed = 0
    while pressed < budget:
        screen = app.screen
        if (isinstance(screen, GameScreen) and rng.random() < 0.03
                and len(screen.table._game.players) == 1):
            await settle(pilot)
            if forwardable(screen):
                fast_forward(screen, leave=rng.choice((1, 2)))  # to the end game quickly
        key = pick_key(rng, rs)
        await pilot.press(key)
        pressed += 1
        if app.config.speed != "instant":  # + and - change it: keep the test quick
            app.config.speed = "instant"
        if not app.is_running:
            break
        if pressed % 10 == 0:
            await settle(pilot)
            check_consistent(app, store)
    return pressed


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@run
async def test_random_keys_never_crash(new_app: App, store: Any, rs: Ruleset) -> None:
    seed = sum(map(ord, rs.id))
    rng = random.Random(seed)
    left = 80
    while left > 0:
        app = new_app(launch_for(rs, rng), seed=rng.randrange(1000))
        async with app.run_test(size=rng.choice([(80, 24), (120, 40)])) as pilot:
            await settle(pilot)
            left -= await fuzz_keys(pilot, app, store, rs, rng, left)
            if app.is_running:
                await settle(pilot)
                check_consistent(app, store)
        assert app.return_code in (None, 0), f"seed {seed}: return code {app.return_code}"


@pytest.mark.parametrize("variant", ["tommys-yacht", "ancient-yacht-10-double",
                                     "tommys-yahtzee"])
@run
@pytest.mark.slow
async def test_random_clicks_never_crash(new_app: App, store: Any, variant: str) -> None:
    seed = sum(map(ord, variant)) + 1
    rng = random.Random(seed)
    size = rng.choice([(80, 24), (120, 40)])
    app = new_app(Launch(variant=variant, players=[PlayerSpec("Ann")]), seed=seed)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for n in range(50):
            screen = app.screen
            if isinstance(screen, GameScreen) and rng.random() < 0.03:
                await settle(pilot)
                if forwardable(screen):
                    fast_forward(screen, leave=1)
            await pilot.click(offset=(rng.randrange(size[0]), rng.randrange(size[1])))
            if not app.is_running:
                break
            if n % 10 == 0:
                await settle(pilot)
                check_consistent(app, store)
    assert app.return_code in (None, 0), f"seed {seed}: return code {app.return_code}"
