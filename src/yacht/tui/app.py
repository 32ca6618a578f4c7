"""The application: opens the store, remembers the setup, moves between the screens."""

from __future__ import annotations

import gc
import random
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.keys import format_key
from textual.notifications import SeverityLevel

from yacht.session import (
    SPEEDS,
    Config,
    Launch,
    PlayerSpec,
    SessionError,
    demo_players,
    load_config,
    open_store_for_games,
    open_table,
    save_config,
    upgrade_note,
)
from yacht.session.game import StoreLike, StrategyFactory, players_from_specs
from yacht.session.table import Table

__all__ = ["Launch", "YachtApp", "key_display"]

#: keys whose names are shown in words of our own (as the help and the buttons say them)
KEY_NAMES = {"escape": "Esc", "enter": "Enter", "tab": "Tab", "space": "Space",
             "backspace": "Backspace", "delete": "Del", "insert": "Ins", "home": "Home",
             "end": "End", "pageup": "PgUp", "pagedown": "PgDn"}


def key_display(key: str) -> str:
    """A key as every key bar shows it, in the words of the help and the buttons: function
    keys as F5, Esc, Ctrl+Q, a letter as the letter typed.

    >>> [key_display(k) for k in ("f5", "escape", "ctrl+q", "r", "question_mark", "plus")]
    ['F5', 'Esc', 'Ctrl+Q', 'r', '?', '+']
    >>> key_display("shift+f12"), key_display("pagedown")
    ('Shift+F12', 'PgDn')
    """
    *modifiers, name = key.split("+") if key != "+" else [key]
    if name in KEY_NAMES:
        shown = KEY_NAMES[name]
    elif len(name) in (2, 3) and name[0] == "f" and name[1:].isdigit():
        shown = name.upper()
    else:
        shown = format_key(name)
        if modifiers and len(shown) == 1:
            shown = shown.upper()  # (Ctrl+Q, as the setup's button says it)
    return "".join(f"{m.capitalize()}+" for m in modifiers) + shown


class YachtApp(App[int]):
    """Yacht: the whole dice family in the terminal."""

    TITLE = "Yacht"
    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+c", "quit_now", "Quit", show=False, priority=True),
    ]

    def __init__(self, launch: Launch | None = None, *, store: StoreLike | None = None,
                 open_store: bool = True, strategy_factory: StrategyFactory | None = None,
                 rng: random.Random | None = None) -> None:
        super().__init__()
        self.launch = launch or Launch()
        self.store: StoreLike | None = store
        self._open_store = open_store and store is None
        self.strategy_factory = strategy_factory
        self.rng = rng
        self.config: Config = load_config()
        if self.launch.speed:
            self.config.speed = self.launch.speed
        if self.launch.sound is not None:
            self.config.sound = self.launch.sound
        self.store_problem: str | None = None
        self.store_note: str | None = None  # (an older file upgraded as it was opened)
        self.offered = False  # saved games were offered already
        self.gc_paused = False  # make_app() paused the cycle collector until the first paint

    def get_key_display(self, binding: Binding) -> str:
        """Every key bar's keys in one style (Textual's own showed 'f5' and 'esc', the
        help and the buttons say 'F5' and 'Esc'); a binding's own ``key_display`` (as
        '+/-') is kept."""
        return binding.key_display or key_display(binding.key)

    # --- start ------------------------------------------------------------------
    def on_mount(self) -> None:
        self.tables: list[Table] = []  # games started before the store was open
        self.store_ready = not self._open_store
        self.set_timer(1.5, self.first_screen_drawn)  # a backstop: it is called once drawn
        la = self.launch
        if la.resume:
            if self.store_ready:
                self.after_store()
            else:
                self.open_store_in_background()
            return  # after_store() resumes it
        # the first screen once the app is up: a screen mounted now (in the app's own
        # mount, a batch of updates) is drawn once for nothing and once for real
        self.call_later(self.first_screen)

    def first_screen(self) -> None:
        if not (self.launch.direct and self.start_from_launch()):
            self.show_setup()
        if self.store_ready:
            self.after_store()
        else:
            # opening the store (SQLAlchemy, migrations) takes a while and holds the
            # interpreter: the first screen is drawn first (it calls first_screen_drawn),
            # then the store joins
            self._store_pending = True

    def first_screen_drawn(self) -> None:
        """The first screen is on the terminal: the rest of the start may take its time."""
        self.resume_gc()
        if getattr(self, "_store_pending", False):
            self._store_pending = False
            self.open_store_in_background()

    def resume_gc(self) -> None:
        if self.gc_paused:
            self.gc_paused = False
            gc.enable()

    def open_store_in_background(self) -> None:
        self.run_worker(self._open_store_in_thread, thread=True, group="store")

    def _open_store_in_thread(self) -> None:
        store, problem = open_store_for_games()
        note = upgrade_note(store)
        # the saved games to offer are read here too (each one played back for its points;
        # a problem is told from the app's thread, which reads them again)
        games = None
        if store is not None and not self.launch.resume:
            try:
                games = self.unfinished(store)
            except Exception:
                games = None
        self.call_from_thread(self._store_opened, store, problem, games, note)

    def _store_opened(self, store: StoreLike | None, problem: str | None,
                      games: list[Any] | None, note: str | None = None) -> None:
        self.store = store
        self.store_problem = problem
        self.store_note = note
        self.store_ready = True
        self.after_store(games)

    def after_store(self, games: list[Any] | None = None) -> None:
        """The store is open (or cannot be): save running games, resume, offer saved ones
        (``games``: read already, see :meth:`unfinished`)."""
        from .screens.setup import SetupScreen

        if self.store_problem:
            self.notify(self.store_problem, severity="warning", timeout=8, markup=False)
        if self.store_note:  # (said once: the next opening finds the file upgraded)
            self.notify(self.store_note, timeout=10, markup=False)
        if self.store is not None:
            for table in self.tables:
                table.attach_store(self.store)
        self.tables = []
        if self.launch.resume:
            game_id, self.launch.resume = self.launch.resume, None
            if not self.resume_game(game_id):
                self.show_setup()
            return
        if isinstance(self.screen, SetupScreen) and not self.offered:
            self.offered = True
            if games is None:
                try:
                    games = self.unfinished(self.store)
                except Exception as e:
                    self.notify(f"cannot list saved games: {e}", severity="warning",
                                markup=False)
            if games:
                from .screens.resume import ResumeScreen

                self.push_screen(ResumeScreen(games))

    def unfinished(self, store: Any) -> list[tuple[Any, list[int] | None]]:
        """The 20 unfinished games last played, each with its points so far (from any
        thread); raises what the store raises."""
        from yacht.render import saved_games

        return saved_games(store, 20) if store is not None else []

    def start_from_launch(self) -> bool:
        la = self.launch
        cfg = self.config
        variant = la.variant or cfg.variant
        players = la.players or cfg.players
        if la.demo:
            players = demo_players(la.players)
        options = la.options or cfg.options.get(variant, {})
        return self.start_game(variant, options, players)

    def show_setup(self) -> None:
        from .screens.setup import SetupScreen

        self.switch_or_push(SetupScreen())

    def switch_or_push(self, screen: Any) -> None:
        # keep exactly one screen over the default one
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    # --- games ------------------------------------------------------------------
    def new_rng(self) -> random.Random | None:
        """The dice's generator when one was given (tests, ``--seed``); None: the game's
        own secret seed (dice anyone can check after the game)."""
        if self.rng is not None:
            return self.rng
        if self.launch.seed is not None:
            return random.Random(self.launch.seed)
        return None

    def start_game(self, variant: str, options: dict[str, str],
                   players: list[PlayerSpec]) -> bool:
        """Start a new game and show the table; False (and a message) if it cannot start."""
        try:
            table = open_table(self.store, source="tui", variant=variant, options=options,
                               players=players_from_specs(players), rng=self.new_rng(),
                               strategy_factory=self.strategy_factory, speed=self.config.speed,
                               pause_between_people=self.pause_between(players),
                               auto_roll=self.config.auto_roll,
                               # (kept with the game: a resumed game goes on at its speed)
                               meta={"speed": self.config.speed})
        except SessionError as e:
            self.notify(str(e), severity="error", markup=False)
            return False
        if not getattr(self, "store_ready", True):
            self.tables.append(table)
        self.last_start = (variant, dict(options), list(players))
        self.show_game(table)
        return True

    def pause_between(self, players: list[PlayerSpec]) -> bool:
        """The Next player pause between people, when two or more share the screen (the
        setup's choice, on by default)."""
        people = sum(1 for p in players if not p.is_computer)
        return self.config.next_player_pause and people >= 2

    def play_again(self) -> None:
        start = getattr(self, "last_start", None)
        if start is None or not self.start_game(*start):
            self.show_setup()

    def resume_game(self, game_id: str) -> bool:
        try:
            table = open_table(self.store, source="tui", resume=game_id, rng=self.new_rng(),
                               strategy_factory=self.strategy_factory,
                               speed=self.config.speed, auto_roll=self.config.auto_roll,
                               to_play=True, store_problem=self.store_problem)
        except SessionError as e:
            self.notify(str(e), severity="error", markup=False)
            return False
        # (the store keeps the game, not how this screen goes from turn to turn)
        table.pause_between_people = self.pause_between(
            [PlayerSpec.of(p) for p in table.players])
        kept = table.meta.get("speed")
        if not self.launch.speed and kept in SPEEDS and kept != self.config.speed:
            # the speed the game was played at (yacht play --speed slow, or the setup's
            # then), unless --speed says otherwise now; it went on at the setup's speed
            self.config.speed = kept
            table.set_speed(kept)
        rs = table.ruleset
        self.last_start = (rs.id, dict(rs.option_values),
                           [PlayerSpec.of(p) for p in table.players])
        self.show_game(table)
        return True

    def show_game(self, table: Table) -> None:
        from .screens.game import GameScreen

        self.switch_or_push(GameScreen(table))

    def show_end(self, table: Table) -> None:
        from .screens.end import EndScreen

        self.switch_or_push(EndScreen(table))

    def remember(self, config: Config) -> None:
        self.config = config
        problem = save_config(config)
        if problem:
            self.notify(problem, severity="warning", markup=False)

    def run(self, *args: Any, **kwargs: Any) -> int | None:
        """The game in this terminal, as large as the terminal is: ``COLUMNS`` and
        ``LINES`` in the environment (exported by some shells, or left by whatever
        started the game) made rich take them over the terminal's own size, so a
        window of 45x14 was drawn as 80x24, its top scrolled away and its key bar
        cut (QA s25: a real terminal, tmux, with LINES=24)."""
        import os

        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)
        return super().run(*args, **kwargs)

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = True) -> None:
        """One message at a time: a new one replaces the last (a fast typist's refusals,
        a key pressed again and again, do not pile up over the card)."""
        self.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    # --- sound ------------------------------------------------------------------
    def sound(self) -> None:
        if self.config.sound:
            self.bell()

    def toggle_sound(self) -> None:
        self.config.sound = not self.config.sound
        save_config(self.config)
        self.notify("Sound on" if self.config.sound else "Sound off", timeout=2)

    def closing_words(self) -> str | None:
        """How to go on with the game under way, for the terminal once the app has ended
        (the game screen's words), or None."""
        for screen in reversed(self.screen_stack):
            words = getattr(screen, "closing_words", None)
            if words is not None:
                return words()  # type: ignore[no-any-return]
        return None

    def action_quit_now(self) -> None:
        """Ctrl+C: at once, with the way back to the game (as q says it)."""
        self.exit(0, message=self.closing_words())

    async def action_quit(self) -> None:
        """Ctrl+Q (Textual's own key): as Ctrl+C."""
        self.action_quit_now()

    def on_unmount(self) -> None:
        self.resume_gc()
        st: Any = self.store
        if self._open_store and st is not None:
            try:
                st.close()
            except Exception:
                pass

