"""`yacht advise`: every legal action in a situation, ranked by expected final score."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli.common import (
    CliError,
    add_variant_args,
    emit_json,
    reachable_target,
    ruleset_from_args,
    say_building,
    text_width,
    whole,
)

ORDER = 41

CARD_HELP = """\
situation notation: DICE rN [tN] [CARD], e.g. "13356 r2 ones=3,fours=12": the dice
showing (13356 or 1,3,3,5,6), the rolls left (r0: the dice must be scored), the
turns already taken when not the number of filled boxes, and the card. The same
as --dice/--rolls-left/--turn/--card; `yacht analyse` prints it.

card notation: comma-separated BOX=POINTS items with the box ids of `yacht rules
VARIANT`, e.g. --card "ones=3,fours=12,full_house=25,yahtzee=50,extra=100".
Second column: col2:BOX=POINTS or BOX@2=POINTS. extra=N are points in no box
(Yahtzee bonuses); saved=N are the rolls saved from earlier turns (Maxi Yatzy:
they add to the turn's 3, e.g. "123456 r4 ones=1,chance=20,saved=2"). Boxes not
named are open; no --card means an empty card.

Values are solitaire values: the expected final total of this player's card
(points already on it included) under optimal play from here on, and each
action's loss against the best. A keep lists the dice kept (keeping every die
is scoring); positions to roll again count from 1.

Playing to reach a score is another game: with --target N the actions are also
ranked by the best chance of finishing with at least N points ("best to reach
N", exact: the variant's target table, built once per target and cached, about
a minute for Yahtzee; one-column variants), and both bests are shown when they
differ. Without --target that ranking is shown when it is at hand: the last
turns (a small table from this card) or a target table already cached, for the
expert's expected score rounded.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "advise", aliases=["hint"],
        help="rank every action of a situation by expected final score (and to reach a "
             "target)",
        description="Rank every legal action - each distinct keep and each box - by the "
                    "expected final score under optimal play, with its loss against the best.",
        epilog=CARD_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_variant_args(p)
    p.add_argument("situation", nargs="?", default=None,
                   help='the situation in one text, e.g. "13356 r2 ones=3,fours=12" (see below)')
    p.add_argument("--dice", default=None, help="the dice showing, e.g. 1,3,3,5,6 or 13356")
    p.add_argument("--rolls-left", type=whole("rolls left", 0, 99), default=None,
                   metavar="N",
                   help="rolls the turn still allows (default 0: the dice must be scored)")
    p.add_argument("--card", default="", metavar="TEXT", help="the player's card (see below)")
    p.add_argument("--turn", type=whole("turn", 0, 9999), default=None, metavar="N",
                   help="turns already taken (default: the number of filled boxes; more "
                        "when a box holds repeats, each of which took a turn)")
    p.add_argument("--top", type=whole("top", 1, 10**6), default=None, metavar="N",
                   help="show only the best N actions")
    p.add_argument("--target", type=whole("target", 0, 100_000), default=None, metavar="N",
                   help="also rank by the best chance of finishing with at least N points")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_advise)


def most_from(rs: Any, card: Any) -> int | None:
    """The highest total a game can still end with from ``card`` (every open box at its
    best, the bonus when it can still be earned, what the special rules add), as the exact
    target tables bound it (above it their every chance is 0); None where there is no
    limit. At most the variant's highest total.

    >>> from yacht.rules import get
    >>> rs = get("tommys-crag")
    >>> most_from(rs, rs.new_card()), most_from(rs, rs.new_card().with_box(0, 12, 0))
    (244, 218)
    """
    import numpy as np

    from yacht.session.comment import best_possible
    from yacht.strategy.solver.target import check_supported, window_arrays

    best = best_possible(rs)
    if best is None:
        return None
    spec = check_supported(rs)
    mask, aux = spec.state_of(card)
    far = 1 << 39  # (a target beyond any total: its window starts where the card's end)
    lo, n = window_arrays(spec, far, np.array([mask], dtype=np.int64),
                          np.array([aux], dtype=np.int64), reach=True)
    to_come = far - int(lo[0]) if int(n[0]) > 0 else 0
    return min(best, int(rs.totals(card).grand) + to_come)


def cmd_advise(args: argparse.Namespace) -> int:
    from yacht.cli.interrupt import run_interruptible
    from yacht.parsing import parse_card, parse_dice, parse_situation
    from yacht.strategy.advisor import AdviceError, card_text, hint_card
    from yacht.strategy.api import Situation
    from yacht.strategy.solver import UnsupportedRuleset

    rs = ruleset_from_args(args.variant, args.option)
    if args.situation is not None:
        if (args.dice is not None or args.card != "" or args.rolls_left is not None
                or args.turn is not None):
            raise CliError("give the situation either as one text or with --dice, "
                           "--rolls-left, --turn and --card, not both")
        text = parse_situation(rs, args.situation)
        if not text.dice:
            raise CliError("the situation has no dice: advice needs the dice showing "
                           "(e.g. \"13356 r2\")")
        dice, card, rolls, turn = text.dice, text.card, text.rolls_left or 0, text.turn
    else:
        if args.dice is None:
            raise CliError('give the situation ("13356 r2 ones=3") or --dice')
        dice = parse_dice(args.dice, rs)
        card = parse_card(rs, args.card)
        rolls, turn = args.rolls_left or 0, args.turn
    if args.target is not None:
        from yacht.strategy.solver.target import check_supported

        try:
            check_supported(rs)
        except UnsupportedRuleset as e:
            raise CliError(f"{e} (--target is accepted for the one-column variants)") from None
        reachable_target(rs, args.target)
    try:
        sit = Situation.of(rs, card, dice, rolls, turn)
        card, turn, dice, rolls_left = sit.card, sit.turn, sit.dice, sit.rolls_left
        most = None if args.target is None else most_from(rs, card)
        if most is not None and args.target > most:
            # (a target above it was ranked at a chance of 0.00% for every action)
            raise CliError(f"target {args.target} cannot be reached from this card: its "
                           f"game ends with at most {most} (accepted: 0-{most})")
        say_building(rs, args.target)
        both = run_interruptible(lambda _stop: hint_card(
            rs, card, turn, dice, rolls_left, target=args.target,
            build=args.target is not None))
    except (AdviceError, UnsupportedRuleset) as e:
        raise CliError(str(e)) from None
    if args.target is not None and both.to_win is None:   # (a table too big to build)
        raise CliError(f"no chance of reaching {args.target} can be worked out here")
    ranked = list(both.by_score)
    shown = ranked if args.top is None else ranked[:args.top]
    if args.json:
        to_win = None if both.to_win is None else both.to_win.to_json()
        if both.to_win is not None and to_win is not None and args.top is not None:
            # (as the text: the best N of both rankings)
            to_win["options"] = [o.to_json() for o in both.to_win.options[:args.top]]
        emit_json({"variant": rs.id, "options": dict(rs.option_values), "dice": list(dice),
                   "rolls_left": rolls_left, "turn": turn, "card": card_text(rs, card),
                   "situation": sit.text(), "actions": [r.to_json() for r in shown],
                   "differ": both.differ,
                   "to_win": to_win})
        return 0
    from yacht.render import situation_lines

    print("\n".join(situation_lines(f"{rs.name}: dice {' '.join(map(str, dice))}, "
                                    f"{rolls_left} roll(s) left, turn {turn + 1}  ",
                                    f"[{sit.text()}]", text_width())))
    w = max(len(r.describe(rs)) for r in shown) if shown else 10
    width = text_width()
    print(f"  {'action':<{w}}  {'expected':>9}  {'loss':>8}")
    for r in shown:
        line = f"  {r.describe(rs):<{w}}  {r.expected:9.4f}  {r.loss:8.4f}"
        if r.kind == "keep" and len(r.reroll) < rs.dice:  # (the positions to type; "roll
            # all five" needs none), beside the row where they fit, else under it
            extra = f"(roll dice {','.join(str(p + 1) for p in r.reroll)})"
            line += f"   {extra}" if len(line) + 3 + len(extra) <= width else f"\n    {extra}"
        print(line)
    win = both.to_win
    if win is None:
        return 0
    best_s, best_w = ranked[0], win.options[0]
    print()
    from yacht.render import wrap_text

    print(wrap_text(
        f"  {both.score_title}: {best_s.describe(rs)} (expected {best_s.expected:.4f}; "
        f"chance {100 * (win.chance_of(best_s) or 0.0):.2f}%)\n"
        f"  {both.win_title}: {best_w.ranked.describe(rs)} (chance "
        f"{100 * best_w.chance:.2f}%; expected {best_w.ranked.expected:.4f})"
        + ("" if both.differ else " - the same") + f"\n  ({win.how})", text_width()))
    if both.differ:
        opts = win.options if args.top is None else win.options[:args.top]
        print()
        print(f"  {'action':<{w}}  {'chance %':>9}  {'loss':>8}")
        for o in opts:
            print(f"  {o.ranked.describe(rs):<{w}}  {100 * o.chance:9.4f}  "
                  f"{100 * o.loss:8.4f}")
    return 0
