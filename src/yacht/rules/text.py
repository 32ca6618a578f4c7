"""The rules of a variant as readable text, generated from its ruleset.

This is the help both user interfaces show and what `yacht rules` prints.
"""

from __future__ import annotations

import textwrap

from .model import Ruleset

__all__ = ["rules_text"]


def _wrap(text: str, width: int, indent: str = "", hang: str = "") -> list[str]:
    """``text`` filled to ``width``, every line ``indent``-ed and the next ones ``hang``
    more (under the text of a marked item)."""
    return textwrap.wrap(text, width, initial_indent=indent,
                         subsequent_indent=indent + hang) or [""]


def rules_text(rs: Ruleset, width: int = 78, ids: bool = True) -> str:
    """The rules of ``rs`` (with its chosen options) as plain text; ``ids``: the
    commands' own words, each box's id (what ``--action`` takes) after its description
    and how an option is given (``--option KEY=VALUE``); without them for a game's own
    screens, where the options are chosen in its setup.

    >>> from yacht.rules import get
    >>> print(rules_text(get("tommys-crag")).splitlines()[0])
    Tommy's Crag (tommys-crag)
    >>> for line in rules_text(get("tommys-yahtzee"), ids=False).splitlines():
    ...     if line.startswith(("    C ", "    D ")):
    ...         print(line)
        C  Chance           any dice: scores the sum of all the dice
        D  Yahtzee          all five dice show the same face: scores 50 points
    """
    out: list[str] = [f"{rs.name} ({rs.id})", "=" * len(f"{rs.name} ({rs.id})")]
    out += _wrap(rs.description, width)
    out.append(f"From: {rs.origin}.")
    if rs.aliases:
        out.append("Also called: " + ", ".join(rs.aliases) + ".")
    out.append("")
    cols = len(rs.columns)
    boxes = len(rs.categories) * cols
    changed = {what for rule in rs.special for what in rule.changes(rs)}

    def unless(what: str) -> str:  # where a special rule below says otherwise
        return " (but see below)" if what in changed else ""

    out += _wrap(
        f"Play: {rs.min_players}-{rs.max_players} players, people or computers, take turns. "
        f"A turn starts by rolling all {rs.dice} dice; you may then choose any of them to roll "
        f"again, up to {rs.rolls} rolls in all{unless('rolls')}. After any roll you may score "
        f"the dice in an open box{unless('scoring')}; after the last roll you must. Every "
        f"box is filled once, so the game lasts {boxes} turns per player, and the highest "
        f"total wins (equal totals tie)."
        # (after the whole sentence: a rule below may change the game's length, its winner
        # or both - a "see below" after the tie read as if it were about ties)
        f"{' How the game ends: see below.' if 'end' in changed else ''}",
        width,
    )
    out += _wrap(
        "Oops: dice chosen for a re-roll can be given back before the roll. Your last "
        "score can be taken back until the next player rolls (not a computer's, and never "
        "a roll).", width)
    out.append("")
    if cols > 1:
        mults = " + ".join(
            f"{m} x column {i + 1}" if m != 1 else f"column {i + 1}"
            for i, m in enumerate(rs.columns))
        out += _wrap(
            f"Columns: every box exists in each of {cols} columns; you choose the column "
            f"when you score. Total = {mults}.", width)
        out.append("")
    named = any(c.board for c in rs.categories)
    out.append("Boxes (with the original's board names):" if named else "Boxes:")
    label_w = max(len(c.label) for c in rs.categories)
    board_w = max(len(c.board) for c in rs.categories)
    for section, name in zip(("upper", "lower"), rs.section_names, strict=True):
        cats = [c for c in rs.categories if c.section == section]
        if not cats:
            continue
        out.append(f"  {name} section")
        for c in cats:
            board = f"{c.board:<{board_w}}  " if named else ""
            head = f"    {board}{c.label:<{label_w}}  "
            text = c.describe(rs.dice) + (f" [{c.id}]" if ids else "")
            body = textwrap.wrap(text, width - len(head))
            out.append(head + body[0])
            out += [" " * len(head) + line for line in body[1:]]
    out.append("")
    if rs.upper_bonus:
        b = rs.upper_bonus
        cmp = "at least" if b.comparison == ">=" else "more than"
        upper = rs.section_names[0].lower()
        if b.tiers:
            steps = [f"{a} from {n}" for n, a in b.steps]
            out += _wrap(
                f"Upper bonus, by the {upper} section's total: "
                + ", ".join(steps[:-1]) + f" and {steps[-1]} (one bonus only, the "
                "largest earned; never added up).", width)
        else:
            out += _wrap(
                f"Upper bonus: {b.amount} points when the {upper} section totals {cmp} "
                f"{b.threshold}.", width)
    else:
        out.append("Upper bonus: none.")
    for rule in rs.special:
        for sentence in rule.describe(rs):
            out += _wrap(sentence, width)
    if rs.par is not None:
        out += _wrap(f"At the end of the game the score is judged against {rs.par.whose} "
                     f"{rs.par.score}.", width)
    for note in rs.notes:
        out += _wrap(note, width)
    if rs.options:
        out.append("")
        out.append("Options (--option KEY=VALUE):" if ids else "Options:")
        values = rs.option_values
        for o in rs.options:
            out += _wrap(f"{o.id}: {o.help}", width, "  ")
            for i, v in enumerate(o.values):
                mark = "*" if values.get(o.id) == v else " "
                extra = f" - {o.value_help[i]}" if i < len(o.value_help) else ""
                dflt = " (default)" if v == o.default else ""
                out += _wrap(f"{mark} {v}{dflt}{extra}", width, "    ", "  ")
    return "\n".join(out) + "\n"
