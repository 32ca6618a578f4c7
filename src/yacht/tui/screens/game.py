"""The table: dice, every player's card, the roll button and a help bar that says what to do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Button, DataTable, Static

from yacht.engine import Choose, IllegalAction, Roll, Score
from yacht.session import (
    SPEEDS,
    HintUnavailable,
    Session,
    category_keys,
    key_for,
    singlets,
)

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


class GameScreen(Screen[None]):
    """One game in progress."""

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

    def __init__(self, session: Session) -> None:
        super().__init__()
        # the size classes from the start (Textual sets them on the first resize, after
        # the table is styled once: it was all styled again before the first paint)
        width, height = self.app.size
        for size, points in ((width, self.HORIZONTAL_BREAKPOINTS),
                             (height, self.VERTICAL_BREAKPOINTS)):
            self.add_class([name for least, name in points if size >= least][-1])
        self.session = session
        self.paused = False       # the Next Player pause after a person's scoring
        self.cpu_busy = False     # a computer step is scheduled or being worked out
        self._generation = 0      # bumps when the screen goes away: stale steps are dropped
        self.messages: list[str] = []
        self._told_thinking: set[int] = set()
        self._keys = category_keys(session.ruleset)
        self._shown: dict[str, str] = {}  # what put() shows in each line

    @property
    def yacht_app(self) -> YachtApp:
        from ..app import YachtApp

        app = self.app
        assert isinstance(app, YachtApp)
        return app

    # --- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        rs = self.session.ruleset
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
        if self.session.warning:
            self.notify(self.session.warning, severity="warning")
        self.schedule_computer()

    def on_unmount(self) -> None:
        self._generation += 1

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = False) -> None:
        """Show one message at a time: a fast typist's refusals do not pile up over the card.

        Plain text by default: the messages hold names and the rules' own words.
        """
        self.app.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    # --- drawing --------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.messages = (self.messages + [text])[-4:]
        self.put("#log", "\n".join(self.messages))

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
        s = self.session
        st = s.state
        rs = s.ruleset
        me = st.players[st.current]
        over = st.is_terminal()
        bits = [rs.name]
        if s.demo:
            bits.append("demo")
        if s.assisted:
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
        elif s.last_score is not None:
            dice_row.show(s.last_score.dice, frozenset(), dim=True)
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
        if self.paused:
            button.label = "See results" if over else "Next player"
            button.disabled = False
        elif over:
            button.label, button.disabled = "See results", False
        elif s.is_computer_turn():
            button.label, button.disabled = "Computer plays", True
        elif not st.dice:
            button.label, button.disabled = "Roll", False
        elif st.may_reroll():
            button.label, button.disabled = "Roll again", False
        else:
            button.label, button.disabled = "Score a box", True
        card = self.query_one("#card", ScoreCard)
        card.show(st, preview=not s.is_computer_turn() or bool(st.dice))
        self.call_after_refresh(self.fit_card)
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
        s = self.session
        st = s.state
        two = len(s.ruleset.columns) > 1
        col_tip = " (Shift+letter: column 2)" if two else ""
        if st.is_terminal():
            return ("Game over. Enter or r: the results. o: Oops takes back your last score."
                    if st.can_take_back() else "Game over. Enter or r: see the results.")
        me = st.players[st.current]
        if self.paused:
            last = s.last_score
            done = ""
            if last is not None:
                done = (f"{st.players[last.player].name} scored "
                        f"{s.ruleset.category(last.category).label} for {last.points}. ")
            return f"{done}Enter or r: {me.name}'s turn. o: Oops."
        if s.is_computer_turn():
            return f"{me.name} is playing. b: bell, ?: help, q: quit."
        if not st.dice:
            return f"{me.name}: press r or Enter, or click Roll, to roll the dice."
        places = st.placements()
        note = self.scoring_note()
        if note:
            again = " - or choose dice and roll again" if st.may_reroll() else ""
            return f"{note} Score: a letter or a click{again}."
        if st.may_reroll():
            if not places:
                return ("No box takes these dice yet: choose dice (1-9, a, s, or click) "
                        "and roll again (r).")
            if st.chosen:
                n = len(st.chosen)
                what = "the chosen die" if n == 1 else f"the {n} chosen dice"
                return (f"r or Enter: roll {what} - or score: "
                        f"a box's letter or click it{col_tip}. n: none.")
            return (f"Choose dice to re-roll (1-9/0, click; a all, s singlets), then r - "
                    f"or score: a box's letter or click it{col_tip}.")
        return f"No roll left: score the dice - press a box's letter or click it{col_tip}."

    def scoring_note(self) -> str:
        """Why only some of the open boxes take these dice, and what a bonus adds ("" if
        there is nothing to say): the help bar says it instead of the usual hint."""
        st = self.session.state
        rs = self.session.ruleset
        places = st.placements()
        if not places:
            return ""
        rule = next((r for r in rs.special if r.name == "yahtzee_bonus_joker"), None)
        label = rs.category(str(getattr(rule, "category", ""))).label if rule else "Yahtzee"
        bonus = max(p.bonus for p in places)
        plus = f" (+{bonus} {label} bonus)" if bonus else ""
        card = st.card(st.current)
        open_boxes = {(col, cat.id) for col, boxes in enumerate(card.boxes)
                      for cat, box in zip(rs.categories, boxes, strict=True) if box is None}
        offered = {(p.column, p.category) for p in places}
        if not open_boxes - offered:  # every open box takes them: only the bonus to tell
            return f"{label} again: the previews hold the +{bonus} bonus." if bonus else ""
        order = [c.id for c in rs.categories]
        names = [rs.category(c).label for c in sorted({p.category for p in places},
                                                       key=order.index)]
        where = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        first = next((r for r in rs.special if r.name == "forced_first_turn"), None)
        if first is not None and st.turns_taken(st.current) == 0:
            return f"The first turn must go in {where}."
        if rule is not None and len(set(st.dice)) == 1:
            upper = rs.upper_category(st.dice[0])
            if any(p.joker for p in places) and upper is not None:
                return (f"Joker rule ({upper.label} filled): this {label} goes in a lower "
                        f"box, as a joker{plus}.")
            return f"Joker rule: this {label} must go in {where}{plus}."
        return f"Only {where} can take these dice now{plus}."

    # --- person's input -------------------------------------------------------------
    def person_may_act(self, quiet: bool = False) -> bool:
        if self.session.is_computer_turn() or self.paused or self.session.is_over():
            if not quiet:
                if self.paused or self.session.is_over():
                    self.notify("Press Enter or r to go on first", severity="warning",
                                timeout=3)
                else:
                    self.notify("Wait: the computer is playing", severity="warning", timeout=3)
            return False
        return True

    def act(self, fn: Any, *args: Any) -> bool:
        try:
            fn(*args)
        except IllegalAction as e:
            self.notify(str(e), severity="warning", timeout=4)
            self.refresh_all()
            return False
        if self.session.warning:
            self.notify(self.session.warning, severity="warning")
            self.session.warning = None
        return True

    def action_roll(self) -> None:
        s = self.session
        if self.paused or s.is_over():
            self.go_on()
            return
        if not self.person_may_act():
            return
        st = s.state
        if st.dice and not st.chosen and st.may_reroll():
            self.notify("Choose the dice to roll again first (1-9/0, a, s, or click them)",
                        severity="warning", timeout=4)
            return
        if self.act(s.roll):
            self.yacht_app.sound()
            self.refresh_all()

    def go_on(self) -> None:
        """Leave the Next Player pause (or the game-over pause)."""
        self.paused = False
        if self.session.is_over():
            self.yacht_app.show_end(self.session)
            return
        self.refresh_all()
        self.schedule_computer()

    def toggle_die(self, index: int) -> None:
        if not self.person_may_act():
            return
        if index >= self.session.ruleset.dice:
            self.notify(f"there is no die {index + 1} (accepted: 1-{self.session.ruleset.dice})",
                        severity="warning", timeout=3)
            return
        if self.act(self.session.toggle, index):
            self.refresh_all()

    def action_choose_all(self) -> None:
        if self.person_may_act() and self.act(self.session.choose_all):
            self.refresh_all()

    def action_choose_singlets(self) -> None:
        if not self.person_may_act():
            return
        dice = self.session.state.dice
        if dice and not singlets(dice) and self.session.state.may_reroll():
            self.notify("No singlets: every face shows at least twice", timeout=3)
            return
        if self.act(self.session.choose_singlets):
            self.refresh_all()

    def action_choose_none(self) -> None:
        if self.person_may_act() and self.act(self.session.choose_none):
            self.refresh_all()

    def score(self, category: str, column: int | None) -> None:
        if not self.person_may_act():
            return
        s = self.session
        st = s.state
        if column is None:
            open_cols = sorted({p.column for p in st.placements() if p.category == category})
            column = open_cols[0] if open_cols else 0
        pl = next((p for p in st.placements()
                   if p.category == category and p.column == column), None)
        me = st.current
        if not self.act(s.score, category, column):
            return
        self.yacht_app.sound()
        label = s.ruleset.category(category).label
        col = f" (column {column + 1})" if len(s.ruleset.columns) > 1 else ""
        self.say(f"{st.players[me].name}: {label}{col} for {pl.total if pl else 0}")
        nxt = s.state
        self.paused = nxt.is_terminal() or (nxt.players[nxt.current].is_computer
                                            and nxt.current != me)
        self.refresh_all()
        self.schedule_computer()

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
        if self.paused or self.session.is_over():
            self.go_on()  # Enter on the card also leaves the Next Player pause
            return
        if cell is None or cell.category is None:
            return
        st = self.session.state
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
        if ch.isdigit():
            event.stop()
            self.toggle_die(int(ch) - 1 if ch != "0" else 9)
            return
        if ch.isalpha() and ch.isascii():
            cid = key_for(self.session.ruleset, ch.lower())
            if cid is None:
                return
            event.stop()
            column: int | None = None
            if ch.isupper():
                if len(self.session.ruleset.columns) < 2:
                    column = None
                else:
                    column = 1
            self.score(cid, column)

    # --- computer turns -------------------------------------------------------------
    def delay(self) -> float:
        return SPEEDS.get(self.yacht_app.config.speed, 0.6)

    def schedule_computer(self) -> None:
        s = self.session
        if self.cpu_busy or self.paused:
            return
        if s.is_over():
            # the game-over pause: the last dice and cards stay readable until
            # "See results" (a demo goes on by itself)
            self.paused = True
            self.refresh_all()
            if s.demo:
                gen = self._generation
                self.set_timer(max(self.delay() * 3, 0.05),
                               lambda: self._end_demo(gen))
            return
        if not s.is_computer_turn():
            return
        self.cpu_busy = True
        gen = self._generation
        self.set_timer(max(self.delay(), 0.01), lambda: self._cpu_think(gen))

    def _end_demo(self, gen: int) -> None:
        if gen == self._generation and self.is_current:
            self.go_on()

    def _cpu_think(self, gen: int) -> None:
        if gen != self._generation:
            return
        session = self.session

        def work() -> None:
            try:
                action = session.computer_action()
                error = None
            except Exception as e:  # a failing strategy must not end the game
                action, error = None, str(e)
            self.app.call_from_thread(self._cpu_apply, gen, action, error)

        self.run_worker(work, thread=True, exclusive=True, group="computer")
        self.set_timer(1.5, lambda: self._slow_thinker(gen, len(session.state.log)))

    def _slow_thinker(self, gen: int, log_length: int) -> None:
        """Say so when a computer player takes long (the expert builds its tables once)."""
        s = self.session
        if (gen == self._generation and self.cpu_busy and len(s.state.log) == log_length
                and s.state.current not in self._told_thinking):
            self._told_thinking.add(s.state.current)
            me = s.current_player
            self.notify(f"{me.name} is thinking (the first move of a level can take a while)",
                        timeout=4)

    def _cpu_apply(self, gen: int, action: Any, error: str | None) -> None:
        self.cpu_busy = False
        if gen != self._generation or not self.query("#log"):
            return  # the screen went away meanwhile
        s = self.session
        if action is None and error is not None:
            import random

            from yacht.engine import random_decision

            self.notify(f"the computer player failed ({error}); it moves at random",
                        severity="warning")
            action = random_decision(s.state, random.Random())[0]
        if action is None:
            return
        st = s.state
        me = st.current
        name = st.players[me].name
        try:
            if isinstance(action, Score):
                pl = next((p for p in st.placements() if p.category == action.category
                           and p.column == action.column), None)
                s.apply(action)
                col = (f" (column {action.column + 1})"
                       if len(s.ruleset.columns) > 1 else "")
                self.say(f"{name}: {s.ruleset.category(action.category).label}{col} for "
                         f"{pl.total if pl else 0}")
                self.yacht_app.sound()
            elif isinstance(action, Choose):
                s.apply(action)
                kept = [str(v) for i, v in enumerate(st.dice) if i not in st.chosen]
                self.say(f"{name} keeps {' '.join(kept) or 'nothing'}")
            elif isinstance(action, Roll):
                s.apply(action)
                self.yacht_app.sound()
            else:
                s.apply(action)
        except IllegalAction as e:
            self.notify(f"the computer player tried an illegal move: {e}", severity="error")
            return
        self.refresh_all()
        if isinstance(action, Score) and not s.demo and s.is_computer_turn() \
                and s.state.current != me:
            # the next computer waits a little longer so the result stays readable
            self.cpu_busy = True
            self.set_timer(max(self.delay() * 2, 0.01), lambda: self._cpu_think(gen))
            return
        self.schedule_computer()

    # --- menus ----------------------------------------------------------------------
    def action_oops(self) -> None:
        s = self.session
        st = s.state
        give = st.can_give_back() and not s.is_computer_turn()
        take = st.can_take_back()

        def done(choice: str | None) -> None:
            if choice == "give":
                if self.act(s.give_back):
                    self.say("Dice given back")
            elif choice == "take":
                if self.act(s.take_back):
                    self.paused = False
                    self.say("Last score taken back")
            self.refresh_all()
            self.schedule_computer()

        self.app.push_screen(ChoiceDialog(
            "Oops", "Undo a slip (a roll can never be taken back).",
            [("give", "Give me back my dice", give),
             ("take", "I scored the wrong box", take),
             ("cancel", "Never mind", True)]), done)

    def action_hint(self) -> None:
        s = self.session
        if not self.person_may_act(quiet=True):
            self.notify("A hint is for your own turn", severity="warning", timeout=3)
            return
        if not s.state.dice:
            self.notify("Roll first: the hint is about the dice showing", timeout=3)
            return
        self.notify("Asking the advisor…", timeout=2)
        gen = self._generation

        def work() -> None:
            try:
                moves: Any = s.hint()
                error = None
            except HintUnavailable as e:
                moves, error = None, str(e)
            self.app.call_from_thread(self._show_hint, gen, moves, error)

        self.run_worker(work, thread=True, group="hint")

    def _show_hint(self, gen: int, moves: Any, error: str | None) -> None:
        if gen != self._generation or not self.query("#log"):
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

        keys = self._keys
        letters = "  ".join(f"{k} {self.session.ruleset.category(c).label}"
                            for c, k in keys.items())
        self.app.push_screen(HelpScreen(
            "Help", rules_text(self.session.ruleset, 64) + "\n" + KEYS_HELP
            + "\nBox letters: " + letters + "\n"))

    def change_speed(self, step: int) -> None:
        names = list(SPEEDS)  # slowest first
        cfg = self.yacht_app.config
        i = names.index(cfg.speed) if cfg.speed in names else 1
        cfg.speed = names[max(0, min(len(names) - 1, i + step))]
        self.yacht_app.remember(cfg)
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
        s = self.session
        if s.is_over():
            self._generation += 1
            s.finish()  # the game counts, even when its end screen is skipped
            then()
            return
        if not s.state.log:  # nothing played yet: nothing to keep or lose
            self._generation += 1
            then()
            return
        saved = s.saved
        text = ("The game is saved: `yacht play --resume` or the next start offers it."
                if saved else "This game is not saved and will be lost.")

        def done(choice: str | None) -> None:
            if choice == "leave":
                self._generation += 1
                then()
            elif choice == "abandon":
                self._generation += 1
                s.abandon()
                then()

        self.app.push_screen(ChoiceDialog(question, text, [
            ("leave", "Yes, leave" + (" (keep it saved)" if saved else ""), True),
            ("abandon", "Yes, and delete this game", saved),
            ("stay", "No, keep playing", True)]), done)

    def action_leave(self) -> None:
        self._ask_leave(self.yacht_app.show_setup, "Leave this game for the setup?")

    def action_quit_game(self) -> None:
        self._ask_leave(lambda: self.app.exit(0), "Quit the game?")
