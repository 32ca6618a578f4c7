"""The end line: a comment on a final score, from what means something.

A score is compared with the expert's expected score for the kind of game (measured
once: :mod:`yacht.strategy.expected`), or with the original program's own
:attr:`~yacht.rules.Ruleset.par` where it had one (Yatcy: its author's 335) and the
expert's as well; with the player's own earlier games of the same kind when the store
has them (:func:`past_games`); and, once the game's analysis is known, with how much of
it was luck and what the decisions lost. Never with a maximum nobody reaches
(:func:`best_possible` stays for what else needs it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from yacht.engine import Action, Record, Score, TakeBack
from yacht.render import luck_sentence, possessive
from yacht.rules import Ruleset, counts_of

if TYPE_CHECKING:
    from yacht.engine import State

__all__ = ["Past", "best_boxes", "best_card", "best_possible", "end_line", "judged",
           "past_games", "played_for", "score_comment", "scores_played_for",
           "turns_text"]


@lru_cache(maxsize=32)
def best_boxes(rs: Ruleset) -> dict[str, int]:
    """Category id -> the most its scorer gives for any dice (a shared copy: do not change
    it)."""
    best = {c.id: 0 for c in rs.categories}
    for dice in combinations_with_replacement(range(1, rs.faces + 1), rs.dice):
        counts = counts_of(dice, rs.faces)
        for c in rs.categories:
            v = c.score_counts(counts)
            if v > best[c.id]:
                best[c.id] = v
    return best


@lru_cache(maxsize=32)
def best_card(rs: Ruleset) -> int:
    """The total of a card with every box at its best and the upper bonus earned (what
    the special rules add on top is left out).

    >>> from yacht.rules import get
    >>> best_card(get("ancient-yacht")), best_card(get("yahtzee"))
    (288, 375)
    """
    column = sum(best_boxes(rs).values()) + (rs.upper_bonus.best if rs.upper_bonus else 0)
    return sum(column * m for m in rs.columns)


@lru_cache(maxsize=32)
def best_possible(rs: Ruleset) -> int | None:
    """The highest total a game can reach: every box at its best, the bonus earned, and
    whatever the special rules add with perfect dice (None: they have no limit).

    >>> from yacht.rules import get
    >>> best_possible(get("ancient-yacht")), best_possible(get("yahtzee"))
    (288, 1575)
    >>> best_possible(get("yahtzee", {"bonus": "off"})), best_possible(get("tommys-yahtzee"))
    (375, None)
    """
    total = best_card(rs)
    best = best_boxes(rs)
    for rule in rs.special:
        extra = rule.best_extra(rs, best)
        if extra is None:
            return None
        total += extra
    return total


#: against the expert's expected score: the share of it reached
_COMMENTS = (
    (1.30, "A legendary game: few people ever score like that."),
    (1.12, "Excellent! A score to be proud of."),
    (1.00, "A very good game: better than the expert's average."),
    (0.90, "A good game."),
    (0.78, "A solid, respectable score."),
    (0.65, "Not bad, but the dice can do better for you."),
    (0.50, "A weak game: try keeping the dice that fit an open box."),
)

#: against a best card (a kind of game without the expert's figure)
_CARD_COMMENTS = (
    (0.85, "A legendary game: few people ever score like that."),
    (0.70, "Excellent! A score to be proud of."),
    (0.60, "A very good game."),
    (0.50, "A solid, respectable score."),
    (0.40, "Not bad, but the dice can do better for you."),
    (0.30, "A weak game: try keeping the dice that fit an open box."),
)

#: against a par (a score the original's author was proud of): the share of it reached
_PAR_COMMENTS = (
    (0.90, "Close: a game near the very best."),
    (0.75, "A very good game."),
    (0.60, "A solid, respectable score."),
    (0.45, "Not bad, but the dice can do better for you."),
    (0.30, "A weak game: try keeping the dice that fit an open box."),
)

_LOW = "Oh dear. Better luck next time!"


def _band(ratio: float, comments: tuple[tuple[float, str], ...]) -> str:
    return next((t for limit, t in comments if ratio >= limit), _LOW)


@dataclass(frozen=True)
class Past:
    """A player's earlier finished games of the same kind (this one left out)."""

    games: int
    average: float            # of the earlier games (0.0 when there are none)
    best: int | None          # the best of them; None: none above this game's score


def past_games(store: Any, name: str, rs: Ruleset, score: int) -> Past | None:
    """``name``'s earlier games of ``rs``'s kind from the store's statistics, which
    already count this game (finished, with ``score``); None when the store has none of
    them or cannot say (the end line then leaves them out)."""
    try:
        rows = [r for r in store.stats(name) if r.key == rs.key]
    except Exception:  # a store that cannot be read: the end line does without
        return None
    if not rows:
        return None
    row = next((r for r in rows if r.name == name), rows[0])
    games = int(row.games) - 1
    if games <= 0:
        return Past(0, 0.0, None)
    average = (row.games * row.average - score) / games
    return Past(games, average, int(row.best) if row.best > score else None)


def _past_text(rs: Ruleset, name: str, past: Past) -> str:
    whose = possessive(name, start=True)
    if past.games == 0:
        return f"{whose} first game of {rs.name}."
    if past.best is None:
        return (f"{whose} best game of {rs.name} so far (the {past.games} before it "
                f"averaged {past.average:.1f}).")
    games = "game" if past.games == 1 else "games"
    return (f"{whose} {past.games} earlier {games} of {rs.name}: best {past.best}, "
            f"average {past.average:.1f}.")


def _expert_text(rs: Ruleset, score: int) -> tuple[float, str] | None:
    """The share of the expert's expected score reached, and the sentence saying it."""
    from yacht.strategy.expected import expert_expected

    e = expert_expected(rs)
    if e is None or e.score <= 0:
        return None
    diff = score - e.score
    where = "above" if diff > 0 else "below"
    if e.exact:
        figure = f"{e.score:.1f}"
        if abs(diff) < 0.05:
            said = f"{score} is the expert's average ({figure})."
        else:
            said = f"{score} is {abs(diff):.1f} {where} the expert's average of {figure}."
    else:  # an average over sampled games: its difference as round as the figure
        figure = f"{e.score:.0f}"
        if abs(diff) < 0.5:
            said = f"{score} is near the expert's average (about {figure})."
        else:
            said = (f"{score} is about {abs(diff):.0f} {where} the expert's average "
                    f"(about {figure}).")
    return score / e.score, said


def score_comment(rs: Ruleset, score: int, *, name: str = "", past: Past | None = None,
                  luck: float | None = None, loss: float | None = None,
                  praise: bool = True) -> str:
    """A few sentences on ``score``: how good it is against the expert's average (and the
    original's par where it had one); with ``name``, ``past`` (:func:`past_games`) the
    player's earlier games; with ``luck`` and ``loss`` (the game's analysis) how much of
    it the dice decided. ``praise=False`` (a computer's score): the figures without the
    words said to a person ("Excellent! A score to be proud of.", advice).

    >>> from yacht.rules import get
    >>> print(score_comment(get("ancient-yacht"), 150))
    A solid, respectable score. 150 is 26.1 below the expert's average of 176.1.
    >>> print(score_comment(get("yatcy"), 340))
    Better than the author's 335, by 5! 340 is 97.5 above the expert's average of 242.5.
    >>> print(score_comment(get("yahtzee"), 231, name="You", luck=3.8, loss=27.4))
    A good game. 231 is 23.6 below the expert's average of 254.6. Luck: the dice gave you ...
    >>> print(score_comment(get("ancient-yacht"), 150, praise=False))
    150 is 26.1 below the expert's average of 176.1.
    """
    parts: list[str] = []
    expert = _expert_text(rs, score)
    par = rs.par
    if par is not None:
        if score > par.score:
            parts.append(f"Better than {par.whose} {par.score}, by {score - par.score}!")
        elif score == par.score:
            parts.append(f"Exactly {par.whose} {par.score}: a game to remember!")
        else:
            short = f"{par.score - score} short of {par.whose} {par.score}."
            if praise:
                text = _band(score / par.score if par.score > 0 else 0.0, _PAR_COMMENTS)
                parts.append(f"{text} {score}: {short}")
            else:
                parts.append(f"{score} is {short}")
        if expert is not None:
            parts.append(expert[1])
    elif expert is not None:
        parts += [_band(expert[0], _COMMENTS), expert[1]] if praise else [expert[1]]
    else:  # a kind of game without the expert's figure: the best card is the measure
        card = best_card(rs)
        band = _band(score / card if card > 0 else 0.0, _CARD_COMMENTS)
        parts += [band, f"{score} points."] if praise else [f"{score} points."]
    if past is not None:
        parts.append(_past_text(rs, name or "You", past))
    if luck is not None and loss is not None:
        parts.append(luck_sentence(name or "You", luck, loss))
    return " ".join(parts)


def scores_played_for(state: State, actions: Sequence[Action]
                      ) -> list[list[tuple[int, Score]]]:
    """Play ``actions`` on ``state`` (a new game's); per player, each score the computer
    made for them that stands, with the player's own turn it ended (1-based)."""
    scored: list[tuple[int, int, Score]] = []
    for action in actions:
        who = state.current
        turn = state.turns_taken(who) + 1
        state.apply(action)
        if isinstance(action, Score):
            scored.append((who, turn, action))
        elif isinstance(action, TakeBack) and scored:
            scored.pop()
    out: list[list[tuple[int, Score]]] = [[] for _ in state.players]
    for who, turn, action in scored:
        if action.by is not None:
            out[who].append((turn, action))
    return out


def played_for(state: State) -> list[list[tuple[int, Score]]]:
    """Per player of ``state``'s game, the scores the computer made for them that stand
    (``Score.by``: a stand-in, a demo, their clock), each with the player's own turn it
    ended (1-based). From the log (replayed only when it has such a score)."""
    if not any(isinstance(a, Score) and a.by is not None for a in state.log):
        return [[] for _ in state.players]
    return scores_played_for(Record.from_state(state).new_state(), state.log)


def turns_text(name: str, played: int, turns: int) -> str:
    """How many of a player's turns the computer played, as the start of a sentence.

    >>> turns_text("Ann", 9, 13)
    "The computer played 9 of Ann's 13 turns"
    >>> turns_text("You", 13, 13), turns_text("Bo", 1, 1)
    ('The computer played all 13 of your turns', "The computer played Bo's one turn")
    """
    whose = possessive(name)
    if turns <= 1:
        return f"The computer played {whose} one turn"
    if played >= turns:
        return f"The computer played all {turns} of {whose} turns"
    return f"The computer played {played} of {whose} {turns} turns"


def judged(state: State) -> list[int]:
    """The players whose scores the end comments judge: the people, else the winner of a
    game of computers."""
    people = [i for i, p in enumerate(state.players) if not p.is_computer]
    return people or state.winners()[:1]


def end_line(state: State, player: int, past: Sequence[Past | None] = (),
             luck: float | None = None, loss: float | None = None) -> str:
    """:func:`score_comment` on ``player``'s final score in a finished game; ``past``:
    every player's earlier games as the table read them (``TableView.past``). A game
    that ended at once (a served Generala) is not judged by its points: the cards were
    not full; nor is a score the computer helped make (it played some of the player's
    turns: a demo that took over, a stand-in while they were away, their clock).

    >>> from yacht.engine import Player, Roll, State
    >>> from yacht.rules import get
    >>> st = State(get("generala"), [Player("Ann"), Player("Bob")])
    >>> st.apply(Roll((4, 4, 4, 4, 4)))
    >>> print(end_line(st, 0)); print(end_line(st, 1))
    Won at once with a served Generala (five ...): the points on the cards do not count.
    Ann won at once with a served Generala (five ...), before the cards were full.
    """
    w = state.ended_by
    if w is not None:
        rs = state.ruleset
        name = state.players[player].name
        if player == w:
            said = (f"Won at once with {rs.end_reason()}: the points on the cards do not "
                    "count.")
        else:
            said = (f"{state.players[w].name} won at once with {rs.end_reason()}, before "
                    "the cards were full.")
        mine = past[player] if player < len(past) else None
        return said if mine is None else f"{said} {_past_text(rs, name, mine)}"
    helped = played_for(state)[player]
    if helped:
        turns = turns_text(state.players[player].name, len(helped),
                           state.turns_taken(player))
        return f"{turns}, so the score is not judged."
    return score_comment(state.ruleset, state.returns()[player],
                         name=state.players[player].name,
                         past=past[player] if player < len(past) else None,
                         luck=luck, loss=loss,
                         praise=not state.players[player].is_computer)
