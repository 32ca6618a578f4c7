"""Playing a saved game one action at a time: the notation, showing a game, applying.

Used by `yacht resume`, and reusable by the terminal game and the server.

Notation (case-insensitive):

- ``roll`` - roll (all dice at the start of a turn, else the chosen ones);
  ``roll 3,5`` rolls with those values instead of random ones (real dice)
- ``choose 1,3`` - choose dice 1 and 3 (1-based positions) to roll again
- ``score full_house`` or ``score "Full House" 2`` - score a box (column 2)
- ``give-back`` - Oops 1, ``take-back`` - Oops 2
- ``computer`` - the computer player on turn makes one decision

>>> import random
>>> from yacht.engine import Player, State
>>> from yacht.rules import get
>>> s = State(get("yatzy"), [Player("Ann")], rng=random.Random(1))
>>> parse_action("roll 1,2,3,4,5", s)
[Roll(result=(1, 2, 3, 4, 5))]
>>> s.apply(Roll((1, 2, 3, 4, 5)))
>>> parse_action("choose 1, 3", s), parse_action("score Small straight", s)
([Choose(dice=(0, 2))], [Score(category='small_straight', column=0)])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from yacht.engine import (
    Action,
    Choose,
    GiveBack,
    IllegalAction,
    Rng,
    Roll,
    Score,
    State,
    TakeBack,
)
from yacht.rules import Ruleset

from .core import ScoreEntry, Store

__all__ = ["ActionError", "Applied", "Computer", "action_text", "apply_action", "legal_texts",
           "parse_action", "show_game"]

#: makes one decision for the computer player on turn (dice showing)
Computer = Callable[[State], list[Action]]

NOTATION = ("roll [VALUES], choose POSITIONS (e.g. choose 1,3), score BOX [COLUMN], "
            "give-back, take-back, computer")


class ActionError(ValueError):
    """An action the notation does not know, or that the rules do not allow now."""


def _numbers(text: str, what: str) -> tuple[int, ...]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) == 1 and len(parts[0]) > 1 and parts[0].isdigit():
        parts = list(parts[0])
    out = []
    for p in parts:
        if not p.isdigit():
            raise ActionError(f"{what} {p!r} is not a whole number")
        out.append(int(p))
    return tuple(out)


def _category(rs: Ruleset, text: str) -> str:
    want = text.strip().strip("\"'").lower().replace("-", "_").replace(" ", "_")
    for c in rs.categories:
        if want in (c.id, c.label.lower().replace(" ", "_").replace("-", "_")):
            return c.id
    raise ActionError(f"{rs.id} has no box {text.strip()!r} "
                      f"(boxes: {', '.join(c.id for c in rs.categories)})")


def parse_action(text: str, state: State, computer: Computer | None = None) -> list[Action]:
    """The actions ``text`` stands for in this state (checked against the rules).

    ``computer`` makes the decision of a computer player for ``computer``
    (the store does not know the strategies; the caller passes one in).
    """
    raw = " ".join(text.strip().split())
    word, _, rest = raw.partition(" ")
    word = word.lower().replace("_", "-")
    rs = state.ruleset
    acts: list[Action]
    if word == "roll":
        if rest.strip():
            values = _numbers(rest, "die value")
            n = len(state.to_roll())
            if len(values) != n or not all(1 <= v <= rs.faces for v in values):
                raise ActionError(f"roll needs {n} values 1-{rs.faces} for the dice rolled, "
                                  f"not {rest.strip()!r}")
            acts = [Roll(values)]
        else:
            acts = [Roll()]
    elif word == "choose":
        positions = _numbers(rest, "die position")
        if not positions or not all(1 <= p <= rs.dice for p in positions):
            raise ActionError(f"choose needs die positions 1-{rs.dice}, e.g. choose 1,3")
        acts = [Choose(tuple(sorted({p - 1 for p in positions})))]
    elif word == "score":
        parts = rest.rsplit(" ", 1)
        column = 1
        if len(parts) == 2 and parts[1].isdigit() and len(rs.columns) > 1:
            rest, column = parts[0], int(parts[1])
        if not rest.strip():
            raise ActionError("score needs a box, e.g. score chance")
        if not 1 <= column <= len(rs.columns):
            raise ActionError(f"column {column} does not exist (1-{len(rs.columns)})")
        acts = [Score(_category(rs, rest), column - 1)]
    elif word in ("give-back", "giveback") or raw.lower() == "give back":
        acts = [GiveBack()]
    elif word in ("take-back", "takeback") or raw.lower() == "take back":
        acts = [TakeBack()]
    elif word == "computer":
        player = state.players[state.current]
        if not player.is_computer:
            raise ActionError(f"{player.name} is not a computer player")
        if computer is None:
            raise ActionError("no computer player is available here")
        acts = [Roll()] if not state.dice else computer(state)
    else:
        raise ActionError(f"unknown action {text.strip()!r} (accepted: {NOTATION})")
    probe = state.clone()
    for a in acts:
        try:
            probe.apply(a)
        except IllegalAction as e:
            raise ActionError(f"{action_text(a, rs)} is not allowed now: {e}") from None
    return acts


def action_text(action: Action, rs: Ruleset) -> str:
    """An action in the notation (positions and columns 1-based).

    >>> from yacht.rules import get
    >>> action_text(Choose((0, 2)), get("yatzy")), action_text(Score("chance"), get("yatzy"))
    ('choose 1,3', 'score chance')
    """
    if isinstance(action, Roll):
        return "roll" + (" " + ",".join(map(str, action.result)) if action.result else "")
    if isinstance(action, Choose):
        return "choose " + ",".join(str(p + 1) for p in action.dice)
    if isinstance(action, Score):
        col = f" {action.column + 1}" if len(rs.columns) > 1 else ""
        return f"score {action.category}{col}"
    if isinstance(action, GiveBack):
        return "give-back"
    return "take-back"


def legal_texts(state: State) -> list[str]:
    """What may be done now, in the notation (scorings with their points)."""
    rs = state.ruleset
    out: list[str] = []
    if state.is_terminal():
        return ["take-back"] if state.can_take_back() else []
    if state.players[state.current].is_computer:
        out.append("computer")
    if not state.dice:
        out.append("roll")
    else:
        if state.may_reroll():
            out.append(f"choose POSITIONS (1-{rs.dice})")
            if state.chosen:
                out.append("roll")
        for pl in state.placements():
            text = action_text(Score(pl.category, pl.column), rs) + f" ({pl.total})"
            if text not in out:
                out.append(text)
    if state.can_give_back():
        out.append("give-back")
    if state.can_take_back():
        out.append("take-back")
    return out


def show_game(store: Store, game_id: str) -> str:
    """The game as text: who plays what, scorecards, dice, rolls left, legal actions."""
    from yacht.render import card_table, dice_text

    info = store.game_info(game_id)
    state = store.load_state(game_id)
    rs = state.ruleset
    names = [p.name for p in state.players]
    when = info.last_played.strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"Game {info.id}: {rs.name} ({rs.key}), {', '.join(names)} - "
             f"turn {info.turn}/{info.turns}, last played {when}"]
    if info.assisted:
        lines[0] += " (assisted)"
    lines += ["", card_table(rs, names, [state.card(i) for i in range(len(names))]), ""]
    if info.finished is not None or state.is_terminal():
        res = state.returns()
        lines.append("Finished: " + ", ".join(f"{n} {r}" for n, r in zip(names, res,
                                                                         strict=True)))
        return "\n".join(lines)
    me = state.players[state.current]
    who = f"{me.name}" + (f" (computer, {me.level})" if me.is_computer else "")
    lines.append(f"On turn: {who}")
    if state.dice:
        chosen = (" - chosen to roll again: " + ",".join(str(p + 1) for p in sorted(state.chosen))
                  if state.chosen else "")
        lines.append(f"Dice: {dice_text(state.dice)}{chosen}")
    else:
        lines.append("Dice: not rolled yet")
    lines.append(f"Rolls left: {state.rolls_left}")
    lines.append("Actions: " + " | ".join(legal_texts(state)))
    return "\n".join(lines)


@dataclass
class Applied:
    """What :func:`apply_action` did: the state after it, and high scores if the game ended."""

    state: State
    actions: list[Action]
    finished: bool = False
    entries: list[ScoreEntry] = field(default_factory=list)


def apply_action(store: Store, game_id: str, text: str, rng: Rng | None = None,
                 computer: Computer | None = None) -> Applied:
    """Apply one action in the notation to a saved game, save it, finish the game if over.

    Raises :class:`ActionError` for bad input (nothing is saved then) and
    StoreError for store problems.
    """
    info = store.game_info(game_id)
    if info.finished is not None:
        raise ActionError(f"game {game_id} is finished (see `yacht scores`)")
    state = store.load_state(game_id, rng)
    acts = parse_action(text, state, computer)
    start = len(state.log)
    for a in acts:
        state.apply(a)
    for i in range(start, len(state.log)):
        store.append_action(game_id, i, state.log[i])
    out = Applied(state, state.log[start:])
    if state.is_terminal():
        out.finished = True
        out.entries = store.finish_game(game_id, state)
    return out
