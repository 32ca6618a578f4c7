"""The plain game: line prompts like the DOS originals, for screen readers and pipes.

Every line read is one command; end of input saves the game and stops.
"""

from __future__ import annotations

import random
import textwrap
from typing import Any, TextIO

from yacht.engine import Choose, IllegalAction, Roll, Score
from yacht.render import card_table

from .comment import score_comment
from .config import Launch, PlayerSpec, load_config
from .game import (
    HintUnavailable,
    Session,
    SessionError,
    StoreLike,
    StrategyFactory,
    players_from_specs,
)
from .keys import category_keys, key_for

__all__ = ["PlainGame", "run_plain"]

COMMANDS = """Commands:
  Enter or r      roll (at the start of a turn)
  1 5  or  15     roll dice 1 and 5 again (0 is die 10 with ten dice)
  a / s           roll all dice again / all singlets (dice showing a face once)
  LETTER or ID    score the box (letters are shown in the box list); in two-column
                  games add the column: "f 2", or an upper-case letter for column 2
  b               list the boxes with what they would score
  c               the scorecards
  o               Oops: take back the last scoring (before the next roll)
  h               hint: the advisor's ranking (the game is then marked assisted)
  ?               the rules and these commands
  q               quit (the game is saved)
"""


class _Quit(Exception):
    pass


class PlainGame:
    def __init__(self, session: Session, inp: TextIO, out: TextIO) -> None:
        self.s = session
        self.inp = inp
        self.out = out
        self.keys = category_keys(session.ruleset)

    # --- io -----------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt + " ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise _Quit
        return line.strip()

    def warn_store(self) -> None:
        if self.s.warning:
            self.say(f"Warning: {self.s.warning}")
            self.s.warning = None

    # --- pieces ---------------------------------------------------------------------
    def dice(self) -> str:
        return " ".join(str(d) for d in self.s.state.dice)

    def label(self, category: str, column: int) -> str:
        lab = self.s.ruleset.category(category).label
        return f"{lab} (column {column + 1})" if len(self.s.ruleset.columns) > 1 else lab

    def boxes_line(self) -> str:
        places = self.s.state.placements()
        if not places:
            return "No box takes these dice yet: roll again."
        parts = []
        for p in places:
            extra = " again" if p.repeat else ""
            parts.append(f"{self.keys[p.category]} {self.label(p.category, p.column)}"
                         f"{extra} {p.total}")
        return "\n".join(textwrap.wrap("Boxes: " + "; ".join(parts) + ".", 78))

    def card(self) -> str:
        st = self.s.state
        names = [p.name for p in st.players]
        return card_table(self.s.ruleset, names, [st.card(i) for i in range(len(names))])

    # --- play -----------------------------------------------------------------------
    def run(self) -> int:
        s = self.s
        st = s.state
        who = ", ".join(p.name + (f" (computer, {p.level})" if p.is_computer else "")
                        for p in st.players)
        self.say(f"{s.ruleset.name}. Players: {who}. Type ? for help.")
        self.warn_store()
        try:
            while not st.is_terminal():
                if s.is_computer_turn():
                    self.computer_turn()
                else:
                    self.person_step()
                self.warn_store()
            self.end()
        except _Quit:
            if s.store is not None and s.game_id is not None and not st.is_terminal():
                self.say(f"Game saved. `yacht play --resume {s.game_id}` continues it.")
            elif not st.is_terminal():
                self.say("Game over unfinished (it was not saved).")
            elif not s.finished:
                self.end()
        return 0

    def computer_turn(self) -> None:
        s = self.s
        st = s.state
        name = st.players[st.current].name
        if s.can_take_back():
            # the Next Player pause: the last scoring may still be taken back
            line = self.ask(f"Enter: {name}'s turn (o: Oops, take back the last score).")
            if self.common(line) or line:
                return
        while s.is_computer_turn():
            me = st.current
            action = s.computer_action()
            if isinstance(action, Score):
                pl = next((p for p in st.placements() if p.category == action.category
                           and p.column == action.column), None)
                s.apply(action)
                self.say(f"{name} scores {self.label(action.category, action.column)} for "
                         f"{pl.total if pl else 0}. Total {st.totals(me).grand}.")
                return
            if action is None:
                return
            s.apply(action)
            if isinstance(action, Roll):
                self.say(f"{name} rolls: {self.dice()}.")
            elif isinstance(action, Choose):
                kept = " ".join(str(v) for i, v in enumerate(st.dice) if i not in st.chosen)
                self.say(f"{name} keeps {kept or 'nothing'} and rolls again.")

    def person_step(self) -> None:
        s = self.s
        st = s.state
        me = st.players[st.current]
        if not st.dice:
            turn = st.turns_taken(st.current) + 1
            line = self.ask(f"{me.name}, turn {turn}: press Enter to roll.")
            if self.common(line):
                return
            if line.lower() in ("", "r"):
                self.roll()
            else:
                self.say("Press Enter to roll (? for help).")
            return
        rolls = f"Roll {st.rolls} of {st.max_rolls}. Dice: {self.dice()}."
        if st.may_reroll():
            prompt = f"{rolls} Re-roll which dice (e.g. 1 5), or score a box (letter/id)?"
        else:
            prompt = f"{rolls} Score which box (letter/id)?"
        line = self.ask(prompt)
        if self.common(line):
            return
        self.turn_command(line)

    def roll(self) -> None:
        try:
            self.s.roll()
        except IllegalAction as e:
            self.say(f"Not now: {e}.")
            return
        self.say(self.boxes_line())

    def common(self, line: str) -> bool:
        """Commands that work at any prompt; True when ``line`` was one."""
        low = line.lower()
        s = self.s
        if low in ("q", "quit"):
            raise _Quit
        if low in ("?", "help"):
            from yacht.rules import rules_text

            self.say(rules_text(s.ruleset) + "\n" + COMMANDS)
            self.say("Box letters: " + ", ".join(
                f"{k} {s.ruleset.category(c).label}" for c, k in self.keys.items()))
            return True
        if low == "c":
            self.say(self.card())
            return True
        if low == "b":
            self.say(self.boxes_line() if s.state.dice else "Roll first.")
            return True
        if low == "o":
            try:
                s.take_back()
            except IllegalAction as e:
                self.say(f"Oops is not possible: {e}.")
                return True
            st = s.state
            self.say(f"Taken back. {st.players[st.current].name} again, dice: {self.dice()}.")
            self.say(self.boxes_line())
            return True
        if low == "h":
            try:
                moves = s.hint()
            except HintUnavailable as e:
                self.say(f"No hint: {e}.")
                return True
            for i, m in enumerate(moves, 1):
                self.say(f"{i}. {m.text} (expect {m.expected:.1f})")
            self.say("This game is now marked assisted.")
            return True
        return False

    def turn_command(self, line: str) -> None:
        s = self.s
        st = s.state
        low = line.lower()
        n = s.ruleset.dice
        if low in ("", "n", "r"):
            if st.may_reroll():
                self.say("Give the dice to roll again (e.g. 1 5), or a box to score"
                         " (b lists them).")
            else:
                self.say("No roll left: score a box (b lists them).")
            return
        positions: tuple[int, ...] | None = None
        if low == "a":
            positions = tuple(range(n))
        elif low == "s":
            from .keys import singlets

            positions = singlets(st.dice)
            if not positions:
                self.say("No singlets: every face shows more than once.")
                return
        elif all(tok.isdigit() for tok in low.replace(",", " ").split()):
            toks = low.replace(",", " ").split()
            if len(toks) == 1 and len(toks[0]) > 1 and n < 10:
                toks = list(toks[0])
            try:
                positions = tuple(sorted({(int(t) - 1) if t != "0" else 9 for t in toks}))
            except ValueError:
                positions = None
            if positions is None or any(not 0 <= p < n for p in positions):
                self.say(f"Dice are numbered 1-{n}" + (" (0 is die 10)" if n == 10 else "")
                         + ".")
                return
        if positions is not None:
            try:
                s.choose(positions)
                s.roll()
            except IllegalAction as e:
                if st.chosen:
                    s.choose_none()
                self.say(f"Not now: {e}.")
                return
            self.say(self.boxes_line())
            return
        self.score_command(line)

    def score_command(self, line: str) -> None:
        s = self.s
        rs = s.ruleset
        parts = line.replace(":", " ").split()
        word = parts[0]
        column: int | None = None
        if len(parts) == 2 and parts[1].isdigit():
            column = int(parts[1]) - 1
        elif len(parts) != 1:
            self.say("Give one box (letter or id), optionally with its column: f 2.")
            return
        cid: str | None = None
        if len(word) == 2 and word[1].isdigit() and word[0].isalpha():
            word, column = word[0], int(word[1]) - 1
        if len(word) == 1 and word.isalpha():
            cid = key_for(rs, word.lower())
            if word.isupper() and column is None and len(rs.columns) > 1:
                column = 1
        else:
            wanted = word.lower().replace("-", "_")
            cid = next((c.id for c in rs.categories
                        if wanted in (c.id, c.label.lower().replace(" ", "_"))), None)
        if cid is None:
            self.say(f"No box {word!r}. " + self.boxes_line())
            return
        if column is None:
            cols = sorted({p.column for p in s.state.placements() if p.category == cid})
            column = cols[0] if cols else 0
        st = s.state
        me = st.current
        pl = next((p for p in st.placements() if p.category == cid and p.column == column),
                  None)
        try:
            s.score(cid, column)
        except IllegalAction as e:
            self.say(f"Not now: {e}.")
            return
        self.say(f"{st.players[me].name} scores {self.label(cid, column)} for "
                 f"{pl.total if pl else 0}. Total {st.totals(me).grand}.")

    def end(self) -> None:
        s = self.s
        st = s.state
        entries = s.finish()
        self.warn_store()
        names = [p.name for p in st.players]
        totals = st.returns()
        self.say()
        self.say("Game over.")
        self.say(self.card())
        win = st.winners()
        if len(names) == 1:
            self.say(f"{names[0]} scored {totals[0]}.")
        elif len(win) > 1:
            self.say(f"A tie at {totals[win[0]]}: " + " and ".join(names[i] for i in win) + ".")
        else:
            self.say(f"{names[win[0]]} wins with {totals[win[0]]}.")
        people = [i for i, p in enumerate(st.players) if not p.is_computer] or win[:1]
        for i in people:
            self.say((f"{names[i]}: " if len(names) > 1 else "")
                     + score_comment(s.ruleset, totals[i]))
        top = s.top_ten()
        if top:
            fresh = {(e.game_id, e.name, e.score, e.rank) for e in entries}
            self.say("Top ten" + (" (assisted)" if s.assisted else "") + ":")
            for e in top:
                mark = " *new*" if (e.game_id, e.name, e.score, e.rank) in fresh else ""
                self.say(f"{e.rank:>3}. {e.name:<20} {e.score:>5}  "
                         f"{e.date.astimezone().strftime('%Y-%m-%d')}{mark}")


def _mention_unfinished(store: Any, out: TextIO) -> None:
    """Name the saved games that were not finished (the full-screen game offers them)."""
    try:
        games = list(store.unfinished_games())[:5]
    except Exception:  # a listing problem must not stop a new game
        return
    for g in games:
        names = ", ".join(p.name for p in g.players)
        out.write(f"Unfinished: {g.variant} ({names}), turn {g.turn}: "
                  f"`yacht play --resume {g.id}` continues it.\n")


def _open_store() -> tuple[StoreLike | None, str | None]:
    try:
        from yacht.store import open_store

        store: Any = open_store()
        return store, None
    except Exception as e:  # StoreError, or no store package: play without saving
        return None, f"games are not saved: {e}"


def run_plain(launch: Launch, inp: TextIO, out: TextIO, *, store: StoreLike | None = None,
              open_store: bool = True,
              strategy_factory: StrategyFactory | None = None) -> int:
    """Play one game with line prompts; returns the exit status.

    Raises :class:`~yacht.session.game.SessionError` for a game that cannot start.
    """
    from yacht.rules import OptionError, UnknownVariant, get

    opened = False
    if store is None and open_store:
        store, problem = _open_store()
        opened = store is not None
        if problem:
            out.write(f"Warning: {problem}\n")
    rng = random.Random(launch.seed) if launch.seed is not None else random.SystemRandom()
    try:
        if launch.resume:
            if store is None:
                raise SessionError("there is no store to resume from")
            session = Session.resume(store, launch.resume, rng=rng,
                                     strategy_factory=strategy_factory)
        else:
            if not launch.direct and store is not None:
                _mention_unfinished(store, out)
            cfg = load_config()
            variant = launch.variant or cfg.variant
            players = launch.players or cfg.players
            if launch.demo:
                players = launch.players or [PlayerSpec("Computer 1", "intermediate"),
                                             PlayerSpec("Computer 2", "expert")]
                players = [p if p.is_computer else PlayerSpec(p.name, "intermediate")
                           for p in players]
            options = launch.options or cfg.options.get(variant, {})
            try:
                rs = get(variant, options)
            except (UnknownVariant, OptionError) as e:
                raise SessionError(str(e)) from None
            session = Session(rs, players_from_specs(players), store=store, rng=rng,
                              strategy_factory=strategy_factory,
                              meta={"source": "plain"})
        return PlainGame(session, inp, out).run()
    finally:
        if opened and store is not None and hasattr(store, "close"):
            store.close()
