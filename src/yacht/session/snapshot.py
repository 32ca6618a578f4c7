"""The table as one JSON object: what every interface draws (``table.schema.json``).

>>> from yacht.engine import Player, Roll
>>> from yacht.rules import get
>>> from yacht.session.table import LOCAL, Table
>>> t = Table.new(get("yatzy"), [Player("Ann")], real_dice=True)   # (dice entered by hand)
>>> _ = t.act(LOCAL, Roll((6, 6, 6, 2, 3)))
>>> snap = t.snapshot(LOCAL)
>>> snap["schema"], snap["dice"], snap["can"]["choose"], snap["cards"][0]["cells"]["sixes"]
('yacht-table/1', [6, 6, 6, 2, 3], True, [''])
>>> next(p["text"] for p in snap["previews"] if p["category"] == "sixes")
'18'
>>> snap["dice_entered"], sorted(snap["dice_seed"])   # the seed itself only once finished
(True, ['commitment', 'scheme'])
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from yacht.render import (
    card_cells,
    card_layout,
    colour_marks,
    preview_text,
    rolls_split,
    rolls_text,
)

from .commands import dice_to_roll, held_dice, legal_texts, own_score_open
from .keys import category_keys
from .present import (
    BROWSER,
    Words,
    help_line,
    hint_notice,
    main_button,
    result_text,
    scoring_note,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from yacht.rules import Ruleset

    from .table import Seat, TableView

__all__ = ["SCHEMA", "for_seat", "schema", "shared"]

#: the name and version of the snapshot's shape; a change that breaks a reader bumps it
SCHEMA = "yacht-table/1"


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of a snapshot (draft 2020-12)."""
    text = resources.files("yacht.session").joinpath("table.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _ruleset_json(view: TableView) -> dict[str, Any]:
    rs = view.ruleset
    return {"id": rs.id, "key": rs.key, "name": rs.name, "options": dict(rs.option_values),
            "dice": rs.dice, "faces": rs.faces, "rolls": rs.rolls, "columns": list(rs.columns),
            "dice_mark": rs.dice_mark, "die_colours": list(rs.die_colours),
            "colour_marks": colour_marks(rs)}


@lru_cache(maxsize=64)
def _rows(rs: Ruleset) -> list[dict[str, Any]]:
    """The card's rows as a snapshot gives them (the same for every snapshot of a
    ruleset: made once and shared, never to be changed)."""
    keys = category_keys(rs)
    boards = {c.id: c.board for c in rs.categories}
    return [{"id": r.id, "label": r.label, "kind": r.kind, "category": r.category,
             "section": r.section, "letter": keys.get(r.category or ""),
             "board": boards.get(r.category or "") or None}
            for r in card_layout(rs)]


#: the keys of :func:`position`: what the game's position alone decides
POSITION_KEYS = ("current", "turn", "turns", "cards", "previews", "dice", "chosen", "rolls",
                 "max_rolls", "rolls_left", "saved_rolls", "rolls_text", "over", "result",
                 "winners", "legal", "note", "progress")


def position(st: Any) -> dict[str, Any]:
    """The part of :func:`shared` that the game's position (its log) alone decides, the
    same for every seat, every watcher and every process that has the same log: the
    cards, the boxes offered, the dice, the texts about them. Most of a snapshot's work
    (a server process that hears of a move made elsewhere takes it from the news instead
    of working it out again). Nothing in it is any seat's own."""
    rs = st.ruleset
    over = st.is_terminal()
    me = st.current
    places = st.placements() if st.dice else []
    previews = [{"category": pl.category, "column": pl.column, "points": pl.points,
                 "bonus": pl.bonus, "total": pl.total, "repeat": pl.repeat, "joker": pl.joker,
                 "served": pl.served, "text": preview_text(pl)} for pl in places]
    played = _played_by(st)
    left = st.rolls_left if st.dice else st.max_rolls
    return {
        "current": me,
        "turn": min(st.turns_taken(me) + 1, rs.turns) if not over else rs.turns,
        "turns": rs.turns,
        "cards": [{"cells": card_cells(rs, st.card(i)), "played_by": played[i]}
                  for i in range(len(st.players))],
        "previews": previews,
        "dice": list(st.dice),
        "chosen": sorted(st.chosen),
        "rolls": st.rolls,
        "max_rolls": st.max_rolls,
        "rolls_left": left,
        "saved_rolls": rolls_split(rs, st.rolls, left)[1],
        "rolls_text": rolls_text(rs, st.rolls, left),
        "over": over,
        "result": result_text(st) if over else None,
        "winners": st.winners() if over else [],
        "legal": legal_texts(st),
        "note": scoring_note(st) if st.dice and not over else "",
        "progress": _progress(st) if over else [],
    }


def fits(pos: dict[str, Any], st: Any) -> bool:
    """Whether ``pos`` (from another process's news) can be this position's: the same
    keys, player on turn, dice and rolls (a quick check beside the log's length, which
    the caller compares)."""
    return (isinstance(pos, dict) and all(k in pos for k in POSITION_KEYS)
            and pos["current"] == st.current and pos["dice"] == list(st.dice)
            and pos["rolls"] == st.rolls and pos["over"] == st.is_terminal()
            and isinstance(pos["cards"], list) and len(pos["cards"]) == len(st.players))


def shared(view: TableView, words: Words | None = None,
           pos: dict[str, Any] | None = None) -> dict[str, Any]:
    """The part of the snapshot every seat sees alike (a server with many browsers at a
    table makes it once per change): everything but ``players``, ``can``, ``seat`` and
    ``help`` (said in the terms of the seat's way of marking dice).
    Read it, never change it: :func:`for_seat` copies it. ``pos``: the view's
    :func:`position` if it is known (made here otherwise)."""
    st = view.state
    rs = st.ruleset
    if pos is None:
        pos = position(st)
    over = pos["over"]
    me = pos["current"]
    last = view.last_score
    thinking = view.thinking
    return {
        "schema": SCHEMA,
        "version": view.version,
        "game_id": view.game_id,
        "saved": view.saved,
        "ruleset": _ruleset_json(view),
        "rows": _rows(rs),
        "players": None,  # the seat's (below): kept here for the order of the keys
        "current": me,
        "turn": pos["turn"],
        "turns": pos["turns"],
        "cards": pos["cards"],
        "previews": pos["previews"],
        "dice": pos["dice"],
        "chosen": pos["chosen"],
        "rolls": pos["rolls"],
        "max_rolls": pos["max_rolls"],
        "rolls_left": pos["rolls_left"],
        "saved_rolls": pos["saved_rolls"],
        "rolls_text": pos["rolls_text"],
        "last_score": None if last is None else {
            "player": last.player, "dice": list(last.dice), "rolls": last.rolls,
            "category": last.category, "column": last.column, "points": last.points,
            "label": rs.category(last.category).label},
        "pause": view.pause,
        "over": over,
        "finished": view.finished,
        "result": pos["result"],
        "winners": pos["winners"],
        "can": None,
        "legal": pos["legal"],
        "help": None,  # the seat's (below): in the terms of its way of marking dice
        "note": pos["note"],
        "thinking": None if thinking is None else {
            "player": thinking.player, "what": thinking.what, "done": thinking.done,
            "total": thinking.total},
        "news": list(view.news),
        "assisted": view.assisted,
        "assisted_players": sorted(view.assisted_players),
        # the game's first hint says this before it is given (an assisted game: nothing)
        "hint_notice": "" if view.assisted or over else hint_notice(st.players[me].name),
        "dice_entered": view.dice_entered,
        "dice_seed": view.dice_seed.to_json() if view.dice_seed is not None else None,
        "daily": view.daily,
        "demo": view.demo,
        "speed": view.speed,
        "warning": view.warning,
        "elsewhere": view.elsewhere,
        "closed": view.closed,
        "seat": None,
        "comments": _comments(st, view.past) if over else [],
        "progress": pos["progress"],
        "new_entries": [e.to_json() for e in view.new_entries],
        "clock": dict(view.clock) if view.clock is not None else None,
        "stand_ins": sorted(view.stand_ins),
    }


def for_seat(base: dict[str, Any], view: TableView, seat: Seat | None,
             words: Words | None = None, made: dict[Any, Any] | None = None) -> dict[str, Any]:
    """The snapshot of ``view`` as ``seat`` sees it (None: a watcher), from its
    :func:`shared` part (a shallow copy: the shared values are the same objects);
    ``words``: those of :func:`shared`. ``made``: what the seats of one :func:`shared`
    part have in common beyond it (the help line of each way of marking dice, the
    players' figures), kept between their calls so that each is made once."""
    made = {} if made is None else made
    st = view.state
    over = base["over"]
    me = st.current
    mine = seat.players if seat is not None else frozenset()
    person_turn = not over and not view.computer_turn  # (not while a demo took over)
    my_turn = person_turn and me in mine and view.pause is None and not view.closed
    may_reroll = st.may_reroll()
    last = view.last_score
    mark = view.dice_mark(seat.id if seat is not None else None)
    kept = held_dice(st, view.held)
    to_roll = dice_to_roll(st, view.held, mark)
    out = dict(base)
    out["dice_mark"] = mark
    out["marks"] = [("held" if i in kept else "") if mark == "hold"
                    else ("roll" if i in to_roll else "") for i in range(len(st.dice))]
    out["to_roll"] = list(to_roll)
    said = made.get(("help", mark))
    if said is None:
        said = made[("help", mark)] = help_line(view, words or BROWSER, mark)
    out["help"] = said
    figures = made.get("players")
    if figures is None:
        figures = made["players"] = [(p.name, p.kind, p.level, st.turns_taken(i),
                                      st.totals(i).grand, st.card(i).saved)
                                     for i, p in enumerate(st.players)]
    out["players"] = [{"name": name, "kind": kind, "level": level, "mine": i in mine,
                       "turns_taken": turns, "total": total, "saved_rolls": saved}
                      for i, (name, kind, level, turns, total, saved) in enumerate(figures)]
    out["can"] = {
        "roll": my_turn and (not st.dice or (bool(to_roll) and may_reroll)),
        "choose": my_turn and bool(st.dice) and may_reroll,
        "score": my_turn and bool(base["previews"]),
        "give_back": my_turn and may_reroll and bool(kept if mark == "hold" else to_roll),
        "take_back": (own_score_open(st) and not view.closed and not view.finished
                      and last is not None and last.player in mine),
        "go_on": view.pause is not None and not view.closed and (
            bool(mine) or bool(seat and seat.operator)),
        "hint": my_turn and bool(st.dice),
    }
    out["button"] = main_button(view, mine, out["can"], len(to_roll), mark, words or BROWSER)
    out["seat"] = None if seat is None else {"id": seat.id, "players": sorted(seat.players),
                                             "operator": seat.operator, "my_turn": my_turn}
    return out


def _played_by(st: Any) -> list[list[dict[str, Any]]]:
    """Per player, the boxes the computer scored for them (their clock ran out, they
    were away, or a demo had taken over), each with the player's own turn it ended: the
    card marks them. From the log (replayed only when it has such a score): a take-back
    takes its score off."""
    from .comment import played_for

    return [[{"category": action.category, "column": action.column, "by": action.by,
              "turn": turn} for turn, action in scores] for scores in played_for(st)]


def _comments(st: Any, past: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The comment on each person's final score (the winner's in a game of computers),
    with their earlier games of this kind where the table read them."""
    from .comment import end_line, judged

    return [{"player": i, "text": end_line(st, i, past)} for i in judged(st)]


def _progress(st: Any) -> list[list[int]]:
    """Each player's total after each of their turns (from 0), for the end's chart."""
    from yacht.engine import Record

    out: list[list[int]] = [[0] for _ in st.players]
    for turn in Record.from_state(st).turns():
        out[turn.player].append(turn.totals[turn.player])
    return out
