"""The JSON answers the command line (``--json``) and the web API share: one shape each.

>>> from yacht.rules import get
>>> score_json(get("yatzy"), (6, 6, 6, 2, 3))["scores"]["sixes"]
18
>>> [v["id"] for v in variants_json()][:2]
['ancient-yacht', 'ancient-yacht-double']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from yacht.render import entry_note, key_title
from yacht.rules import Ruleset, UnknownVariant, all_variants, get

if TYPE_CHECKING:
    from yacht.store import Store

__all__ = ["ruleset_json", "score_json", "score_tables_json", "stats_json", "variants_json"]


def variants_json() -> list[dict[str, Any]]:
    """Every variant: id, name, aliases, dice, rolls, columns, boxes, one line, what a
    click on a die does in it (``dice_mark``: hold or reroll), options."""
    return [{
        "id": rs.id, "name": rs.name, "aliases": list(rs.aliases), "dice": rs.dice,
        "rolls": rs.rolls, "columns": len(rs.columns), "categories": len(rs.categories),
        "description": rs.description, "dice_mark": rs.dice_mark,
        "options": {o.id: {"values": list(o.values), "default": o.default, "help": o.help,
                           "value_help": list(o.value_help)}
                    for o in rs.options},
    } for rs in all_variants()]


def ruleset_json(rs: Ruleset, commands: bool = True) -> dict[str, Any]:
    """A ruleset as data (with its chosen options) and its rules text (``commands``: with the
    commands' box ids and option syntax, as ``yacht rules`` prints it; the web's page
    reads it without them, its boxes' ids being in the data)."""
    from yacht.rules import rules_text

    ids = {c.id for c in rs.categories}
    return {
        "id": rs.id, "name": rs.name, "description": rs.description, "origin": rs.origin,
        "aliases": list(rs.aliases), "dice": rs.dice, "faces": rs.faces, "rolls": rs.rolls,
        "columns": list(rs.columns),
        "categories": [{"id": c.id, "label": c.label, "section": c.section,
                        "scorer": c.scorer, "params": {k: v for k, v in c.params}}
                       for c in rs.categories],
        "upper_bonus": (None if rs.upper_bonus is None else {
            "threshold": rs.upper_bonus.threshold, "comparison": rs.upper_bonus.comparison,
            "amount": rs.upper_bonus.amount,
            # every step as [smallest upper total, bonus], lowest first (one: the bonus)
            "steps": [list(step) for step in rs.upper_bonus.steps]}),
        # (not a rule of a box these options leave off the card: Generala's doble=off)
        "special_rules": [{"name": r.name, **{k: v for k, v in vars(r).items()}}
                          for r in rs.special
                          if getattr(r, "category", None) in (None, *ids)],
        "options": dict(rs.option_values),
        "text": rules_text(rs, ids=commands),
    }


def score_json(rs: Ruleset, dice: Sequence[int]) -> dict[str, Any]:
    """What every box scores for ``dice`` (checked by the caller)."""
    return {"variant": rs.id, "dice": list(dice), "scores": rs.scores(tuple(dice))}


def score_tables_json(store: Store, rs: Ruleset | None = None,
                      assisted: bool = False) -> list[dict[str, Any]]:
    """The top tens: of ``rs`` (one table), or of every table that has scores."""
    if rs is not None:
        tables = [(rs.key, assisted)]
    else:
        tables = [t for t in store.score_tables() if t[1] == assisted]
    out = []
    for key, is_assisted in tables:
        variant, *opts = key.split(";")
        try:
            table_rs = get(variant, dict(o.split("=", 1) for o in opts))
        except (UnknownVariant, ValueError):
            continue  # a table of a variant this version does not know
        out.append({"key": key, "variant": table_rs.id, "name": table_rs.name,
                    "options": dict(table_rs.option_values), "assisted": is_assisted,
                    # each entry with the words after its line (yacht.render's rule)
                    "entries": [{**e.to_json(), "note": entry_note(False, e.dice_entered,
                                                                   e.ended_early).strip()}
                                for e in store.top_ten(table_rs, is_assisted)]})
    return out


def stats_json(store: Store, player: str | None = None,
               computers: bool = False) -> list[dict[str, Any]]:
    """Per player and variant: games, wins, average, best, bonus rate, yachts."""
    # (no decision-loss figure until game analysis measures every decision)
    # each kind of game also in words (``title``: its name and the options that differ)
    return [{**{k: v for k, v in r.to_json().items() if k != "average_loss"},
             "title": key_title(r.key)}
            for r in store.stats(player, include_computers=computers)]
