"""The table: dice, every player's card, the roll button and a help bar that says what to do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Button, DataTable, Static

from yacht.engine import Roll, TakeBack
from yacht.session import SPEEDS, HintUnavailable, Session, category_keys, key_for
from yacht.session.commands import Command, GoOn, ScoreBox, Select, Toggle
from yacht.session.present import TERMINAL, help_line
from yacht.session.table import LOCAL, Event, Refused, Table, TableView, ThreadDriver

from ..widgets import DiceRow, KeyBar, ScoreCard
from .dialogs import ChoiceDialog, HelpScreen, TextDialog

if TYPE_CHECKING:
    from ..app import YachtApp

__all__ = ["GameScreen", "KEYS_HELP"]

KEYS_HELP = """Keys
  Tab / Shift+Tab   move between the dice, the Roll button and the scorecard
  arrows            move among the dice or the boxes
  Space             choose a die for the re-roll (on the dice)
  Enter             roll (on the dice or the button), score (on a box)
  1-9, 0            choose dice 1-10       a  all dice   s  all singlets   n  none
  r                 roll (or go on to the next player)
  letters           score the box with that letter (shown on the card);
                    Shift+letter scores its second column in two-column games
  o  Oops menu      h  hint (the game is then marked assisted)
  b  bell on/off    + / -  computer speed    ?  or F1  this help
  Esc  back to the setup (asks first)     q  quit (asks first; the game is saved)
Mouse: click a die to choose it, click Roll, click a box on your card to score it.
"""


class TableChanged(Message):
    """Something happened at the table (posted from whichever thread it happened in)."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event


#: what the terminal says when the table refuses a person's command, by the refusal's code
REFUSALS = {
    "paused": "Press Enter or r to go on first",
    "computer_turn": "Wait: the computer is playing",
}


class GameScreen(Screen[None]):
    """One game in progress: a view of a :class:`~yacht.session.table.Table`."""

    #: on_mount focuses the Roll button. (Textual's own first focus went to the first focusable
    #: widget - a scrolling container - and styled all of it again before the first paint.)
    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("r", "roll", "Roll"),
        Binding("o", "oops", "Oops"),
        Binding("h", "hint", "Hint"),
        Binding("b", "bell", "Bell"),
        Binding("plus", "faster", "Faster", key_display="+", show=False),
        Binding("minus", "slower", "Slower", key_display="-", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f1", "help", "Help", show=False),
        Binding("a", "choose_all", "All dice", show=False),
        Binding("s", "choose_singlets", "Singlets", show=False),
        Binding("n", "choose_none", "None", show=False),
        Binding("escape", "leave", "Setup"),
        Binding("q", "quit_game", "Quit"),
    ]

    #: the table's sizes (app.tcss): big dice and a wider left side in a big terminal.
    #: Only this screen has them: a class set on a screen restyles all of it.
    HORIZONTAL_BREAKPOINTS = [(0, "-normal"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def __init__(self, table: Table) -> None:
        super().__init__()
        # the size classes from the start (Textual sets them on the first resize, after
        # the table is styled once: it was all styled again before the first paint)
        width, height = self.app.size
        for size, points in ((width, self.HORIZONTAL_BREAKPOINTS),
                             (height, self.VERTICAL_BREAKPOINTS)):
            self.add_class([name for least, name in points if size >= least][-1])
        self.table = table
        self.driver = ThreadDriver(table)
        self.view: TableView = table.view()
        self.snap: dict[str, Any] = table.snapshot(LOCAL, TERMINAL)
        self._unsubscribe: Any = None
        self._hinting = False
        self._ended = False
        self._keys = category_keys(table.ruleset)
        self._shown: dict[str, str] = {}  # what put() shows in each line

    @property
    def session(self) -> Session:
        """The game under the table (for reading)."""
        return self.table.session

    @property
    def paused(self) -> bool:
        """The table waits for a person to go on (the next player, or the results)."""
        return self.view.pause is not None

    @property
    def messages(self) -> list[str]:
        """The last lines of the table's news, as the log shows them."""
        return list(self.view.news[-4:])

    @property
    def cpu_busy(self) -> bool:
        """The table has a step of its own due or under way (a computer's, a demo's end)."""
        return not self.driver.idle()

    @property
    def yacht_app(self) -> YachtApp:
        from ..app import YachtApp

        app = self.app
        assert isinstance(app, YachtApp)
        return app

    # --- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        rs = self.table.ruleset
        # names and messages are shown as typed (a "[" in a name is no markup)
        yield Static(id="title", markup=False)
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield DiceRow(rs.dice, id="dice")
                yield Static(id="rolls", markup=False)
                yield Button("Roll", id="roll", variant="primary")
                yield Static(id="log", markup=False)
            yield ScoreCard(id="card")
        yield Static(id="helpbar", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.refresh_all()
        self.query_one("#roll", Button).focus()
        self.call_after_refresh(self.yacht_app.first_screen_drawn)
        warning = self.view.warning
        if warning:
            self.session.warning = None
            self.notify(warning, severity="warning")
        self._unsubscribe = self.table.subscribe(self._on_event)
        self.table.set_speed(self.yacht_app.config.speed)
        self.driver.start()

    def on_unmount(self) -> None:
        self.leave_table()

    def leave_table(self) -> None:
        """Stop driving the table and listening to it (the screen goes away)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.driver.stop(join=False)

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Show one message at a time: a fast typist's refusals do not pile up over the card.

        Plain text by default: the messages hold names and the rules' own words.
        """
        self.app.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # --- the table's events ---------------------------------------------------------
    def _on_event(self, event: Event) -> None:
        """From whichever thread the table changed in: to the screen's own queue."""
        self.post_message(TableChanged(event))

    def on_table_changed(self, message: TableChanged) -> None:
        message.stop()
        if self._ended or not self.is_attached:
            return
        event = message.event
        kind = event.kind
        if kind in ("rolled", "scored"):
            self.yacht_app.sound()
        elif kind in ("computer_failed", "store_warning"):
            self.notify(event.text, severity="warning")
        elif kind == "elsewhere":
            self.offer_reload(event.text)
        elif kind == "computer_progress":
            self.put("#helpbar", help_line(self.table.view(), TERMINAL))
            return  # only the help line changes (it says how far the build is)
        if kind == "went_on" and event.data.get("pause") == "game_over":
            self.show_results()
            return
        self.refresh_all()

    def offer_reload(self, why: str) -> None:
        """The game went on in another window: reload it from the store, or go on here
        without saving."""
        game_id = self.table.view().game_id

        def done(choice: str | None) -> None:
            if choice == "reload" and game_id is not None:
                self.leave_table()
                if not self.yacht_app.resume_game(game_id):
                    self.yacht_app.show_setup()
            elif choice == "quit":
                self.leave_table()
                self.app.exit(0)
            else:
                self.refresh_all()

        self.app.push_screen(ChoiceDialog(
            "This game went on elsewhere",
            f"{why[0].upper()}{why[1:]}. What you play here from now on is not saved.",
            [("reload", "Reload it as it is now", game_id is not None),
             ("stay", "Go on here (not saved)", True),
             ("quit", "Quit", True)]), done)

    def show_results(self) -> None:
        if not self._ended:
            self._ended = True
            self.leave_table()
            self.table.finish()  # once: the table records a finished game a single time
            self.yacht_app.show_end(self.table)

    # --- drawing --------------------------------------------------------------------
    def put(self, selector: str, text: str, layout: bool = True) -> None:
        """Show ``text`` in a line of the table; nothing to do when it shows that already.

        ``layout=False`` for the lines of one fixed height (no new layout of the screen).
        """
        if self._shown.get(selector) != text:
            self._shown[selector] = text
            self.query_one(selector, Static).update(text, layout=layout)

    def waiting_for_next(self) -> bool:
        return self.paused

    def refresh_all(self) -> None:
        view = self.view = self.table.view()
        snap = self.snap = self.table.snapshot(LOCAL, TERMINAL)
        st = view.state
        rs = st.ruleset
        me = st.players[st.current]
        over = st.is_terminal()
        bits = [rs.name]
        if view.demo:
            bits.append("demo")
        if view.assisted:
            bits.append("assisted")
        bits.append("♪ on" if self.yacht_app.config.sound else "♪ off")
        if any(p.is_computer for p in st.players):
            bits.append(f"speed {self.yacht_app.config.speed}")
        level = f" ({me.level})" if me.is_computer else ""
        who = ("Game over" if over
               else f"▶ {me.name}{level} - turn {st.turns_taken(st.current) + 1}")
        # who is on turn first: a narrow terminal cuts the end of the line
        self.put("#title", f" {who}   {' · '.join(bits)}", layout=False)
        dice_row = self.query_one("#dice", DiceRow)
        if st.dice:
            dice_row.show(st.dice, st.chosen)
        elif view.last_score is not None:
            dice_row.show(view.last_score.dice, frozenset(), dim=True)
        else:
            dice_row.show((), frozenset())
        if over or not st.dice:
            used, most = 0, st.max_rolls
        else:
            used, most = st.rolls, st.max_rolls
        if most <= 6:
            dots = " ".join("○" if i < used else "●" for i in range(most))
            self.put("#rolls", f"Rolls left {dots}", layout=False)
        else:
            self.put("#rolls", f"Roll {used} of up to {most}", layout=False)
        button = self.query_one("#roll", Button)
        if view.pause is not None:
            button.label = "See results" if over else "Next player"
            button.disabled = False
        elif over:
            button.label, button.disabled = "See results", False
        elif view.computer_turn:
            button.label, button.disabled = "Computer plays", True
        elif not st.dice:
            button.label, button.disabled = "Roll", False
        elif st.may_reroll():
            button.label, button.disabled = "Roll again", False
        else:
            button.label, button.disabled = "Score a box", True
        card = self.query_one("#card", ScoreCard)
        card.show(snap)
        self.call_after_refresh(self.fit_card)
        self.put("#log", "\n".join(view.news[-4:]))
        self.put("#helpbar", self.help_text())

    #: the width of the left side with the big dice (see app.tcss)
    BIG_LEFT = 62

    def fit_card(self) -> None:
        """Big dice only when the whole card still fits beside them (many players: small)."""
        cards = self.query("#card").results(ScoreCard)
        card = next(cards, None)
        if card is None:  # the screen went away meanwhile
            return
        need = card.virtual_size.width + 2
        self.set_class(self.size.width - self.BIG_LEFT < need, "-crowded")

    def on_resize(self) -> None:
        self.call_after_refresh(self.fit_card)

    def help_text(self) -> str:
        return help_line(self.view, TERMINAL)

    # --- person's input -------------------------------------------------------------
    def send(self, *commands: Command) -> bool:
        """Ask the table; a refusal is shown (one line) and changes nothing."""
        try:
            self.table.act(LOCAL, *commands)
        except Refused as e:
            self.notify(REFUSALS.get(e.code, str(e)), severity="warning", timeout=4)
            self.refresh_all()
            return False
        return True

    def action_roll(self) -> None:
        view = self.table.view()
        if view.pause is not None:
            self.go_on()
            return
        if view.over:
            self.show_results()
            return
        st = view.state
        if (st.dice and not st.chosen and st.may_reroll() and not view.computer_turn):
            self.notify("Choose the dice to roll again first (1-9/0, a, s, or click them)",
                        severity="warning", timeout=4)
            return
        self.send(Roll())

    def go_on(self) -> None:
        """Leave the Next Player pause (or the game-over pause)."""
        try:
            self.table.act(LOCAL, GoOn())
        except Refused:
            if self.table.view().over:
                self.show_results()

    def toggle_die(self, index: int) -> None:
        self.send(Toggle(index))

    def action_choose_all(self) -> None:
        self.send(Select("all"))

    def action_choose_singlets(self) -> None:
        self.send(Select("singlets"))

    def action_choose_none(self) -> None:
        self.send(Select("none"))

    def score(self, category: str, column: int | None) -> None:
        self.send(ScoreBox(category, column))

    def on_dice_row_toggle(self, message: DiceRow.Toggle) -> None:
        message.stop()
        self.toggle_die(message.index)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll":
            event.stop()
            self.action_roll()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        card = self.query_one("#card", ScoreCard)
        cell = card.cell_at(event.coordinate)
        view = self.table.view()
        if view.pause is not None or view.over:
            self.go_on()  # Enter on the card also leaves the Next Player pause
            return
        if cell is None or cell.category is None:
            return
        st = view.state
        column = cell.column if cell.player == st.current else None
        if cell.player is not None and cell.player != st.current:
            self.notify("That is another player's card: score on your own", timeout=3)
            return
        self.score(cell.category, column)

    #: keys handled as they arrive, in order (bindings run later, when the key has
    #: bubbled up to the app, so a fast typist's next key could overtake them)
    DIRECT = {"r": "roll", "a": "choose_all", "s": "choose_singlets", "n": "choose_none",
              "o": "oops", "h": "hint", "b": "bell", "question_mark": "help", "f1": "help",
              "escape": "leave", "q": "quit_game", "plus": "faster", "minus": "slower",
              "equals_sign": "faster"}

    def on_key(self, event: events.Key) -> None:
        action = self.DIRECT.get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            getattr(self, f"action_{action}")()
            return
        ch = event.character
        if not ch or len(ch) != 1 or not ch.isprintable():
            if event.key == "enter" and isinstance(self.focused, DiceRow):
                event.stop()
                self.action_roll()
            return
        if "0" <= ch <= "9":
            event.stop()
            self.toggle_die(int(ch) - 1 if ch != "0" else 9)
            return
        if ch.isalpha() and ch.isascii():
            rs = self.table.ruleset
            cid = key_for(rs, ch.lower())
            if cid is None:
                return
            event.stop()
            self.score(cid, 1 if ch.isupper() and len(rs.columns) > 1 else None)

    # --- menus ----------------------------------------------------------------------
    def action_oops(self) -> None:
        snap = self.table.snapshot(LOCAL, TERMINAL)
        give = snap["can"]["give_back"]
        take = snap["can"]["take_back"]

        def done(choice: str | None) -> None:
            if choice == "give":
                self.send(Select("none"))
            elif choice == "take":
                self.send(TakeBack())
            self.refresh_all()

        self.app.push_screen(ChoiceDialog(
            "Oops", "Undo a slip (a roll can never be taken back).",
            [("give", "Give me back my dice", give),
             ("take", "I scored the wrong box", take),
             ("cancel", "Never mind", True)]), done)

    def action_hint(self) -> None:
        view = self.table.view()
        if view.pause is not None or view.over or view.computer_turn:
            self.notify("A hint is for your own turn", severity="warning", timeout=3)
            return
        if not view.state.dice:
            self.notify("Roll first: the hint is about the dice showing", timeout=3)
            return
        if self._hinting:
            self.notify("Asking the advisor… (one moment)", timeout=2)
            return
        self._hinting = True
        self.notify("Asking the advisor…", timeout=2)
        table = self.table

        def work() -> None:
            try:
                moves: Any = table.hint(LOCAL)
                error = None
            except (HintUnavailable, Refused) as e:
                moves, error = None, str(e)
            self.app.call_from_thread(self._show_hint, moves, error)

        self.run_worker(work, thread=True, group="hint")

    def _show_hint(self, moves: Any, error: str | None) -> None:
        self._hinting = False
        if self._ended or not self.is_attached:
            return  # the screen went away meanwhile
        if error is not None:
            self.notify(f"No hint: {error}", severity="warning")
            return
        lines = [f"{i}. {m.text}   (expect {m.expected:.1f}"
                 + (f", -{m.loss:.1f})" if m.loss > 0.005 else ", best)")
                 for i, m in enumerate(moves, 1)]
        self.refresh_all()
        self.app.push_screen(TextDialog(
            "Hint - the advisor's ranking",
            "\n".join(lines) + "\n\nThis game is now marked assisted."))

    def action_help(self) -> None:
        from yacht.rules import rules_text

        rs = self.table.ruleset
        letters = "  ".join(f"{k} {rs.category(c).label}" for c, k in self._keys.items())
        self.app.push_screen(HelpScreen(
            "Help", rules_text(rs, 64) + "\n" + KEYS_HELP + "\nBox letters: " + letters + "\n"))

    def change_speed(self, step: int) -> None:
        names = list(SPEEDS)  # slowest first
        cfg = self.yacht_app.config
        i = names.index(cfg.speed) if cfg.speed in names else 1
        cfg.speed = names[max(0, min(len(names) - 1, i + step))]
        self.yacht_app.remember(cfg)
        self.table.set_speed(cfg.speed)
        self.notify(f"Computer speed: {cfg.speed}", timeout=2)
        self.refresh_all()

    def action_faster(self) -> None:
        self.change_speed(1)

    def action_slower(self) -> None:
        self.change_speed(-1)

    def action_bell(self) -> None:
        self.yacht_app.toggle_sound()
        self.refresh_all()

    def _ask_leave(self, then: Any, question: str) -> None:
        table = self.table
        view = table.view()
        if view.over:
            self.leave_table()
            table.finish()  # the game counts, even when its end screen is skipped
            then()
            return
        if not view.state.log:  # nothing played yet: nothing to keep or lose
            self.leave_table()
            then()
            return
        saved = view.saved
        if saved:
            text = f"The game is saved: `yacht resume {view.game_id}` or the next start offers it."
        elif view.elsewhere is not None:
            text = (f"What was played here is not saved: the game went on elsewhere "
                    f"(`yacht resume {view.game_id}` continues it from there).")
        else:
            text = "This game is not saved and will be lost."

        def done(choice: str | None) -> None:
            if choice == "leave":
                self.leave_table()
                then()
            elif choice == "abandon":
                self.leave_table()
                table.abandon()
                then()

        self.app.push_screen(ChoiceDialog(question, text, [
            ("leave", "Yes, leave" + (" (keep it saved)" if saved else ""), True),
            ("abandon", "Yes, and delete this game", saved),
            ("stay", "No, keep playing", True)]), done)

    def action_leave(self) -> None:
        self._ask_leave(self.yacht_app.show_setup, "Leave this game for the setup?")

    def action_quit_game(self) -> None:
        self._ask_leave(lambda: self.app.exit(0), "Quit the game?")
