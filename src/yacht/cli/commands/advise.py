"""`yacht advise`: every legal action in a situation, ranked by expected final score."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli.common import CliError, add_variant_args, emit_json, parse_dice, ruleset_from_args

ORDER = 41

CARD_HELP = """\
card notation: comma-separated BOX=POINTS items with the box ids of `yacht rules
VARIANT`, e.g. --card "ones=3,fours=12,full_house=25,yahtzee=50,extra=100".
Second column: col2:BOX=POINTS or BOX@2=POINTS. extra=N are points in no box
(Yahtzee bonuses). Boxes not named are open; no --card means an empty card.

Values are solitaire values: the expected final total of this player's card
(points already on it included) under optimal play from here on, and each
action's loss against the best. A keep lists the dice kept (keeping every die
is scoring); positions to roll again count from 1.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "advise", help="rank every action of a situation by expected final score",
        description="Rank every legal action - each distinct keep and each box - by the "
                    "expected final score under optimal play, with its loss against the best.",
        epilog=CARD_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_variant_args(p)
    p.add_argument("--dice", required=True, help="the dice showing, e.g. 1,3,3,5,6 or 13356")
    p.add_argument("--rolls-left", type=_nonneg, default=0, metavar="N",
                   help="rolls the turn still allows (default 0: the dice must be scored)")
    p.add_argument("--card", default="", metavar="TEXT", help="the player's card (see below)")
    p.add_argument("--turn", type=_nonneg, default=None, metavar="N",
                   help="turns already taken (default: the number of filled boxes)")
    p.add_argument("--top", type=_nonneg, default=None, metavar="N",
                   help="show only the best N actions")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_advise)


def _nonneg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    return n


def cmd_advise(args: argparse.Namespace) -> int:
    from yacht.strategy.advisor import AdviceError, advise_card, card_text, parse_card
    from yacht.strategy.solver import UnsupportedRuleset

    rs = ruleset_from_args(args.variant, args.option)
    dice = parse_dice(args.dice, rs)
    try:
        card = parse_card(rs, args.card)
        turn = card.filled if args.turn is None else args.turn
        ranked = advise_card(rs, card, turn, dice, args.rolls_left)
    except (AdviceError, UnsupportedRuleset) as e:
        raise CliError(str(e)) from None
    shown = ranked if args.top is None else ranked[:args.top]
    if args.json:
        emit_json({"variant": rs.id, "options": dict(rs.option_values), "dice": list(dice),
                   "rolls_left": args.rolls_left, "turn": turn, "card": card_text(rs, card),
                   "actions": [r.to_json() for r in shown]})
        return 0
    print(f"{rs.name}: dice {' '.join(map(str, dice))}, {args.rolls_left} roll(s) left, "
          f"turn {turn + 1}")
    w = max(len(r.describe(rs)) for r in shown) if shown else 10
    print(f"  {'action':<{w}}  {'expected':>9}  {'loss':>8}")
    for r in shown:
        extra = ""
        if r.kind == "keep":
            extra = f"   (roll dice {','.join(str(p + 1) for p in r.reroll)})"
        print(f"  {r.describe(rs):<{w}}  {r.expected:9.4f}  {r.loss:8.4f}{extra}")
    return 0
