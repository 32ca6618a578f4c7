"""The line game: prompts like the DOS originals, for screen readers and pipes.

Every line read is one command; end of input saves the game and stops. The
game itself flows in a :class:`~yacht.session.table.Table`: this module only
asks, prints what happened, and sends the commands.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Mapping
from typing import Any, TextIO

from yacht.cells import cell_len, ljust, wrap
from yacht.engine import GiveBack, TakeBack
from yacht.parsing import shown
from yacht.render import (
    card_table,
    dice_text,
    is_you,
    marks_lines,
    rolls_split,
    rolls_text,
    saved_game_text,
    saved_games,
    wrap_text,
)
from yacht.session import (
    HintUnavailable,
    SessionError,
    category_keys,
    open_store_for_games,
    open_table,
    upgrade_note,
)
from yacht.session.advice import Advice
from yacht.session.commands import ActionError, GoOn, parse_command
from yacht.session.comment import end_line, judged
from yacht.session.config import Launch, demo_players, load_config
from yacht.session.game import StoreLike, StrategyFactory, players_from_specs
from yacht.session.keys import key_for, letter_notes
from yacht.session.opening import command_line
from yacht.session.present import (
    because,
    clock_line,
    entry_note,
    game_note,
    hint_notice,
    no_box_text,
    no_hint_text,
    possessive,
    result_text,
    scoring_note,
    verb,
)
from yacht.session.table import LOCAL, Event, Refused, Table

__all__ = ["PlainGame", "resume_command", "resume_hint", "run_plain"]

#: the line game's text: at most this wide (a screen reader reads it whole either way)
WIDTH = 78

COMMANDS = """Commands (the notation of `yacht resume ID --action` too). The dice you name
are always the ones to roll again (in the terminal game and the browser a
click on a die may hold it instead: their setting "Clicking a die").
  Enter, r or roll  roll: all dice at the start of a turn, later the chosen
                    ones
  roll 6,6,2        real dice: enter what they show (the values of the dice
                    rolled; the game is then marked dice entered)
  1 3  or  13       roll dice 1 and 3 again (0 is die 10 with ten dice)
  choose 1,3        choose dice 1 and 3 to roll again (then Enter rolls them)
  a / s             roll all dice again / the unmatched dice (faces showing once)
  LETTER or NAME    score the box (letters are shown in the box list); in
                    two-column games add the column: "f 2", or an upper-case
                    letter for column 2
  o                 Oops: give back the chosen dice, or take back the last
                    scoring (until the next roll)
  give-back         give back the chosen dice (take-back: the last scoring)
  b                 list the boxes with what they would score
  c                 the scorecards
  h                 hint: the advisor's ranking (the game is then marked
                    assisted: the first hint asks first)
  ?                 the rules and these commands
  q                 quit (the game is saved)
"""

def resume_command(game_id: str) -> str:
    """The command that goes on with a saved game in the line game: `yacht resume ID`
    would open it full screen in a terminal, and only show it when the input is not one.

    >>> resume_command("1ab3af1a2d7d")
    'yacht play --plain --resume 1ab3af1a2d7d'
    """
    return command_line("play", "--plain", "--resume", game_id)


def resume_hint(game_id: str) -> str:
    """How a saved game goes on, in the line game's words.

    >>> resume_hint("1ab3af1a2d7d")
    '`yacht play --plain --resume 1ab3af1a2d7d` continues it'
    """
    return f"`{resume_command(game_id)}` continues it"


class _Quit(Exception):
    """The game stops here: ``ended`` when the input ended (else the player quit)."""

    def __init__(self, ended: bool = False) -> None:
        super().__init__()
        self.ended = ended


class PlainGame:
    """Line prompts over a table (every seat at this keyboard)."""

    def __init__(self, table: Table, inp: TextIO, out: TextIO) -> None:
        self.table = table
        self.inp = inp
        self.out = out
        self.keys = category_keys(table.ruleset)
        self.told_entered = table.view().dice_entered
        # the notation names the dice to roll again: so does this seat, whatever the
        # variant's way with a click
        table.set_prefs(LOCAL, dice_mark="reroll")
        #: a build under way: when it began, and the last quarter said
        self._since = (time.monotonic(), 0)
        #: the store did not take the game's end (a warning right after "finished"):
        #: it stays unfinished there
        self.finish_failed = False
        self._finishing = False
        self._unsubscribe = table.subscribe(self.on_event)

    # --- io -----------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(wrap_text(text, WIDTH) + "\n")  # (a card's rows fit: kept)
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(wrap_text(prompt, WIDTH) + " ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise _Quit(ended=True)
        return line.strip()

    # --- what happened ---------------------------------------------------------------
    def on_event(self, e: Event) -> None:
        """Tell what the table did (called while the table applies it)."""
        if e.kind == "store_waiting":  # (from the store's thread, while a save waits)
            if e.data["waiting"]:
                self.say(f"{e.text}; the game goes on once it is saved...")
            elif e.data["saved"]:
                self.say("The database is free again: saved.")
            return  # (a save given up says so next: a store warning)
        players = self.table.players
        who = players[e.player].name if e.player is not None else ""
        computer = e.player is not None and players[e.player].is_computer
        # (a finished game's store warning comes right after its "finished" event)
        if e.kind == "store_warning" and self._finishing:
            self.finish_failed = True
        self._finishing = e.kind == "finished"
        if e.kind == "rolled":
            if e.data.get("entered") and not self.told_entered:
                self.told_entered = True
                self.say("Dice entered by hand: this game is now marked dice entered.")
            if computer or self.table.view().state.is_terminal():
                # (a computer's roll; or one that won at once, followed by the end: the
                # dice are said, since no prompt shows them)
                self.say(f"{verb(who, 'rolls', 'roll')}: "
                         f"{dice_text(e.data['dice'], self.table.ruleset)}.")
            else:
                self.say(self.boxes_line())
        elif e.kind == "chosen" and computer:
            kept = " ".join(map(str, e.data["kept"]))
            self.say(f"{verb(who, 'keeps', 'keep')} {kept or 'nothing'} and "
                     f"{'roll' if is_you(who) else 'rolls'} again.")
        elif e.kind == "scored":
            self.say(self.scored(who, e.data))
            st = self.table.view().state
            boxes = len(st.ruleset.categories) * len(st.ruleset.columns)
            left = [p.name for i, p in enumerate(st.players) if not st.card(i).complete]
            # (not the last round of an even game: each player after has one box left)
            uneven = e.player is not None and any(
                not st.card(i).complete and (i < e.player or boxes - st.card(i).filled > 1)
                for i in range(len(st.players)))
            if e.player is not None and st.card(e.player).complete and uneven \
                    and not st.is_terminal():
                # (Tommy's Yahtzee's repeats, Kismet's penalties: cards fill unevenly)
                rest = left[0] if len(left) == 1 else ", ".join(left[:-1]) + " and " + left[-1]
                self.say(f"{verb(who, 'has', 'have')} filled every box; the game goes on "
                         f"for {rest}.")
        elif e.kind == "penalty":  # (the second Kismet: a 0 on another player's card)
            self.say(f"{e.text}.")
        elif e.kind == "gave_back" and not computer:
            self.say("Dice given back: none is chosen to roll.")
        elif e.kind == "took_back":
            dice = dice_text(self.table.view().state.dice, self.table.ruleset)
            self.say(f"Taken back. {who} again, dice: {dice}.")
            self.say(self.boxes_line())
        elif e.kind == "clock":  # a person's time ran out: the computer plays the turn
            self.say(f"{e.text}.")
        elif e.kind in ("store_warning", "computer_failed"):
            self.say(f"Warning: {e.text}")
        elif e.kind == "computer_thinking":
            self.say(f"{e.data.get('what', '')}...")
            self._since = (time.monotonic(), 0)
        elif e.kind == "computer_progress":
            self.progress(int(e.data["done"]), int(e.data["total"]))

    def progress(self, done: int, total: int) -> None:
        """A long build (a computer player getting ready): a line at each quarter, with
        the time left at the pace so far."""
        start, said = self._since
        quarter = 4 * done // total if total > 0 else 4
        if not said < quarter < 4:
            return
        self._since = (start, quarter)
        spent = time.monotonic() - start
        if spent < 2:  # (a quick build: no lines of "about 0 s left")
            return
        left = spent * (total - done) / max(done, 1)
        self.say(f"{25 * quarter}% done, about {max(1, round(left))} s left.")

    # --- pieces ---------------------------------------------------------------------
    def label(self, category: str, column: int) -> str:
        rs = self.table.ruleset
        lab = rs.category(category).label
        return f"{lab} (column {column + 1})" if len(rs.columns) > 1 else lab

    def typed(self, move: Advice) -> str:
        """What to type for an advised move: the advice keeps dice by their faces, and
        the line game names the dice to roll again by position (", type 2 3")."""
        rs = self.table.ruleset
        if move.category is not None:
            key = self.keys[move.category]
            return f", type {key} {move.column + 1}" if len(rs.columns) > 1 else \
                f", type {key}"
        if not move.reroll:
            return ""
        if len(move.reroll) == rs.dice:
            return ", type a"
        return ", type " + " ".join(str(p + 1) for p in move.reroll)

    def scored(self, who: str, d: Mapping[str, Any]) -> str:
        """A scoring: the box's points, and apart what is no box's (a Yahtzee bonus, as the
        card shows it) and why a box scored more (served, in Generala)."""
        rs = self.table.ruleset
        points, bonus = d.get("points", d["total"]), d.get("bonus", 0)
        served = " (served)" if d.get("served") else ""
        text = (f"{verb(who, 'scores', 'score')} {self.label(d['category'], d['column'])} for "
                f"{points}{served}")
        if d.get("repeat"):
            text = text.replace(f" for {points}", f" again for {points}", 1)
        if bonus:
            label = next((t for t in (r.extra_label(rs) for r in rs.special) if t), "bonus")
            text += f" and a {label} of {bonus}"
        return f"{text}. Total {d['grand']}."

    def boxes_line(self) -> str:
        places = self.table.view().state.placements()
        if not places:
            return f"{no_box_text(self.table.view().state)}: roll again."
        two = len(self.table.ruleset.columns) > 1
        first = {p.category: (p.points, p.bonus) for p in places if p.column == 0}
        both = {p.category for p in places
                if p.column == 1 and first.get(p.category) == (p.points, p.bonus)}
        parts = []
        for p in places:
            extra = " again" if p.repeat else ""
            plus = f" + {p.bonus}" if p.bonus else ""  # (a bonus is no box's: apart)
            key = self.keys[p.category]
            if two and p.category in both:
                # open in both columns, the same dice: once, with both letters (the
                # capital scores column 2)
                if p.column == 1:
                    continue
                name = f"{key}/{key.upper()} {self.table.ruleset.category(p.category).label}"
            else:
                key = key.upper() if two and p.column == 1 else key
                name = f"{key} {self.label(p.category, p.column)}"
            parts.append(f"{name}{extra} {p.points}{plus}")
        head = "Boxes (a capital letter scores column 2): " if two and both else "Boxes: "
        # why only some open boxes take these dice, what a bonus is (the joker rule,
        # Tommy's first turn): the other games say it beside the dice
        note = scoring_note(self.table.view().state)
        text = head + "; ".join(parts) + "." + (f" {note}" if note else "")
        return "\n".join(wrap(text, WIDTH))  # (in cells, as every line here)

    def card(self) -> str:
        st = self.table.view().state
        names = [p.name for p in st.players]
        return card_table(st.ruleset, names, [st.card(i) for i in range(len(names))],
                          width=WIDTH)

    # --- play -----------------------------------------------------------------------
    def run(self) -> int:
        table = self.table
        view = table.view()
        who = ", ".join(p.name + (f" (computer, {p.level})" if p.is_computer else "")
                        for p in view.state.players)
        self.say(f"{table.ruleset.name}. Players: {who}. Type ? for help.")
        warning = table.take_warning()
        if warning:
            self.say(f"Warning: {warning}")
        st = view.state
        if st.dice and not view.over and len(st.players) > 1:  # (taken up mid-turn)
            self.say(f"{possessive(st.players[st.current].name)} turn "
                     f"{st.turns_taken(st.current) + 1}.")
        try:
            while True:
                self.table.run_due()  # computer turns, at once (their steps are printed)
                self.table.check_store()
                view = self.table.view()
                if view.elsewhere is not None:
                    self.reload(view.elsewhere)
                    continue
                if view.finished or (view.over and view.pause is None):
                    break
                if view.pause is not None:
                    self.pause_step(view.pause)
                else:
                    self.person_step()
            self.end()
        except _Quit as stop:
            self.stopped("The input ended" if stop.ended else "You quit")
        except KeyboardInterrupt:  # Ctrl-C: whether the game is saved, then the command
            self.say()             # ends as it does on Ctrl-C (yacht: interrupted)
            self.stopped("Interrupted")
            raise
        return 0

    def stopped(self, why: str) -> None:
        """The game stops before its end (``why``: the input ended, the player quit or
        interrupted it): say so, and whether and how it goes on."""
        self.table.save_unsaved()  # (what a failed save left out: once more now)
        view = self.table.view()
        if view.over:
            self.end()
        elif view.saved and view.game_id is not None:
            self.say(f"Game saved. {resume_hint(view.game_id)}.")
        elif view.game_id is not None and view.elsewhere is None and self.table.has_store:
            self.say(f"{why}. Saving failed (see the warning above): the moves since are "
                     f"not saved. {resume_hint(view.game_id)} as far as it was saved.")
        elif view.elsewhere is not None and view.game_id is not None:
            self.say(f"Not saved here: {view.elsewhere}. {resume_hint(view.game_id)} from "
                     "there.")
        elif not view.state.log:
            self.say(f"{why} before the first roll: nothing was played, so there is "
                     "nothing to save.")
        else:
            reason = ("there is no store" if not self.table.has_store
                      else "the store did not take it: see the warning above")
            self.say(f"{why}. This game was not saved ({reason}).")

    def reload(self, why: str) -> None:
        """The saved game went on elsewhere: take it up from the store, or quit."""
        self.say(f"{why[0].upper()}{why[1:]}.")
        line = self.ask("Enter: reload the game as it is now; q: quit.")
        if line.lower() in ("q", "quit"):
            raise _Quit
        try:
            self.table.reload()
        except SessionError as e:
            self.say(self.because("It cannot be reloaded", str(e)))
            raise _Quit from None
        st = self.table.view().state
        self.say(f"Reloaded: {self.table.ruleset.name}, {st.players[st.current].name} on turn "
                 f"{st.turns_taken(st.current) + 1}.")

    def pause_step(self, pause: str) -> None:
        """The table waits: the next player's turn (or the results); Oops still possible."""
        view = self.table.view()
        st = view.state
        if not st.can_take_back():
            self.table.act(LOCAL, GoOn())
            return
        what = ("the results" if pause == "game_over"
                else f"{possessive(st.players[st.current].name)} turn")
        line = self.ask(f"Enter: {what} (o: Oops, take back the last score).")
        if self.common(line):
            return
        if line.lower() in ("o", "oops", "take-back"):
            self.send_line(line)
            return
        if line.strip():   # (it went on as Enter, the line dropped without a word)
            self.say(f"Not now: {shown(line)} (accepted here: Enter for {what}, o to take "
                     "back the last score, or ? for the commands).")
            return
        self.table.act(LOCAL, GoOn())

    def person_step(self) -> None:
        view = self.table.view()
        st = view.state
        me = st.players[st.current]
        if not st.dice:
            turn = st.turns_taken(st.current) + 1
            prompt = f"{me.name}, turn {turn}: press Enter to roll."
        else:
            saved = rolls_split(st.ruleset, st.rolls, st.rolls_left)[1]
            left = f" ({rolls_text(st.ruleset, st.rolls, st.rolls_left)} left)" if saved else ""
            rolls = (f"Roll {st.rolls} of {st.max_rolls}{left}. "
                     f"Dice: {dice_text(st.dice, st.ruleset)}.")
            # (the question on a line of its own: the two together are wider than a line)
            # (", or score" only where a box takes the dice: not in Tommy's Yacht's first
            # turn before they match)
            scorable = bool(st.placements())
            if st.chosen and st.may_reroll():
                chosen = ",".join(str(i + 1) for i in sorted(st.chosen))
                dice, them = ("Die", "it") if len(st.chosen) == 1 else ("Dice", "them")
                prompt = (f"{rolls}\n{dice} {chosen} chosen: Enter rolls {them}"
                          + (", or score a box?" if scorable else "."))
            elif st.may_reroll():
                prompt = (f"{rolls}\nRe-roll which dice (e.g. 1 3)"
                          + (", or score a box (a letter or a name)?" if scorable else "?"))
            else:
                prompt = f"{rolls}\nScore which box (a letter or a name)?"
        # a game with a turn clock (an online table's, resumed here): whose time, how much
        # is left, as the terminal game's title says it
        clock = clock_line(view.clock, [p.name for p in st.players])
        line = self.ask(f"{clock}. {prompt}" if clock else prompt)
        if not self.common(line):  # else the notation of `yacht resume --action`
            self.send_line(line)

    def send_line(self, line: str) -> None:
        """Parse one line of the notation and ask the table; say what is wrong if anything."""
        table = self.table
        try:
            commands = parse_command(line, table.view().state)
            table.act(LOCAL, *commands)
        except (ActionError, Refused) as e:
            text = str(e)
            if isinstance(e, ActionError) and text.startswith("unknown action "):
                text = self.unknown(line)  # (not the notation's list: this prompt's)
            self.say(self.because("Not now", text) if isinstance(e, Refused)
                     else f"{text[0].upper()}{text[1:]}.")

    def unknown(self, line: str) -> str:
        """A line that is no command: what this prompt takes, in the line game's words
        (the notation's own list names `computer`, and not ? or the positions)."""
        st = self.table.view().state
        if not st.dice:
            here = "Enter to roll,"
        elif st.may_reroll():
            here = "the dice to roll again, e.g. 1 3; a box's letter or name;"
        else:
            here = "a box's letter or name,"
        # (one sentence each: the example in brackets inside brackets read badly)
        return f"unknown action {shown(line)}. Accepted here: {here} or ? for every command"

    def because(self, lead: str, why: str) -> str:
        """``lead`` and why, one sentence or two (session.present.because), a box's
        label or a player's name at the why's start kept as written."""
        return because(lead, why, self.names())

    def names(self) -> list[str]:
        """The boxes' labels and the players' names: kept as written after a colon."""
        return [c.label for c in self.table.ruleset.categories] + [
            p.name for p in self.table.players]

    def no_hint(self, why: str) -> str:
        """Why there is no hint (session.present.no_hint_text, the terminal game's too)."""
        return no_hint_text(why, self.names())

    def common(self, line: str) -> bool:
        """Commands that work at any prompt; True when ``line`` was one."""
        low = line.lower()
        table = self.table
        rs = table.ruleset
        if len(line) == 1 and line.isupper() and key_for(rs, line) is not None:
            return False  # a box's own capital (Maxi Yatzy's O), not the command's letter
        if low in ("q", "quit"):
            raise _Quit
        if low in ("?", "help"):
            from yacht.rules import rules_text

            commands = COMMANDS
            if self.table.view().daily is not None:  # (its dice are everyone's: none typed)
                commands = re.sub(r"  roll 6,6,2 .*\n.*\n", "", commands)
            self.say(rules_text(rs, ids=False) + "\n" + commands)
            self.say("Box letters: " + ", ".join(
                f"{k} {rs.category(c).label}" for c, k in self.keys.items()))
            for note in letter_notes(rs):
                self.say(note)
            for note in marks_lines(rs):  # (Kismet's ●◆■ beside the dice, Generala's 25s)
                self.say(note)
            boards = [c.board for c in rs.categories if c.board]
            if boards:  # (Tommy's: "1 Ones" above, and 1 here rolls die 1 again)
                self.say(f"The board names ({boards[0]}-{boards[-1]}) are not typed here: "
                         "a number names dice to roll again and a rolls them all; score a "
                         "box by its letter or its name.")
            return True
        if low == "c":
            self.say(self.card())
            return True
        if low == "b":
            self.say(self.boxes_line() if table.view().state.dice else "Roll first.")
            return True
        if low == "o":
            st = table.view().state
            try:
                # Oops, both parts: dice chosen to roll are given back (no scoring can be
                # taken back once the turn has rolled), else the last scoring
                table.act(LOCAL, GiveBack() if st.dice and st.chosen else TakeBack())
            except Refused as e:
                self.say(self.because("Oops is not possible", str(e)))
            return True
        if low == "h":
            view = table.view()
            if not view.assisted and not view.over and view.state.dice:
                # the game's first hint: what it does to the game is said before
                name = view.state.players[view.state.current].name
                answer = self.ask(f"{hint_notice(name)} Show the hint? (y/n)").lower()
                while answer not in ("y", "yes", "n", "no"):
                    if answer in ("q", "quit"):  # (quit works at every question)
                        raise _Quit
                    answer = self.ask(f"Answer y (show the hint), n (no hint) or q (quit), "
                                      f"not {shown(answer)}:").lower()
                if answer not in ("y", "yes"):
                    self.say("No hint: the game stays as it was.")
                    return True
            try:
                moves = table.hint(LOCAL)
            except (HintUnavailable, Refused) as e:
                self.say(self.no_hint(str(e)))
                return True
            for i, m in enumerate(moves, 1):
                self.say(f"{i}. {m.text}{self.typed(m)} (expect {m.expected:.1f})")
            win = getattr(moves, "to_win", None)
            if win is not None and win.differ:
                best, chance = win.moves[0]
                self.say(f"{win.title}: {best.text}{self.typed(best)} (chance "
                         f"{100 * chance:.1f}%; {win.how}).")
            elif win is not None:  # the same best move, the build under way, or why not
                self.say(f"{win.line}.")
            marked = getattr(moves, "marked_line", None)  # (a player's first hint only)
            if marked:
                self.say(marked)
            return True
        return False

    def end(self) -> None:
        table = self.table
        entries = table.finish()
        view = table.view()
        st = view.state
        names = [p.name for p in st.players]
        self.say()
        self.say("Game over.")
        self.say(self.card())
        self.say(result_text(st))
        for i in judged(st):
            self.say((f"{names[i]}: " if len(names) > 1 else "") + end_line(st, i, view.past))
        if self.finish_failed and view.game_id is not None:
            self.say(f"Saving the end of the game failed (see the warning above): the game "
                     f"stays unfinished in the store. {resume_hint(view.game_id)}, and the "
                     "score is entered then.")
        top = table.top_ten()
        if top:
            fresh = {(e.game_id, e.name, e.score, e.rank) for e in entries}
            self.say("Top ten" + game_note(view.assisted, view.dice_entered) + ":")
            # (a name of 20 wide letters takes 40 cells: the column is as wide as the widest)
            name_w = max(20, *(cell_len(e.name) for e in top))
            for e in top:
                mark = " *new*" if (e.game_id, e.name, e.score, e.rank) in fresh else ""
                self.say(f"{e.rank:>3}. {ljust(e.name, name_w)} {e.score:>5}  "
                         f"{e.date.astimezone().strftime('%Y-%m-%d')}"
                         f"{entry_note(False, e.dice_entered, e.ended_early)}{mark}")


def _mention_unfinished(store: Any, out: TextIO) -> None:
    """Name the saved games that were not finished (the full-screen game offers them)."""
    try:
        games = saved_games(store, 5)
    except Exception:  # a listing problem must not stop a new game
        return
    for g, totals in games:
        out.write(wrap_text(f"Unfinished: {saved_game_text(g, totals, with_id=False)}: "
                            f"{resume_hint(g.id)}.", WIDTH) + "\n")


def run_plain(launch: Launch, inp: TextIO, out: TextIO, *, store: StoreLike | None = None,
              open_store: bool = True,
              strategy_factory: StrategyFactory | None = None) -> int:
    """Play one game with line prompts; returns the exit status.

    Raises :class:`~yacht.session.game.SessionError` for a game that cannot start.
    """
    opened = False
    problem: str | None = None
    if store is None and open_store:
        store, problem = open_store_for_games()
        opened = store is not None
        if problem and not launch.resume:  # (a game to resume cannot go on: its error says why)
            out.write(f"Warning: {problem}\n")
        note = upgrade_note(store)  # (an older file: upgraded, a copy kept; said)
        if note:
            out.write(f"Note: {note}\n")
    # (without a seed to replay, the dice come from the game's own secret seed)
    rng = random.Random(launch.seed) if launch.seed is not None else None
    try:
        if launch.resume:
            table = open_table(store, source="plain", resume=launch.resume, rng=rng,
                               strategy_factory=strategy_factory, speed="instant",
                               real_dice=True, to_play=True, store_problem=problem)
        else:
            if not launch.direct and store is not None:
                _mention_unfinished(store, out)
            cfg = load_config()
            variant = launch.variant or cfg.variant
            players = demo_players(launch.players) if launch.demo \
                else launch.players or cfg.players
            options = launch.options or cfg.options.get(variant, {})
            table = open_table(store, source="plain", variant=variant, options=options,
                               players=players_from_specs(players), rng=rng,
                               strategy_factory=strategy_factory, speed="instant",
                               real_dice=True)
        return PlainGame(table, inp, out).run()
    finally:
        if opened and store is not None:
            store.close()
