"""After the game: every decision of every player against the expert, luck and skill.

:func:`analyse` replays a game record and, for every decision that stands
(each keep before a re-roll and each box scored; a scoring taken back with
Oops is left out, the decisions made instead count), asks the solver what
the expert would have played and what the choice cost in expected final
score. Every value is an *expected final total* under optimal solitaire play
from that point (the points on the card plus the expected points to come).

Per player:

* **loss**: the sum of the losses of the player's decisions (the JSON also has it
  as ``skill``, the same value: that name is in the analysis's first published form,
  ``web/PROTOCOL.md``'s ``GET /api/games/ID/analysis``, and programs may read it;
  ``loss`` is the one word every interface shows);
* **luck**: the part of the result the dice decided,
  ``luck = result - expected_start + loss``, so that
  ``result = expected_start + luck - loss`` exactly (``result`` is the final
  total, or the expected final total of the position reached in a game not
  finished). Luck is also the sum, over the player's rolls, of the change in
  expected final total each roll made;
* **accuracy** (0-100): ``100 * (expected_start - loss) / expected_start``,
  the share of the expert's expected score that the player's decisions kept.
  The expert scores 100; a player whose decisions lose L points in an average
  game scores ``100 * (1 - L / expected_start)`` on average, which is also
  ``100 * (their average score) / (the expert's)``.
* the three costliest decisions, with the situation written in the notation
  of ``yacht.solve`` (``13356 r2 ones=3,fours=12``);
* the expected final total after each of the player's turns (a chart).

**Win probability** (2 or more players): after every turn of the game, each
player's chance of finishing first, assuming every player plays the expert
strategy from there on. Players' dice are independent, so the chance of
finishing first is a sum over the players' final totals' distributions: those
are exact (the solver's score distributions, :mod:`.solver.dist`: the chances are
exact if all play on as the expert; in Generala the chance that a served Generala
ends the game is counted, :func:`.solver.dist.table_win_chances`) in every variant
but the two-column Ancient Yacht games and Maxi Yatzy
(:func:`.solver.dist.available`), and there
each player's final total is a sample of ``win_games`` games played by the expert
from the player's card (the solver's self-play, fixed seeds: the
same record gives the same figures; each figure within about
``1 / sqrt(win_games)``). A shared first place counts as a win for each player
sharing it (so a finished game's figures are 0 or 1, and the figures of a game
in progress may add up to a little more than 1).

For ``ancient-yacht-10-double``, too big to solve exactly, the reference is
the expert's computed strategy (exact turns, future valued by the one-column
tables), not the proven optimum: losses are measured against that strategy.

Maxi Yatzy with saved rolls has no exact table either: the reference is the expert's
strategy (:mod:`.solver.pool`: each turn exact for the rolls it has, the future the
exact table without saved rolls plus a price a saved roll, up to 9 of them). Its
values are consistent from a turn to the next (a scoring is worth what the next turn
starts from; a pool beyond the price's 9 rolls is valued by the next turn's own plan,
and the last turn's pool counts in it), but they are the strategy's, which
underrates itself (it scores some 50 points more than the table it starts from says,
so the expert's luck averages about +50) and prices the pool by one number: a player
whose pool runs far from the expert's (one who hoards rolls and never uses them, or
spends every one) has loss and luck both overstated, by the same amount (their
difference, ``result - expected_start``, is exact). ``benchmarks/README.md`` has the
measured sizes.

>>> import random
>>> from yacht.engine import Player, Record, State
>>> from yacht.rules import get
>>> from yacht.strategy.base import make_player, play_turn
>>> s = State(get("tommys-crag"), [Player("Cpu", "computer", "expert")], rng=random.Random(5))
>>> expert = make_player(s.ruleset, "expert")
>>> while not s.is_terminal():
...     play_turn(s, expert)
>>> a = analyse(Record.from_state(s))
>>> p = a.players[0]
>>> p.loss, p.accuracy, p.result == s.returns()[0]
(0.0, 100.0, True)
>>> abs(p.expected_start + p.luck - p.loss - p.result) < 1e-9
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from yacht.cells import cell_len, ljust, wrap
from yacht.engine import Record, Roll, Score, State, TakeBack
from yacht.render import (
    LOSS,
    accuracy_text,
    decisions_text,
    dice_text,
    ended_text,
    loss_text,
    luck_sentence,
    luck_text,
    situation_lines,
    variant_title,
)
from yacht.rules import Ruleset, Scorecard
from yacht.rules.errors import InvalidType

from .advisor import Ranked, _check_solution, advise, card_text
from .solver.numbers import whole

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .solver import Solution

__all__ = ["FORMAT", "VERSION", "WIN_GAMES", "Analysis", "DecisionAnalysis", "Move",
           "PlayerAnalysis", "TurnAnalysis", "WinMoment", "analyse", "costliest_heading",
           "fitted_chart", "per_column", "text_chart", "win_chances"]

FORMAT = "yacht-analysis"
VERSION = 1

#: games simulated per player and turn for the win probabilities
WIN_GAMES = 2000

#: a decision losing less than this (points) counts as the expert's choice
EXACT = 1e-6


@dataclass(frozen=True)
class Move:
    """A keep (the dice values kept, sorted) or a box scored, with its expected final total."""

    kind: str                  # "keep" or "score"
    expected: float
    keep: tuple[int, ...] = ()
    box: str | None = None
    column: int = 0
    points: int = 0
    text: str = ""             # "keep 3 3, roll the other three" / "score Chance for 22"

    @classmethod
    def of(cls, r: Ranked, rs: Ruleset) -> Move:
        return cls(r.kind, r.expected, r.keep, r.category, r.column, r.points, r.describe(rs))

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text,
                             "expected": round(self.expected, 6)}
        if self.kind == "keep":
            d["keep"] = list(self.keep)
        else:
            d.update(box=self.box, column=self.column, points=self.points)
        return d


@dataclass(frozen=True)
class DecisionAnalysis:
    """One decision: the situation, what was played, what the expert plays, the loss."""

    player: int
    turn: int                  # the player's own turn, 1-based
    game_turn: int             # the turn of the game (every player's turns counted), 1-based
    situation: str             # the notation of yacht.solve: "13356 r2 ones=3,fours=12"
    dice: tuple[int, ...]
    rolls_left: int
    card: str                  # the card in the notation of `yacht advise --card`
    played: Move
    best: Move

    @property
    def loss(self) -> float:
        return max(0.0, self.best.expected - self.played.expected)

    @property
    def kind(self) -> str:
        return self.played.kind

    def to_json(self, rs: Ruleset | None = None) -> dict[str, Any]:
        """``rs``: the game's rules, for the dice as words show them (``dice_text``: on
        coloured dice each with its colour's mark)."""
        return {"player": self.player, "turn": self.turn, "game_turn": self.game_turn,
                "kind": self.kind, "situation": self.situation, "dice": list(self.dice),
                "dice_text": dice_text(self.dice, rs),
                "rolls_left": self.rolls_left, "card": self.card,
                "played": self.played.to_json(), "best": self.best.to_json(),
                "loss": round(self.loss, 6)}


@dataclass(frozen=True)
class TurnAnalysis:
    """One turn of one player: the box scored and how the expected final total moved."""

    player: int
    turn: int                  # the player's own turn, 1-based
    game_turn: int
    box: str
    column: int
    points: int                # points the scoring gave (bonuses included)
    dice: tuple[int, ...]      # the dice scored
    expected_before: float     # expected final total at the start of the turn
    expected_after: float      # ... after it (the final total after the last turn)
    loss: float                # the turn's decisions' losses
    total: int                 # the player's total after the turn

    @property
    def luck(self) -> float:
        """What the turn's rolls changed: after - before + loss."""
        return self.expected_after - self.expected_before + self.loss

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "turn": self.turn, "game_turn": self.game_turn,
                "box": self.box, "column": self.column, "points": self.points,
                "dice": list(self.dice), "total": self.total,
                "expected_before": round(self.expected_before, 6),
                "expected_after": round(self.expected_after, 6),
                "loss": round(self.loss, 6), "luck": round(self.luck, 6)}


@dataclass(frozen=True)
class PlayerAnalysis:
    index: int
    name: str
    kind: str
    level: str | None
    finished: bool             # the card is full (``result`` is then the final total)
    score: int                 # points on the card
    result: float              # the final total, or the expected final total now
    expected_start: float
    loss: float
    decisions: int
    mistakes: int              # decisions that lost points
    costliest: tuple[DecisionAnalysis, ...]   # up to three, costliest first
    expected: tuple[float, ...]   # expected final total at the start, then after each turn

    @property
    def luck(self) -> float:
        return self.result - self.expected_start + self.loss

    @property
    def skill(self) -> float:
        """The points the decisions cost: ``loss`` under its first name (kept for the
        JSON's readers, see the module doc)."""
        return self.loss

    @property
    def accuracy(self) -> float:
        """``100 * (expected_start - loss) / expected_start``, within 0-100."""
        if self.expected_start <= 0:
            return 100.0 if self.loss <= EXACT else 0.0
        if self.loss <= EXACT:
            return 100.0
        return max(0.0, min(100.0, 100.0 * (self.expected_start - self.loss)
                            / self.expected_start))

    def to_json(self, rs: Ruleset | None = None) -> dict[str, Any]:
        return {"index": self.index, "name": self.name, "kind": self.kind,
                "level": self.level, "finished": self.finished, "score": self.score,
                "result": round(self.result, 6),
                "expected_start": round(self.expected_start, 6),
                # (skill: loss under the name the published JSON began with, kept
                # for programs that read it; the interfaces say loss)
                "loss": round(self.loss, 6), "skill": round(self.loss, 6),
                "luck": round(self.luck, 6), "accuracy": round(self.accuracy, 2),
                "decisions": self.decisions, "mistakes": self.mistakes,
                # the sentence every interface shows (names spoken to as they should be)
                "decisions_text": decisions_text(self.name, self.mistakes, self.decisions,
                                                 self.loss),
                # how much of the result the dice decided (the end line's last sentence)
                "luck_text": luck_sentence(self.name, self.luck, self.loss),
                # the figures as every interface writes them (yacht.render's rules)
                "shown": {"loss": loss_text(self.loss), "luck": luck_text(self.luck),
                          "accuracy": accuracy_text(self.accuracy)},
                "costliest": [d.to_json(rs) for d in self.costliest],
                "expected": [round(v, 6) for v in self.expected]}


@dataclass(frozen=True)
class WinMoment:
    """Every player's chance of finishing first after a turn of the game (``game_turn`` 0:
    before the first; ``player``: whose turn it was, None at the start)."""

    game_turn: int
    player: int | None
    chances: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game_turn": self.game_turn, "player": self.player,
                "chances": [round(c, 6) for c in self.chances]}


@dataclass(frozen=True)
class Analysis:
    """The analysis of one game; :meth:`to_json` is what the interfaces draw."""

    ruleset: Ruleset
    exact: bool                # False: the reference is the expert strategy, not the optimum
    finished: bool
    expected_start: float
    players: tuple[PlayerAnalysis, ...]
    decisions: tuple[DecisionAnalysis, ...]
    turns: tuple[TurnAnalysis, ...]
    win: tuple[WinMoment, ...] | None        # None for one player
    win_games: int             # games sampled per player and turn; 0 when exact
    meta: dict[str, Any] = field(default_factory=dict)
    #: a roll of the game was entered by hand (real dice): no one vouches for its luck
    dice_entered: bool = False
    #: the expert's strategy in a few words when it is not exact ("": the two-column
    #: games' decomposition)
    strategy: str = ""
    #: the player whose roll ended the game at once and won it (a served Generala)
    ended_by: int | None = None

    def __repr__(self) -> str:
        # (the dataclass's own repr wrote out the Ruleset and every decision)
        who = ", ".join(f"{p.name} {p.result:g} (loss {p.loss:.2f})" for p in self.players)
        state = "finished" if self.finished else "unfinished"
        return f"<Analysis of a game of {self.ruleset.id}, {state}: {who}>"

    @property
    def ended_text(self) -> str:
        """Why the game ended before the cards were full, one sentence ("" when it did
        not)."""
        if self.ended_by is None:
            return ""
        return ended_text(self.ruleset, self.players[self.ended_by].name)

    @property
    def win_exact(self) -> bool:
        """The chances of winning come from the exact score distributions (not sampled)."""
        return self.win is not None and self.win_games == 0

    @property
    def win_how(self) -> str:
        """How the chances of winning were worked out, in words."""
        if self.win is None:
            return ""
        if self.win_exact:
            from .solver.dist import ending_note

            note = ending_note(self.ruleset)
            return "exact if all play on as the expert" + (f"; {note}" if note else "")
        return (f"estimated from {self.win_games:,} games the expert plays from each card "
                f"(within about {100 / math.sqrt(self.win_games):.1f} points in 100)")

    @property
    def start_note(self) -> str:
        """What to say beside the expected score at the start when it is the expert
        strategy's own valuation and the expert scores otherwise in play (Maxi Yatzy's
        pool strategy underrates itself by some 50 points), else ""."""
        from .expected import expert_expected

        if self.exact:
            return ""
        e = expert_expected(self.ruleset)
        if e is None or e.exact or abs(e.score - self.expected_start) < 1:
            return ""
        return f"the strategy's own estimate: the expert averages about {e.score:.0f} in play"

    @property
    def reference(self) -> str:
        if self.exact:
            return "the optimal strategy (exact)"
        how = self.strategy or "exact turns, future valued by the one-column tables"
        return f"the expert strategy ({how}), not the proven optimum"

    def to_json(self) -> dict[str, Any]:
        rs = self.ruleset
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION,
            "variant": rs.id, "name": rs.name, "options": dict(rs.option_values),
            "key": rs.key, "exact": self.exact, "reference": self.reference,
            "start_note": self.start_note,
            "finished": self.finished, "dice_entered": self.dice_entered,
            "ended_by": self.ended_by, "ended_text": self.ended_text,
            "expected_start": round(self.expected_start, 6),
            # the colour of each face on coloured dice, ones first ([]: plain dice)
            "die_colours": list(rs.die_colours),
            "players": [p.to_json(rs) for p in self.players],
            "turns": [t.to_json() for t in self.turns],
            "decisions": [d.to_json(rs) for d in self.decisions],
            "win": None,
        }
        if self.win is not None:
            out["win"] = {"games": self.win_games, "exact": self.win_exact,
                          "how": self.win_how, "moments": [m.to_json() for m in self.win]}
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def text(self, width: int = 78) -> str:
        """The analysis as plain text (``yacht analyse``): summary, mistakes, charts."""
        return _text(self, width)


# --- the walk -------------------------------------------------------------------------

def analyse(record: Record, *, win_games: int = WIN_GAMES, seed: int = 0,
            solution: Solution | None = None,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """The analysis of the decisions that stand in ``record`` (any variant; a game
    finished or not). ``win_games``: 0 for no win probabilities; else the games
    simulated per player and turn where the variant has no exact score distributions.
    ``progress(done, total)``: called as the chances of winning are worked out (the
    distributions' first build, the moments), ending with ``done == total``. Raises
    :class:`~yacht.engine.RecordError` for a record that does not replay and
    ``UnsupportedRuleset`` for a variant the solver cannot play."""
    from yacht.engine import IllegalAction, Record, RecordError

    from .solver import solve

    if not isinstance(record, Record):
        raise RecordError(f"analyse reads a game's record (yacht.engine.Record: "
                          f"Record.load(path), Record.from_state(game)), "
                          f"not {type(record).__name__}")
    win_games = whole(win_games, "win_games", lo=0)
    seed = whole(seed, "seed")
    _check_solution(solution, "analyse(record, solution=)")
    if progress is not None and not callable(progress):
        raise InvalidType(f"analyse(record, progress=): progress is a function of (done, "
                          f"total) or None, not {type(progress).__name__}")
    state = record.new_state()
    rs = state.ruleset
    sol = solution if solution is not None else solve(rs, estimate=False)
    n = len(state.players)
    start_value = sol.value(rs.new_card(), 0)
    decisions: list[DecisionAnalysis] = []
    turns: list[TurnAnalysis] = []
    cards: list[Scorecard] = []   # the card after each turn of ``turns``
    # per player: decisions of the turn in progress (kept until its scoring)
    pending: list[list[DecisionAnalysis]] = [[] for _ in range(n)]
    # per player: expected final total at the start of the turn in progress
    turn_start = [start_value] * n
    for i, action in enumerate(record.actions):
        me = state.current
        d: DecisionAnalysis | None = None
        if isinstance(action, Roll) and state.dice:
            d = _keep_decision(state, sol, len(turns) + 1)
        elif isinstance(action, Score) and not state.is_terminal():
            d = _score_decision(state, sol, action, len(turns) + 1)
        elif isinstance(action, TakeBack) and state.can_take_back() and turns:
            # the scoring goes, the keeps of its turn stand (they are the tail of
            # ``decisions``: nobody has rolled since)
            last = turns.pop()
            cards.pop()
            p = last.player
            k = sum(1 for x in decisions if x.player == p and x.turn == last.turn)
            pending[p] = decisions[len(decisions) - k:-1]
            del decisions[len(decisions) - k:]
            turn_start[p] = last.expected_before
        before = rs.totals(state.card(me)).grand
        dice = state.dice
        try:
            state.apply(action)
        except IllegalAction as e:
            raise RecordError(f"action {i + 1} cannot be replayed: {e}") from None
        if d is None:
            continue
        pending[me].append(d)
        if isinstance(action, Score):
            after = state.card(me)
            own = state.turns_taken(me)
            value = sol.value(after, own)
            total = rs.totals(after).grand
            turns.append(TurnAnalysis(
                me, own, len(turns) + 1, action.category, action.column, total - before, dice,
                turn_start[me], value, math.fsum(x.loss for x in pending[me]), total))
            cards.append(after)
            decisions.extend(pending[me])
            pending[me] = []
            turn_start[me] = value
    # the decisions of a turn in progress count too
    for p in range(n):
        decisions.extend(pending[p])
    decisions.sort(key=lambda x: x.game_turn)
    players = tuple(_player(state, sol, p, start_value, decisions, turns) for p in range(n))
    win = None
    sampled = 0
    if n >= 2 and win_games > 0:
        from .solver.dist import available, joined

        if available(rs):
            build = None if progress is None else _part(progress, 0, 9, 10)
            # (a build in the background: followed)
            dd = joined(rs, progress=build, table=True)
            win = _exact_moments(dd, n, turns, cards)
        else:
            sampled = win_games
            win = _win_moments(rs, n, sol, turns, cards, win_games, seed, progress)
        if state.ended_by is not None:  # the roll that ended the game decided it
            won = state.winners()
            win += (WinMoment(len(turns) + 1, state.ended_by,
                              tuple(1.0 if p in won else 0.0 for p in range(n))),)
    if progress is not None:
        progress(1, 1)
    return Analysis(rs, sol.exact, state.is_terminal(), start_value, players,
                    tuple(decisions), tuple(turns), win, sampled,
                    dice_entered=record.dice_entered, strategy=sol.short,
                    ended_by=state.ended_by)


def _situation_text(rs: Ruleset, card: Scorecard, turn: int, dice: Sequence[int],
                    rolls_left: int) -> str:
    from .api import Situation

    return str(Situation(rs, card, tuple(dice), rolls_left, turn))


def _rolls_left(state: State) -> int:
    return state.rolls_left


def _ranking(state: State, sol: Solution) -> list[Ranked]:
    """The advisor's ranking of the player on turn. With saved rolls, a scoring that
    leaves more rolls to the pool than the strategy's price pays for
    (:attr:`Solution.carry_rolls`) is valued as its points and the next turn's own
    value with that pool (:meth:`Solution.pool_turn_value`, what :meth:`Solution.value`
    gives the next turn's start), not as the price: so a scoring's value is the value
    the next turn starts from (nothing appears or vanishes between two turns to be
    counted as luck), and a player whose pool runs far beyond it is not charged for a
    hoard the price calls worthless, turn after turn. The expert's choice stays the
    reference (its loss is 0)."""
    ranking = advise(state, sol)
    if not sol.carry or state.rolls_left <= sol.carry_rolls:
        return ranking
    me = state.current
    turn = state.turns_taken(me)
    out = []
    for r in ranking:
        if r.kind == "score" and r.category is not None:
            after = state.clone(rng=False)
            after.apply(Score(r.category, r.column))
            r = replace(r, expected=sol.value(after.card(me), turn + 1))
        out.append(r)
    best = out[0].expected
    return [replace(r, loss=max(0.0, best - r.expected)) for r in out]


def _keep_decision(state: State, sol: Solution, game_turn: int) -> DecisionAnalysis:
    ranking = _ranking(state, sol)
    kept = tuple(sorted(v for pos, v in enumerate(state.dice) if pos not in state.chosen))
    played = next(r for r in ranking if r.kind == "keep" and r.keep == kept)
    return _decision(state, ranking, played, game_turn)


def _score_decision(state: State, sol: Solution, action: Score,
                    game_turn: int) -> DecisionAnalysis:
    ranking = _ranking(state, sol)
    played = next(r for r in ranking if r.kind == "score" and r.category == action.category
                  and r.column == action.column)
    return _decision(state, ranking, played, game_turn)


def _decision(state: State, ranking: list[Ranked], played: Ranked,
              game_turn: int) -> DecisionAnalysis:
    rs = state.ruleset
    me = state.current
    card = state.card(me)
    turn = state.turns_taken(me)
    r = _rolls_left(state)
    best = ranking[0]
    if played.loss <= EXACT:  # a tie with the best: the expert's choice as well
        best = played
    return DecisionAnalysis(me, turn + 1, game_turn, _situation_text(rs, card, turn, state.dice, r),
                            state.dice, r, card_text(rs, card), Move.of(played, rs),
                            Move.of(best, rs))


def _player(state: State, sol: Solution, p: int, start: float,
            decisions: list[DecisionAnalysis], turns: list[TurnAnalysis]) -> PlayerAnalysis:
    rs = state.ruleset
    who = state.players[p]
    mine = [d for d in decisions if d.player == p]
    loss = math.fsum(d.loss for d in mine)
    card = state.card(p)
    score = rs.totals(card).grand
    # a game that ended at once (a served Generala) is over with the cards as they stand
    over = card.complete or state.ended_by is not None
    if over:
        result = float(score)
    elif p == state.current and state.dice:
        result = _ranking(state, sol)[0].expected
    else:
        result = sol.value(card, state.turns_taken(p))
    costly = sorted((d for d in mine if d.loss > EXACT), key=lambda d: -d.loss)
    expected = [start] + [t.expected_after for t in turns if t.player == p]
    return PlayerAnalysis(p, who.name, who.kind, who.level, over, score, result, start,
                          loss, len(mine), len(costly), tuple(costly[:3]), tuple(expected))


# --- win probabilities -----------------------------------------------------------------

def win_chances(finals: Sequence[npt.NDArray[np.int64]]) -> list[float]:
    """Each player's chance of finishing first when player ``i``'s final total is drawn
    uniformly from ``finals[i]`` (independently): a shared first place counts as a win
    for each player sharing it.

    >>> import numpy as np
    >>> win_chances([np.array([10, 20]), np.array([15])])
    [0.5, 0.5]
    >>> win_chances([np.array([10]), np.array([10])])
    [1.0, 1.0]
    """
    import numpy as np

    lo = min(int(f.min()) for f in finals)
    hi = max(int(f.max()) for f in finals)
    width = hi - lo + 1
    pmf = [np.bincount(np.asarray(f, dtype=np.int64) - lo, minlength=width) / len(f)
           for f in finals]
    at_most = [np.cumsum(p) for p in pmf]          # P(X_j <= x)
    out = []
    for i, p in enumerate(pmf):
        others = np.ones(width)
        for j in range(len(finals)):
            if j != i:
                others = others * at_most[j]       # nobody above x
        out.append(float(min(1.0, max(0.0, (p * others).sum()))))
    return out


def _part(progress: Callable[[int, int], None], a: int, b: int, of: int
          ) -> Callable[[int, int], None]:
    """``progress`` for a part of the work: from ``a / of`` to ``b / of`` of it."""
    def tell(done: int, total: int) -> None:
        progress(a * 1000 + (b - a) * 1000 * done // max(1, total), of * 1000)
    return tell


def _exact_moments(dd: Any, n: int, turns: list[TurnAnalysis],
                   cards: list[Scorecard]) -> tuple[WinMoment, ...]:
    """The chances at the start and after every turn that stands, from the exact
    distributions of the players' final totals."""
    from .solver.dist import end_chance, table_win_chances

    rs = dd.ruleset
    # (a first roll that ends the game at once: Generala's served Generala)
    end = end_chance(rs) if dd.ending else 0.0
    now = [dd.final(rs.new_card(), 0)] * n
    left = [_work(rs.new_card())] * n
    moments = [WinMoment(0, None, tuple(table_win_chances(now, left, 0, end)))]
    for t, card in zip(turns, cards, strict=True):
        now[t.player] = dd.final(card, t.turn)
        left[t.player] = 0 if card.complete else _work(card)
        moments.append(WinMoment(t.game_turn, t.player, tuple(
            table_win_chances(now, left, (t.player + 1) % n, end))))
    return tuple(moments)


def _win_moments(rs: Ruleset, n: int, sol: Solution, turns: list[TurnAnalysis],
                 cards: list[Scorecard], games: int, seed: int,
                 progress: Callable[[int, int], None] | None = None
                 ) -> tuple[WinMoment, ...]:
    """The chances at the start and after every turn that stands (sampled)."""
    cache: dict[tuple[Scorecard, int], npt.NDArray[np.int64]] = {}
    # the work of a card's games is about its open boxes (the turns each game plays):
    # the progress counts those, so that the time left it gives holds from the start
    todo = sum(_work(c) for c, _ in {(c, t.turn) for t, c in zip(turns, cards, strict=True)}
               | {(rs.new_card(), 0)})
    done = [0]

    def finals(card: Scorecard, turn: int) -> npt.NDArray[np.int64]:
        key = (card, turn)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = _final_totals(sol, rs, card, turn, games, seed + len(cache))
            done[0] += _work(card)
            if progress is not None:
                progress(min(done[0], todo), todo + 1)
        return hit

    now = [(rs.new_card(), 0)] * n
    moments = [WinMoment(0, None, tuple(win_chances([finals(*now[p]) for p in range(n)])))]
    for t, card in zip(turns, cards, strict=True):
        now[t.player] = (card, t.turn)
        moments.append(WinMoment(t.game_turn, t.player, tuple(win_chances(
            [finals(*now[p]) for p in range(n)]))))
    return tuple(moments)


def _work(card: Scorecard) -> int:
    """The turns left to play on ``card`` (at least 1: a full card costs a little too)."""
    return max(1, sum(len(col) for col in card.boxes) - card.filled)


def _final_totals(sol: Solution, rs: Ruleset, card: Scorecard, turn: int, games: int,
                  seed: int) -> npt.NDArray[np.int64]:
    import numpy as np

    from .solver import fast_selfplay

    base = rs.totals(card).grand
    if card.complete:
        return np.array([base], dtype=np.int64)
    start = None
    if not sol.forced_turn(card, turn):
        m, a = sol.spec.state_of(card)
        start = (m, a, -1, 0)
    if not sol.spec.machine_play:  # played in Python (about 3 ms a game): fewer games
        games = min(games, 400)
    res = fast_selfplay(sol, games, seed=seed, workers=2, start=start)
    return res.totals.astype(np.int64) + base


# --- text --------------------------------------------------------------------------------

_MARKS = "12345678"


def text_chart(series: Sequence[Sequence[float]], height: int = 8, lo: float | None = None,
               hi: float | None = None, marks: str = _MARKS, fmt: str = "{:.0f}",
               xs: Sequence[Sequence[int]] | None = None) -> list[str]:
    """A compact chart as lines of text: one column per x (0, 1, ...; or ``xs``), one
    mark per series (``marks[i]``; ``*`` where two meet), the y range at the left.

    >>> print("\\n".join(text_chart([[0, 1, 2, 3], [3, 2, 1, 0]], height=4)))
    3 |2  1
      | 21
      | 12
    0 |1  2
       0123
    """
    pts: list[list[tuple[int, float]]] = []
    for i, ys in enumerate(series):
        at = list(xs[i]) if xs is not None else list(range(len(ys)))
        pts.append(list(zip(at, ys, strict=True)))
    values = [v for line in pts for _, v in line]
    if not values:
        return []
    top = max(values) if hi is None else hi
    bottom = min(values) if lo is None else lo
    if top <= bottom:
        top = bottom + 1
    ncols = max(x for line in pts for x, _ in line) + 1
    grid = [[" "] * ncols for _ in range(height)]
    for i, line in enumerate(pts):
        mark = marks[i % len(marks)]
        for x, v in line:
            y = height - 1 - round((v - bottom) / (top - bottom) * (height - 1))
            y = min(height - 1, max(0, y))
            grid[y][x] = mark if grid[y][x] in (" ", mark) else "*"
    top_l, bottom_l = fmt.format(top), fmt.format(bottom)
    w = max(len(top_l), len(bottom_l))
    lines = []
    for r, cells in enumerate(grid):
        label = top_l if r == 0 else bottom_l if r == height - 1 else ""
        lines.append(f"{label:>{w}} |" + "".join(cells).rstrip())
    axis = "".join(str(x % 10) for x in range(ncols))
    lines.append(" " * (w + 2) + axis)
    return lines


def fitted_chart(series: Sequence[Sequence[float]], width: int, lo: float | None = None,
                 hi: float | None = None) -> tuple[list[str], int]:
    """:func:`text_chart` indented by two and at most ``width`` wide: every point while
    they fit, else every ``step``-th (and the last); returns the lines and ``step``.

    >>> lines, step = fitted_chart([list(range(120))], 40)
    >>> step, max(map(len, lines)) <= 40
    (4, True)
    """
    longest = max((len(s) for s in series), default=0)
    room = max(10, width - 10)  # (the indent, the y labels and " |")
    step = 1
    while (longest - 1) // step + 1 > room:
        step += 1
    if step > 1:
        series = [[*s[::step], *([s[-1]] if (len(s) - 1) % step else [])] for s in series]
    return ["  " + line for line in text_chart(series, lo=lo, hi=hi)], step


def per_column(step: int) -> str:
    """What a chart's x axis says when it shows every ``step``-th turn."""
    return f", a column per {step} turns" if step > 1 else ""


def costliest_heading(p: PlayerAnalysis) -> str:
    """How many of the player's decisions lost points, and the costliest of them to come
    ("19 of your 35 decisions lost points (104.2 points in all); the 3 costliest:")."""
    said = decisions_text(p.name, p.mistakes, p.decisions, p.loss)
    if not p.costliest:
        return said
    if len(p.costliest) == p.mistakes:
        return said[:-1] + ":"
    return said[:-1] + f"; the {len(p.costliest)} costliest:"


def _text(a: Analysis, width: int) -> str:
    lines = [f"Analysis of a game of {variant_title(a.ruleset)}"
             + ("" if a.finished else " (not finished)")]
    note = f" ({a.start_note})" if a.start_note else ""
    lines += wrap(f"Reference: {a.reference}; expected score from the start "
                  f"{a.expected_start:.2f}{note}.", width)
    if a.ended_by is not None:
        lines += wrap(a.ended_text, width)
    if a.dice_entered:
        lines += wrap("Dice entered: some dice were entered by hand (real dice); "
                      "this program cannot vouch for them, nor for the luck they made.",
                      width)
    lines.append("")
    keep: set[int] = set()  # lines never wrapped
    name_w = max(4, *(cell_len(p.name) for p in a.players))  # (in cells: 山田 is 4)
    lines.append(f"{'':2}{'player':<{name_w}}  {'score':>6} {LOSS.lower():>7} {'luck':>8} "
                 f"{'accuracy':>9} {'decisions':>9} {'mistakes':>8}")
    for p in a.players:
        score = f"{p.score}" if p.finished else f"{p.score}*"
        lines.append(f"{_MARKS[p.index % 8]:<2}{ljust(p.name, name_w)}  {score:>6} {p.loss:>7.2f} "
                     f"{p.luck:>+8.2f} {accuracy_text(p.accuracy):>9} {p.decisions:>9} "
                     f"{p.mistakes:>8}")
    if not a.finished:
        lines.append("  (* not finished: luck counts to the expected final total now)")
    lines.append("  score = expected at the start + luck - loss")
    lines.append("  accuracy = 100 x (expected at the start - loss) / expected at the start")
    for p in a.players:
        lines.append("")
        lines.append(costliest_heading(p))
        for d in p.costliest:
            # the situation whole, however long: it is what `yacht advise` reads (a long
            # one goes on under itself, broken after a comma: it reads so too)
            for line in situation_lines(f"  turn {d.turn}, dice "
                                         f"{dice_text(d.dice, a.ruleset)}:", d.situation,
                                         width):
                keep.add(len(lines))
                lines.append(line)
            lines.append(f"    played: {d.played.text}; expert: {d.best.text} "
                         f"(lost {loss_text(d.loss, 2)})")
    series = [list(p.expected) for p in a.players]
    if any(len(s) > 1 for s in series):
        chart, step = fitted_chart(series, width)
        lines.append("")
        lines.append(f"Expected final score after each turn (x: turns played{per_column(step)})")
        lines += chart
    if a.win is not None and len(a.win) > 1:
        win_series = [[100 * m.chances[p.index] for m in a.win] for p in a.players]
        chart, step = fitted_chart(win_series, width, lo=0, hi=100)
        lines.append("")
        lines.append("Chance of winning after each turn of the game, % (x: turns of the game"
                     f"{per_column(step)}; {a.win_how})")
        lines += chart
    out: list[str] = []
    for i, line in enumerate(lines):
        if cell_len(line) <= width or i in keep:
            out.append(line)
        else:  # wrapped, its next lines indented under it
            indent = " " * (len(line) - len(line.lstrip()) + 2)
            out += wrap(line, width, subsequent_indent=indent, keep_blanks=True)
    return "\n".join(out)
