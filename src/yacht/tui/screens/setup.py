"""The setup: variant and its options, the players, demo mode, speed and sound."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Static

from yacht.engine import DEFAULT_LEVEL, NAME_LENGTH
from yacht.parsing import InputError, check_names
from yacht.render import is_you, variant_title
from yacht.rules import MAX_PLAYERS, Ruleset, all_variants, get
from yacht.session import KINDS, SPEEDS, Config, PlayerSpec, demo_players
from yacht.session.config import DICE_MARK_SETTINGS
from yacht.session.present import DICE_MARK_LABEL, dice_mark_words

from ..widgets.choice import Choice
from ..widgets.keybar import KeyBar
from .base import AppScreen

if TYPE_CHECKING:
    pass

__all__ = ["SetupScreen"]

KIND_LABELS = {kind: "Person" if kind == "person" else f"Computer: {kind}" for kind in KINDS}


def dice_mark_choices(rs: Ruleset) -> list[tuple[str, str]]:
    """The setting of what a click on a die does, its first value saying what the variant
    does ("as the variant does (holds it)")."""
    return [(dice_mark_words(k, rs.dice_mark), k) for k in DICE_MARK_SETTINGS]


def computer_name(i: int, taken: set[str]) -> str:
    """A name for seat ``i`` played by a computer, none of ``taken`` (casefolded)."""
    return next(name for name in ("Computer", f"Computer {i + 1}", f"Player {i + 1}",
                                  f"Computer {i + 1}b")
                if name.casefold() not in taken)


#: the title of the screen (a narrow window adds where the rest of the form is)
TITLE = " Yacht - a new game"
#: below this width (a tiny window) the buttons' words are shorter (the form's 41
#: columns at 45: nothing runs off the right edge)
TINY = 60
#: the buttons' words: in a tiny window, and else
BUTTON_WORDS = {"add": ("+ Player", "+ Player (F3)"), "remove": ("- Player", "- Player (F4)"),
                "quit": ("Quit (^Q)", "Quit (Ctrl+Q)")}


def players_head(narrow: bool) -> str:
    """The heading of the players (the buttons beside it: shorter in a narrow window)."""
    return f"Players (1-{MAX_PLAYERS})" + ("" if narrow else ": a name and a kind each")


class Tick(Checkbox):
    """A checkbox whose mark is drawn only when it is on (Textual's draws its X either
    way, in another colour: the same without colour, or to a colour-blind player).
    ``short``: its words in a narrow window, ``tiny`` in a tiny one (a checkbox's label
    does not wrap)."""

    def __init__(self, label: str, value: bool, *, short: str = "", tiny: str = "",
                 id: str | None = None, compact: bool = False) -> None:
        super().__init__(label, value, id=id, compact=compact)
        self.long = label
        self.short = short or label
        self.tiny = tiny or self.short

    def fit(self, narrow: bool, tiny: bool = False) -> None:
        """The short words in a narrow window, the shortest in a tiny one, else the whole
        ones."""
        words = self.tiny if tiny else self.short if narrow else self.long
        if str(self.label) != words:
            self.label = words

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "X" if self.value else " "
        return super()._button


class SetupScreen(AppScreen):
    """Choose the game; the choices are remembered for the next time."""

    #: below 80 columns the form is narrower: its labels column, the dice setting under
    #: the speed, a checkbox a line, their shorter words (nothing runs off the right edge)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-roomy")]
    #: on_mount focuses the Start button. (Textual's own first focus went to the first focusable
    #: widget - a scrolling container - and styled all of it again before the first paint.)
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("f5", "start", "Start"),
        Binding("ctrl+s", "start", "Start", show=False),
        Binding("f2", "toggle_demo", "Demo"),
        Binding("f3", "add_player", "+ Player"),
        Binding("f4", "remove_player", "- Player"),
        Binding("f1", "help", "Rules"),
        Binding("f6", "top_ten", "Top ten"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.count = 1
        self.shown_variant: str | None = None
        self._title = TITLE

    def compose(self) -> ComposeResult:
        cfg: Config = self.yacht_app.config
        variants = all_variants()
        ids = [rs.id for rs in variants]
        variant = cfg.variant if cfg.variant in ids else "yahtzee"
        self.count = len(cfg.players)
        yield Static(TITLE, id="title", markup=False)
        # compact (no blank line but before the players and before the table's settings):
        # the variant with the most options and up to six players fit 80x24; more say so
        with VerticalScroll(id="setup") as scroll:
            scroll.can_focus = False  # the controls take the focus; no Tab stop unseen
            with Horizontal(classes="row"):
                yield Label("Variant", classes="field")
                yield Choice([(rs.name, rs.id) for rs in variants], variant, id="variant")
            yield Static(get(variant).description, id="description")
            # the options of the remembered variant are built with the screen (no
            # second layout before the first paint); another variant's on change
            self.shown_variant = variant
            yield Vertical(*self.option_rows(get(variant)), id="options")
            with Horizontal(classes="row gap", id="player-buttons"):
                yield Label(players_head(False), id="players-head")
                yield Button("+ Player (F3)", id="add", compact=True)
                yield Button("- Player (F4)", id="remove", compact=True)
            # only the seats in use: a row is built when a player is added (a quick start)
            yield Vertical(*[self.player_row(i) for i in range(self.count)], id="seats")
            with Horizontal(classes="row gap", id="speed-row"):
                with Horizontal(classes="part"):
                    yield Label("Computer speed", classes="field")
                    yield Choice([(k.capitalize(), k) for k in SPEEDS], cfg.speed,
                                 id="speed")
                # (what a click on a die does: the variant's way, or the player's)
                with Horizontal(classes="part"):
                    yield Label(DICE_MARK_LABEL, id="dice-mark-label")
                    yield Choice(dice_mark_choices(get(variant)), cfg.dice_mark,
                                 id="dice-mark")
            with Horizontal(classes="row ticks"):
                yield Tick("Demo: computers play every seat (F2)", cfg.demo, id="demo",
                           compact=True)
                yield Tick("Sound: bell on roll and score", cfg.sound, id="sound",
                           compact=True)
            yield Tick("Next player pause between two people (as Ancient Yacht)",
                       cfg.next_player_pause, short="Next player pause between two people",
                       id="pause", compact=True)
            yield Tick("Next player pause after a score, before a computer plays (time "
                       "for Oops)", cfg.computer_pause,
                       short="Next player pause before a computer plays",
                       tiny="Next player pause before computers",
                       id="computer-pause", compact=True)
            yield Tick("Roll at the start of each turn by itself (as Windows Yacht and "
                       "Yatsee)", cfg.auto_roll, short="Roll at the start of each turn by itself",
                       tiny="Roll by itself when a turn starts",
                       id="auto-roll", compact=True)
        # under the form, always on the screen: Start has the focus (Enter starts)
        with Horizontal(id="setup-buttons", classes="buttons"):
            yield Button("Start (F5)", id="start", variant="primary", compact=True)
            yield Button("Top ten (F6)", id="topten-button", compact=True)
            yield Button("Quit (Ctrl+Q)", id="quit", variant="error", compact=True)
            # when the form is longer than the window: where the rest is
            yield Static("", id="more", markup=False)
        # every key on the bar: on two lines when one is not enough (F3 and F4 are said
        # nowhere else in a narrow window, the buttons' words being short there)
        yield KeyBar(lines=2)

    def player_row(self, i: int) -> Horizontal:
        """Seat ``i``: its number, the name and the kind (person or a computer level)."""
        cfg = self.yacht_app.config
        spec = cfg.players[i] if i < len(cfg.players) else PlayerSpec(
            f"Player {i + 1}", "person" if i == 0 else DEFAULT_LEVEL)
        return Horizontal(
            Label(f"{i + 1}.", classes="num"),
            Input(spec.name, max_length=NAME_LENGTH, id=f"name-{i}",
                  placeholder=f"Player {i + 1}", compact=True),
            Choice([(KIND_LABELS[k], k) for k in KINDS], spec.kind, id=f"kind-{i}"),
            classes="row player", id=f"player-{i}")

    def on_mount(self) -> None:
        self.show_players()
        self.query_one("#start", Button).focus(scroll_visible=False)
        self.call_after_refresh(self.yacht_app.first_screen_drawn)
        form = self.query_one("#setup", VerticalScroll)
        self.watch(form, "scroll_y", self.show_more, init=False)
        self.watch(form, "virtual_size", self.show_more, init=False)

    def on_resize(self) -> None:
        self.fit_width()
        self.call_after_refresh(self.show_more)

    def on_screen_resume(self) -> None:
        self.fit_width()  # (the window may have changed under a dialog)

    def fit_width(self) -> None:
        """The words that fit the window's width."""
        narrow = self.app.size.width < self.HORIZONTAL_BREAKPOINTS[1][0]
        tiny = self.app.size.width < TINY
        self.set_class(tiny, "-tiny")
        for tick in self.query(Tick):
            tick.fit(narrow, tiny)
        for head in self.query("#players-head").results(Label):
            head.update(players_head(narrow))
        for bid, (short, whole) in BUTTON_WORDS.items():
            for button in self.query(f"#{bid}").results(Button):
                words = short if tiny else whole
                if str(button.label) != words:
                    button.label = words
        self.show_more()

    def show_more(self) -> None:
        """Say where the rest of the form is when it does not fit the window: beside the
        buttons, or in a narrow window (no room left there) in the title."""
        if not self.query("#more"):
            return  # (not composed yet)
        form = self.query_one("#setup", VerticalScroll)
        above = form.scroll_y > 0
        below = form.scroll_y < form.max_scroll_y
        words = ("" if not (above or below)  # (Tab or the mouse's wheel goes there)
                 else "▲▼ more above, below" if above and below
                 else "▲ more above" if above else "▼ more below")
        narrow = self.app.size.width < self.HORIZONTAL_BREAKPOINTS[1][0]
        more = self.query_one("#more", Static)
        more.display = bool(words) and not narrow
        if more.display:
            more.update(words)
        title = f"{TITLE}  {words}" if words and narrow else TITLE
        if title != self._title:
            self._title = title
            self.query_one("#title", Static).update(title)

    def show_players(self) -> None:
        for row in self.query(".player"):
            row.display = int(str(row.id).removeprefix("player-")) < self.count
        self.query_one("#remove", Button).disabled = self.count <= 1
        self.query_one("#add", Button).disabled = self.count >= MAX_PLAYERS

    async def fill_options(self, variant: str) -> None:
        if variant == self.shown_variant:
            return
        self.shown_variant = variant
        rs = get(variant)
        self.query_one("#description", Static).update(rs.description)
        mark = self.query_one("#dice-mark", Choice)
        mark.options = dice_mark_choices(rs)
        mark.refresh(layout=True)
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        rows = self.option_rows(rs)
        if rows:
            await box.mount_all(rows)

    def option_rows(self, rs: Ruleset) -> list[Horizontal]:
        """A row per option of the variant: its label and its values (the remembered one)."""
        chosen = self.yacht_app.config.options.get(rs.id, {})
        rows = []
        for opt in rs.options:
            value = chosen.get(opt.id, opt.default)
            if value not in opt.values:
                value = opt.default
            labels = [f"{v} - {opt.value_help[i]}" if i < len(opt.value_help) else v
                      for i, v in enumerate(opt.values)]
            rows.append(Horizontal(
                Label(opt.label, classes="field"),
                Choice(list(zip(labels, opt.values, strict=True)), value,
                       id=f"opt-{opt.id}", classes="option"),
                classes="row"))
        return rows

    async def on_choice_changed(self, event: Choice.Changed) -> None:
        if event.choice.id == "variant":
            await self.fill_options(event.value)
        elif str(event.choice.id).startswith("kind-") and event.value != "person":
            self.name_the_computer(int(str(event.choice.id).removeprefix("kind-")))

    def name_the_computer(self, i: int) -> None:
        """Seat ``i`` became a computer: a name that speaks to the person ("You") becomes
        a computer's ("Computer"), else "You keep 5" and "You are playing" were said of
        it."""
        field = self.query_one(f"#name-{i}", Input)
        if not is_you(field.value):
            return
        taken = {self.query_one(f"#name-{j}", Input).value.strip().casefold()
                 for j in range(self.count) if j != i}
        field.value = computer_name(i, taken)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid = event.button.id
        if bid == "start":
            self.action_start()
        elif bid == "topten-button":
            self.action_top_ten()
        elif bid == "quit":
            self.app.exit(0)
        elif bid == "add":
            await self.action_add_player()
        elif bid == "remove":
            self.action_remove_player()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_start()

    async def action_add_player(self) -> None:
        if self.count >= MAX_PLAYERS:  # (F3 did nothing, and said nothing)
            self.notify(f"A game has {MAX_PLAYERS} players at most", severity="warning",
                        timeout=3)
            return
        self.count += 1
        i = self.count - 1
        if not self.query(f"#player-{i}"):  # a seat removed before keeps its name
            await self.query_one("#seats").mount(self.player_row(i))
        self.show_players()
        name = self.query_one(f"#name-{i}", Input)
        name.focus()
        # in view once the new row is laid out (the focus alone scrolled before that:
        # at 45x14 the name typed next went to a field below the window)
        self.call_after_refresh(self.bring_into_view, name)

    def bring_into_view(self, widget: Widget) -> None:
        """Scroll the form to ``widget`` and draw it again: in a terminal (tmux) the form
        scrolled there this way stayed drawn as it was but for the new row's name field,
        over the rows that had been there."""
        form = self.query_one("#setup", VerticalScroll)
        form.scroll_to_widget(widget, animate=False)
        self.call_after_refresh(form.refresh)

    def action_remove_player(self) -> None:
        if self.count <= 1:  # (F4 did nothing, and said nothing)
            self.notify("A game needs a player: this one stays (change its name or kind)",
                        severity="warning", timeout=3)
            return
        self.count -= 1
        self.show_players()

    def action_toggle_demo(self) -> None:
        sw = self.query_one("#demo", Checkbox)
        sw.value = not sw.value

    def action_help(self) -> None:
        from yacht.rules import rules_text

        from .dialogs import HelpScreen

        rs = self.current_ruleset()
        if rs is not None:
            self.app.push_screen(HelpScreen(f"Rules: {rs.name}",
                                            lambda width: rules_text(rs, width)))

    def action_top_ten(self) -> None:
        """The top ten of the variant and options chosen now."""
        from .topten import TopTenScreen

        rs = self.current_ruleset()
        if rs is None:
            return
        store: Any = self.yacht_app.store
        if store is None and not getattr(self.yacht_app, "store_ready", True):
            self.notify("The high scores are still being opened: a moment, please",
                        timeout=3)
            return

        def fetch(assisted: bool) -> list[Any]:
            return list(store.top_ten(rs, assisted))

        self.app.push_screen(TopTenScreen(rs.name, fetch if store is not None else None,
                                          kind=variant_title(rs)))

    def current_ruleset(self) -> Ruleset | None:
        from yacht.rules import OptionError

        variant = self.query_one("#variant", Choice).value
        options = self.current_options()
        try:
            return get(variant, options)
        except OptionError as e:
            self.notify(str(e), severity="error", markup=False)
            return None

    def current_options(self) -> dict[str, str]:
        out = {}
        for choice in self.query("Choice.option").results(Choice):
            if choice.id:
                out[choice.id.removeprefix("opt-")] = choice.value
        return out

    def collect(self) -> Config | None:
        cfg = self.yacht_app.config
        players = []
        for i in range(self.count):
            name = self.query_one(f"#name-{i}", Input).value.strip() or f"Player {i + 1}"
            kind = self.query_one(f"#kind-{i}", Choice).value
            if kind not in KINDS:
                kind = "person"
            players.append(PlayerSpec(name[:NAME_LENGTH], kind))
        try:  # printable names, none twice (the one check every interface uses)
            names = check_names(p.name for p in players)
        except InputError as e:
            self.notify(str(e), severity="error", markup=False)
            return None
        players = [PlayerSpec(n, p.kind) for n, p in zip(names, players, strict=True)]
        variant = self.query_one("#variant", Choice).value
        options = dict(cfg.options)
        options[variant] = self.current_options()
        speed = self.query_one("#speed", Choice).value
        dice_mark = self.query_one("#dice-mark", Choice).value
        return Config(variant=variant, options=options, players=players,
                      demo=self.query_one("#demo", Checkbox).value,
                      speed=speed if speed in SPEEDS else "normal",
                      sound=self.query_one("#sound", Checkbox).value,
                      next_player_pause=self.query_one("#pause", Checkbox).value,
                      auto_roll=self.query_one("#auto-roll", Checkbox).value,
                      dice_mark=dice_mark if dice_mark in DICE_MARK_SETTINGS else "variant",
                      computer_pause=self.query_one("#computer-pause", Checkbox).value)

    def action_start(self) -> None:
        cfg = self.collect()
        if cfg is None:
            return
        self.yacht_app.remember(cfg)
        players = cfg.players
        if cfg.demo:
            # the computer plays every seat: a seat called "You" is named as a computer's
            # for this game (else the end said "You: Excellent! A score to be proud of."
            # of a score no one at the keyboard played; the setup keeps the name)
            players = demo_players(players)
            taken = {p.name.casefold() for p in players}
            for i, p in enumerate(players):
                if is_you(p.name):
                    name = computer_name(i, taken)
                    taken.add(name.casefold())
                    players[i] = PlayerSpec(name, p.kind)
        self.yacht_app.start_game(cfg.variant, cfg.options.get(cfg.variant, {}), players)
