"""The analysis of a finished game, on a page of its own (``a`` on the end screen): each
player's loss (the points their decisions lost to the expert), luck and accuracy, their
three costliest decisions with the position, and charts of the expected final score
and (two or more players) of the chance of winning.

The work is done by :func:`yacht.session.review.analyse_game` (the turns the computer
played for a person, a demo's, left out of their figures) in a thread of its own
(:class:`AnalysisJob`): the first time a variant is analysed the expert's tables are
built, which the page shows with a progress bar.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import chop_cells
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from yacht.render import LOSS, accuracy_text, dice_text, loss_text, luck_text

from ..widgets.cells import cell_len, ljust, wrap_cells
from ..widgets.keybar import KeyBar
from .base import page_title

if TYPE_CHECKING:
    from textual.timer import Timer

    from yacht.engine import Record
    from yacht.rules import Ruleset
    from yacht.strategy.analysis import Analysis, DecisionAnalysis

__all__ = ["AnalysisJob", "AnalysisScreen", "analysis_text", "position_text"]

#: the marks of the players in the charts (those of yacht.strategy.analysis.text_chart)
MARKS = "12345678"


def _wrap(text: str, width: int, indent: str = "", first: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` cells (a name's emoji takes two), the first
    after ``first`` (else ``indent``), the others after ``indent``; a word wider than a
    line is cut.

    >>> _wrap("Zoë 🎲🎲 made 12 decisions", 20, "  ", "")
    ['Zoë 🎲🎲 made 12', '  decisions']
    """
    width = max(20, width)
    lines: list[str] = []
    line = indent if first is None else first
    empty = True  # nothing after the line's indent yet
    for word in text.split():
        while word:
            piece = word if empty else " " + word
            if cell_len(line + piece) <= width:
                line, word, empty = line + piece, "", False
            elif empty:  # wider than a line: as much as fits
                head = chop_cells(word, max(1, width - cell_len(line)))[0]
                lines.append(line + head)
                line, word = indent, word[len(head):]
            else:
                lines.append(line)
                line, empty = indent, True
    if not empty or not lines:
        lines.append(line if not empty else (first or indent))
    return lines


def position_text(rs: Ruleset, card: str) -> str:
    """A card in the notation of ``yacht advise --card`` in box names (the boxes of a
    two-column card by column).

    >>> from yacht.rules import get
    >>> position_text(get("yahtzee"), "threes=6,three_of_a_kind=22")
    'Threes 6, 3 of a Kind 22'
    >>> position_text(get("ancient-yacht-double"), "ones=3,col2:twos=4,col2:choice=20")
    'column 1: Ones 3; column 2: Twos 4, Choice 20'
    >>> position_text(get("yahtzee"), "")
    'nothing yet'
    """
    columns: dict[int, list[str]] = {}
    extra = ""
    for item in (i for i in card.split(",") if i):
        where, _, value = item.partition("=")
        column = 1
        if ":" in where:
            col, _, where = where.partition(":")
            column = int(col.removeprefix("col") or 1)
        if where == "extra":
            extra = f"bonus points {value}"
            continue
        try:
            label = rs.category(where).label
        except (KeyError, LookupError):
            label = where
        columns.setdefault(column, []).append(f"{label} {value}")
    if len(rs.columns) > 1 and columns:
        parts = [f"column {c}: {', '.join(boxes)}" for c, boxes in sorted(columns.items())]
    else:
        parts = [", ".join(boxes) for _, boxes in sorted(columns.items())]
    if extra:
        parts.append(extra)
    return "; ".join(parts) or "nothing yet"


def _decision_lines(rs: Ruleset, d: DecisionAnalysis, width: int) -> list[str]:
    rolls = (f"{d.rolls_left} roll{'s' if d.rolls_left != 1 else ''} left"
             if d.rolls_left > 0 else "no roll left")
    lines = _wrap(f"Turn {d.turn}, dice {dice_text(d.dice, rs)}, {rolls}", width, "    ", "  ")
    lines += _wrap(f"played: {d.played.text}", width, "      ", "    ")
    lines += _wrap(f"expert: {d.best.text} (the choice lost {loss_text(d.loss)} points)", width,
                   "      ", "    ")
    lines += _wrap(f"card: {position_text(rs, d.card)}", width, "      ", "    ")
    return lines


def analysis_text(a: Analysis, width: int = 78) -> str:
    """The analysis as lines of at most ``width`` characters (names whole: a line that
    would be too wide is laid out otherwise, never cut)."""
    from yacht.session.review import heading
    from yacht.strategy.analysis import fitted_chart, per_column

    rs = a.ruleset
    n = len(a.players)
    out: list[str] = []
    note = f" ({a.start_note})" if a.start_note else ""
    out += _wrap(f"Every decision against {a.reference}. The expected score at the start "
                 f"is {a.expected_start:.1f}{note}.", width)
    if a.ended_text:
        out += _wrap(a.ended_text, width)
    if not a.finished:
        out += _wrap("The game is not finished: a result is the expected final score of "
                     "the position reached.", width)
    out.append("")
    # the players: a table when it fits, else a few lines each
    name_w = max(6, *(cell_len(p.name) for p in a.players))  # (an emoji takes two cells)
    head = f"  {'Player':<{name_w}}  {'Score':>5}  {LOSS:>6}  {'Luck':>6}  {'Accuracy':>8}"
    if len(head) <= width:
        out.append(head)
        for p in a.players:
            out.append(f"{MARKS[p.index % 8]} {ljust(p.name, name_w)}  {p.score:>5}  "
                       f"{loss_text(p.loss):>6}  {luck_text(p.luck):>6}  "
                       f"{accuracy_text(p.accuracy):>8}")
    else:
        for p in a.players:
            out += _wrap(f"{MARKS[p.index % 8]} {p.name}: {p.score} points", width, "  ", "")
            out.append(f"  {LOSS.lower()} {loss_text(p.loss)}, luck {luck_text(p.luck)}, "
                       f"accuracy {accuracy_text(p.accuracy)}")
    out.append("")
    out += _wrap(f"{LOSS}: the points the player's decisions lost against the expert's "
                 "(0.0 is perfect play). Luck: what the dice gave or took. The score is the "
                 f"expected score at the start + luck - {LOSS.lower()}. Accuracy: the share "
                 "of the expert's expected score that the decisions kept.", width)
    for p in a.players:
        out.append("")
        out += _wrap(heading(p), width)  # (the turns the computer played said and left out)
        for d in p.costliest:
            out += _decision_lines(rs, d, width)
    legend = _wrap("   ".join(f"{MARKS[p.index % 8]} {p.name}" for p in a.players)
                   + ("   (* where two meet)" if n > 1 else ""), width, "  ", "  ")
    series = [list(p.expected) for p in a.players]
    if any(len(s) > 1 for s in series):
        lines, step = fitted_chart(series, width)
        out.append("")
        out += _wrap(f"Expected final score after each turn (x: turns played{per_column(step)})",
                     width)
        out += lines
        if n > 1:
            out += legend
    if a.win is not None and len(a.win) > 1:
        win = [[100 * m.chances[p.index] for m in a.win] for p in a.players]
        lines, step = fitted_chart(win, width, lo=0, hi=100)
        out.append("")
        out += _wrap("Chance of winning after each turn of the game, in % (x: turns of "
                     f"the game{per_column(step)}; {a.win_how})", width)
        out += lines
        out += legend
    return "\n".join(out)


@dataclass
class Progress:
    """How far the analysis is: ``what``, and ``done`` of ``total`` (total 0: unknown)."""

    what: str
    done: int = 0
    total: int = 0


class AnalysisJob:
    """The analysis of one record, worked out once in a thread of its own (a daemon: a
    person who quits does not wait for it). ``listen`` is told of every change (from
    that thread)."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.result: Analysis | None = None
        #: the result has the decisions only: the chances of winning are still to come
        self.partial = False
        self.error: str | None = None
        #: why the chances of winning could not be worked out (the rest stands)
        self.win_error: str | None = None
        self.progress = Progress("Starting the analysis")
        self.listeners: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: when it started (the monotonic clock), for the time the page says it has taken
        self.started: float | None = None

    @property
    def done(self) -> bool:
        """Nothing more to come (the whole analysis, or a failure)."""
        return (self.result is not None and not self.partial) or self.error is not None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return  # one analysis at a time, once
            self._thread = threading.Thread(target=self._run, name="yacht-analysis",
                                            daemon=True)
            self.started = time.monotonic()
        self._thread.start()

    def _say(self, progress: Progress) -> None:
        self.progress = progress
        self._tell()

    def _tell(self) -> None:
        for listen in list(self.listeners):
            listen()

    def _run(self) -> None:
        from yacht.engine import RecordError
        from yacht.session.review import analyse_game as analyse  # (a person's own turns)
        from yacht.strategy import prepare, ready
        from yacht.strategy.solver import UnsupportedRuleset

        try:
            rs = self.record.ruleset
            if not ready("expert", rs):
                what = f"Building the expert's tables for {rs.name} (the first time only)"
                self._say(Progress(what))
                shown = [-1]

                def progress(done: int, total: int) -> None:
                    percent = 100 * done // total if total > 0 else 0
                    if percent >= shown[0] + 2 or done >= total:
                        shown[0] = percent
                        self._say(Progress(what, done, total))

                prepare("expert", rs, progress)
            self._say(Progress("Comparing every decision with the expert's"))
            # the decisions first (seconds), then the chances of winning (they may take
            # minutes: games played from every turn's cards), read meanwhile
            quick = analyse(self.record, win_games=0)
            if len(self.record.players) > 1:
                self.partial = True
                self.result = quick
                what = "Working out the chances of winning (the rest is below)"
                self._say(Progress(what))
                started = time.monotonic()
                told = [-1]

                def chances(done: int, total: int) -> None:
                    # shown on a wait over a second, every 2 % of the work
                    percent = 100 * done // total if total > 0 else 0
                    if time.monotonic() - started >= 1 and percent >= told[0] + 2:
                        told[0] = percent
                        self._say(Progress(what, done, total))

                self.result = analyse(self.record, progress=chances)
                self.partial = False
            else:
                self.result = quick
        except (RecordError, UnsupportedRuleset) as e:
            self._failed(str(e))
        except Exception as e:  # the page says it, the game goes on
            self._failed(f"the analysis failed: {e or type(e).__name__}")
        self._tell()

    def _failed(self, why: str) -> None:
        if self.result is not None and self.partial:
            self.partial = False
            self.win_error = why  # the decisions stand; only the chances are missing
        else:
            self.error = why


class AnalysisScreen(Screen[None]):
    """The analysis of a game, scrolled with the arrows, Page Up/Down, Home and End."""

    AUTO_FOCUS = ""
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("a", "close", "Back", show=False),
        Binding("up", "scroll(-1)", "Scroll", key_display="↑↓"),
        Binding("down", "scroll(1)", "Down", show=False),
        Binding("pageup", "scroll(-10)", "Page", key_display="PgUp/PgDn"),
        Binding("pagedown", "scroll(10)", "Page down", show=False),
        Binding("home", "scroll(-100000)", "Top", show=False),
        Binding("end", "scroll(100000)", "End", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, name: str, job: AnalysisJob) -> None:
        super().__init__()
        self.game_name = name
        self.job = job
        self._shown: tuple[object, ...] | None = None
        self._ticking: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(page_title("Analysis - ", self.game_name, self.app.size.width),
                     id="title", markup=False)
        with Horizontal(id="analysis-wait"):
            yield ProgressBar(id="analysis-bar", show_eta=False)
            yield Static(id="analysis-what", markup=False)
        with VerticalScroll(id="analysis-body") as body:
            body.can_focus = False  # scrolled by the keys above: no Tab stop unseen
            yield Static(id="analysis-text", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self.job.listeners.append(self._changed)
        self.job.start()
        self.show()
        if not self.job.done:  # the seconds it has taken, while it lasts
            self._ticking = self.set_interval(1, self.show)

    def on_unmount(self) -> None:
        if self._changed in self.job.listeners:
            self.job.listeners.remove(self._changed)

    def _changed(self) -> None:
        """From the analysis' thread: to this screen's own queue."""
        try:
            self.app.call_from_thread(self.show)
        except RuntimeError:  # the app has gone (or this is its own thread)
            pass

    def show(self) -> None:
        if not self.is_attached:
            return
        job = self.job
        wait = self.query_one("#analysis-wait")
        text = self.query_one("#analysis-text", Static)
        if job.done and self._ticking is not None:
            self._ticking.stop()
            self._ticking = None
        if job.error is not None:
            wait.display = False
            text.update(f"No analysis: {job.error}")
            return
        if not job.done:
            wait.display = True
            p = job.progress
            took = time.monotonic() - (job.started or time.monotonic())
            words = f"{p.what}… ({took:.0f} s)" if took >= 2 else f"{p.what}…"
            self.query_one("#analysis-what", Static).update(words)
            bar = self.query_one("#analysis-bar", ProgressBar)
            # the words beside the bar in its two lines, else under it (at 45 columns
            # they were cut to 'Working out the / chances of')
            beside = self.app.size.width - 3 - (bar.outer_size.width or 26)
            wait.set_class(len(wrap_cells(words, max(1, beside))) > 2, "-stacked")
            if p.total > 0:
                bar.update(total=p.total, progress=p.done)
            else:
                bar.update(total=None)
        else:
            wait.display = False
        if job.result is None:
            return
        # the screen less the padding and the scroll bar (see app.tcss)
        width = max(40, self.app.size.width - 4)
        key = (id(job.result), job.partial, job.win_error, width)
        if key != self._shown:
            self._shown = key
            words = analysis_text(job.result, width)
            if job.partial:
                words += "\n\n" + "\n".join(_wrap(
                    "Chance of winning after each turn of the game: being worked out (the "
                    "bar at the top).", width))
            elif job.win_error is not None:
                words += "\n\n" + "\n".join(_wrap(
                    f"No chances of winning: {job.win_error}", width))
            text.update(words)

    def on_resize(self) -> None:
        self.query_one("#title", Static).update(
            page_title("Analysis - ", self.game_name, self.app.size.width))
        self.call_after_refresh(self.show)  # (the wait's words may go beside the bar or under it)

    def action_scroll(self, lines: int) -> None:
        body = self.query_one("#analysis-body", VerticalScroll)
        body.scroll_to(y=max(0, body.scroll_y + lines), animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    @property
    def text(self) -> str:
        """What the page shows (for tests and screen readers' users)."""
        return str(self.query_one("#analysis-text", Static).render())

