"""A game's analysis as every interface tells it: each player's own decisions.

:func:`yacht.strategy.analysis.analyse` judges every decision of a record as the
decision of the player on turn. The turns the computer played for a person - a demo
that took over the game (F2), a stand-in while they were away, their clock that ran
out: the record marks those scores ``by`` - are not theirs. :func:`analyse_game` (what
an interface calls for a game's analysis) leaves the decisions of those turns out of
the person's figures (loss, decisions, mistakes, the costliest; the luck still counts
what the computer lost there, as the dice's and not the person's), and :func:`heading`
is the sentence an interface shows over each player's costliest decisions: it says
which turns the computer played, and what a game that ended at once left a player
(Generala's served Generala: "Bob had no turn: the game ended at once") instead of
"has made no decision yet". The same facts say the end of the game
(:func:`~yacht.session.comment.end_line`: no verdict on a score the computer helped
make) and the card (the snapshot's ``played_by``): :func:`~yacht.session.comment.
played_for`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

from yacht.engine import Record, State
from yacht.render import decisions_text, is_you, possessive
from yacht.strategy.analysis import (
    EXACT,
    Analysis,
    DecisionAnalysis,
    PlayerAnalysis,
    analyse,
)

from .comment import scores_played_for, turns_text

__all__ = ["PlayerReview", "analyse_game", "heading", "review"]


# --- the analysis -----------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerReview(PlayerAnalysis):
    """A player's figures from their own decisions only (see the module doc):
    ``computer_turns`` their own turns the computer played for them (left out),
    ``computer_loss`` what the computer's decisions there lost (counted with the luck),
    ``said`` the sentence on their decisions (:func:`heading`)."""

    computer_turns: tuple[int, ...] = ()
    computer_loss: float = 0.0
    said: str = ""

    @property
    def luck(self) -> float:
        return self.result - self.expected_start + self.loss + self.computer_loss

    def to_json(self, rs: Any = None) -> dict[str, Any]:
        out = super().to_json(rs)
        out["decisions_text"] = self.said
        out["computer_turns"] = list(self.computer_turns)
        return out


def analyse_game(record: Record, **options: Any) -> Analysis:
    """The analysis of ``record`` as the interfaces show it: :func:`yacht.strategy.
    analysis.analyse` (``options``: its keywords; what it raises), then :func:`review`."""
    return review(analyse(record, **options), record)


def review(a: Analysis, record: Record) -> Analysis:
    """``a`` (the analysis of ``record``) with each player's figures from their own
    decisions: the turns the computer played for a person left out, and each player's
    sentence (:func:`heading`) said in the terms of the game."""
    state = record.new_state()
    taken = scores_played_for(state, record.actions)
    computer = [frozenset(turn for turn, _ in scores) for scores in taken]
    players: list[PlayerReview] = []
    for p in a.players:
        left = computer[p.index] if p.index < len(computer) else frozenset()
        mine = [d for d in a.decisions if d.player == p.index and d.turn not in left]
        theirs = [d for d in a.decisions if d.player == p.index and d.turn in left]
        costly = sorted((d for d in mine if d.loss > EXACT), key=lambda d: -d.loss)
        same = {f.name: getattr(p, f.name) for f in fields(p) if f.init}
        same.update(loss=math.fsum(d.loss for d in mine), decisions=len(mine),
                    mistakes=len(costly), costliest=tuple(costly[:3]),
                    computer_turns=tuple(sorted(left)),
                    computer_loss=math.fsum(d.loss for d in theirs))
        made = PlayerReview(**same)
        players.append(replace(made, said=_said(a, made, state)))
    decisions: tuple[DecisionAnalysis, ...] = tuple(
        d for d in a.decisions
        if d.player >= len(computer) or d.turn not in computer[d.player])
    return replace(a, players=tuple(players), decisions=decisions)


def _said(a: Analysis, p: PlayerReview, state: State) -> str:
    """The sentence on player ``p``'s decisions (``state``: the game at its end)."""
    name = p.name
    left = len(p.computer_turns)
    turns = state.turns_taken(p.index)
    if left:
        played = turns_text(name, left, turns)
        if not p.decisions:
            whose = "yours" if is_you(name) else possessive(name)
            return f"{played}: none of the decisions are {whose}."
        return f"{played} (left out here). " + decisions_text(
            name, p.mistakes, p.decisions, p.loss)
    if not p.decisions and a.ended_by is not None:
        if p.index == a.ended_by:
            return f"{name} won the game at once, before any decision."
        if turns == 0:
            return f"{name} had no turn: the game ended at once."
        return f"{name} made no decision: the game ended at once."
    return decisions_text(name, p.mistakes, p.decisions, p.loss)


def heading(p: PlayerAnalysis) -> str:
    """What an interface shows over player ``p``'s costliest decisions: the sentence on
    their decisions (:func:`review`'s; for an analysis not reviewed, the analysis' own),
    ending with a colon when the costliest follow ("19 of your 35 decisions lost points
    (104.2 points in all); the 3 costliest:")."""
    said = getattr(p, "said", "") or decisions_text(p.name, p.mistakes, p.decisions, p.loss)
    if not p.costliest:
        return said
    if len(p.costliest) == p.mistakes:
        return said[:-1] + ":"
    return said[:-1] + f"; the {len(p.costliest)} costliest:"
