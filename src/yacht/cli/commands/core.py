"""Core commands: variants, rules, score, replay, selfplay."""

from __future__ import annotations

import argparse
import random
import secrets
from typing import Any

from yacht.cli.common import (
    GAMES_DB_HELP,
    CliError,
    add_variant_args,
    emit_json,
    record_or_game,
    ruleset_from_args,
    text_width,
    whole,
)
from yacht.parsing import parse_dice, parse_out_path, printable

ORDER = 10
SEED_MAX = 2**63 - 1


def register(sub: Any) -> None:
    p = sub.add_parser("variants", help="list the variants")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_variants)

    p = sub.add_parser("rules", help="show a variant's rules")
    add_variant_args(p)
    p.add_argument("--json", action="store_true", help="print the ruleset as JSON")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("score", help="what every box would score for some dice",
                       description="DICE as 2,4,4,2,2, 24422 or 2 4 4 2 2.")
    add_variant_args(p)
    p.add_argument("dice", nargs="+", help="the dice, e.g. 2,4,4,2,2, 24422 or 2 4 4 2 2")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("replay", help="the scorecards after each turn of a saved game",
                       description="The scorecards after each turn of a game: a saved game "
                       "(its id, or a unique start of it, as `yacht resume` and `yacht resume "
                       "--finished` list them) or a record file (`yacht resume ID --export "
                       "FILE`, `yacht selfplay --out FILE`).")
    p.add_argument("game", metavar="GAME_ID|RECORD_FILE",
                   help="a saved game's id (or a unique start of it), or a record file")
    p.add_argument("--db", metavar="URL", help=GAMES_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("selfplay", help="play a whole game by random moves and save it")
    add_variant_args(p)
    p.add_argument("--players", type=whole("players", 1, 8), default=1, metavar="N",
                   help="1-8 (default 1)")
    p.add_argument("--seed", type=whole("seed", 0, SEED_MAX), default=None,
                   help=f"random seed, 0-{SEED_MAX} (same seed, same game)")
    p.add_argument("--out", required=True, metavar="FILE", help="where to save the record")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_selfplay)


def cmd_variants(args: argparse.Namespace) -> int:
    from yacht.shapes import variants_json

    rows = variants_json()
    if args.json:
        emit_json(rows)
        return 0
    import textwrap

    w = max(len(r["id"]) for r in rows)
    print(f"{'id':<{w}}  dice rolls boxes  options")
    under = " " * (w + 19)  # a variant's further options go on under its first
    for r in rows:
        opts = " ".join(f"{k}={'|'.join(v['values'])}" for k, v in r["options"].items())
        boxes = f"{r['categories']}" + (f"x{r['columns']}" if r["columns"] > 1 else "")
        row = f"{r['id']:<{w}}  {r['dice']:>4} {r['rolls']:>5} {boxes:>5}  {opts}"
        print("\n".join(textwrap.wrap(row, max(text_width(), len(under) + 20),
                                       subsequent_indent=under, break_on_hyphens=False,
                                       break_long_words=False)))
    print("\n`yacht rules VARIANT` explains one; aliases work too (e.g. crag, challenge).")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from yacht.rules import rules_text

    rs = ruleset_from_args(args.variant, args.option)
    if args.json:
        from yacht.shapes import ruleset_json

        emit_json(ruleset_json(rs))
    else:
        print(rules_text(rs), end="")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    rs = ruleset_from_args(args.variant, args.option)
    dice = parse_dice(",".join(args.dice), rs)
    scores = rs.scores(dice)
    if args.json:
        from yacht.shapes import score_json

        emit_json(score_json(rs, dice))
        return 0
    print(f"{rs.name}: {' '.join(map(str, dice))}")
    w = max(len(c.label) for c in rs.categories)
    for c in rs.categories:
        print(f"  {c.label:<{w}}  {scores[c.id]:>3}")
    rules = [line for rule in rs.special for line in rule.describe(rs)]
    if rules:  # what the card and the turn can change in a game
        import textwrap

        print("In a game, these rules can change them:")
        for line in rules:
            print(textwrap.fill(line, text_width(), initial_indent="  ",
                                subsequent_indent="  "))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from yacht.render import card_table, ended_text, variant_title

    rec = record_or_game(args.game, args.db)
    rs = rec.ruleset
    names = [printable(p.name) for p in rec.players]
    turns = rec.turns()
    final = rec.final_state()
    if args.json:
        emit_json({
            "variant": rs.id, "options": dict(rs.option_values),
            "players": [p.to_json() for p in rec.players],
            "turns": [{"turn": t.number, "player": t.player, "dice": list(t.dice),
                       "rolls": t.rolls, "category": t.category, "column": t.column,
                       "points": t.points, "totals": t.totals} for t in turns],
            "finished": final.is_terminal(),
            "totals": final.returns(),
            "winners": final.winners() if final.is_terminal() else [],
            # the player whose roll ended the game at once and won it (a served
            # Generala), as the analysis says it (null: the game went on)
            "ended_by": final.ended_by,
            "ended_text": ("" if final.ended_by is None else
                           ended_text(rs, rec.players[final.ended_by].name)),
        })
        return 0
    from yacht.cells import wrap
    from yacht.engine import Score, TakeBack
    from yacht.render import wrap_text

    # (the options in words: the ruleset's key is one long word, cut where it fell; the
    # width in cells: "山田太郎" takes 8)
    print("\n".join(wrap(f"{variant_title(rs)}. Players: {', '.join(names)}.", text_width(),
                          subsequent_indent="  ")))
    state = rec.new_state()
    for action in rec.actions:
        if isinstance(action, Score):
            me, dice = state.current, state.dice
            pl = state.placement(action.category, action.column)
            state.apply(action)
            assert pl is not None  # the record replayed: the placement was allowed
            col = f" (column {action.column + 1})" if len(rs.columns) > 1 else ""
            print()
            print(wrap_text(f"Turn {state.turns_taken(me)} - {names[me]}: "  # (in cells)
                            f"{' '.join(map(str, dice))} -> "
                            f"{rs.category(action.category).label}{col} for {pl.total}",
                            text_width()))
            print(card_table(rs, names, [state.card(i) for i in range(len(names))],
                             width=text_width()))
        else:
            state.apply(action)
            if isinstance(action, TakeBack):
                print("(that scoring was taken back)")
    print()
    if final.ended_by is not None:  # (the totals alone named no winner, or the wrong one)
        who = final.ended_by
        print(wrap_text(f"Turn {final.turns_taken(who) + 1} - {names[who]}: "
                        f"{' '.join(map(str, final.dice))} -> won at once with "
                        f"{rs.end_reason()}, before the cards were full.", text_width()))
    if final.is_terminal():
        win = final.winners()
        res = final.returns()
        if len(win) > 1:
            print("Tie: " + ", ".join(f"{names[i]} {res[i]}" for i in win))
        else:
            print(f"Winner: {names[win[0]]} with {res[win[0]]}")
    else:
        print("The game is not finished.")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    from yacht.engine import Player, Record, State, random_turn

    rs = ruleset_from_args(args.variant, args.option)
    out = parse_out_path(args.out)
    if not rs.min_players <= args.players <= rs.max_players:
        raise CliError(f"{rs.id} takes {rs.min_players}-{rs.max_players} players, "
                       f"not {args.players}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    rng = random.Random(seed)
    players = [Player(f"Random {i + 1}", "computer", "random") for i in range(args.players)]
    state = State(rs, players, rng=random.Random(seed + 1))
    while not state.is_terminal():
        random_turn(state, rng)
    rec = Record.from_state(state, seed=seed, source="selfplay")
    try:
        rec.save(out)
    except OSError as e:
        raise CliError(f"cannot write {printable(str(out))}: {e.strerror or e}") from None
    if args.json:
        emit_json({"variant": rs.id, "options": dict(rs.option_values), "seed": seed,
                   "out": args.out, "totals": state.returns(), "winners": state.winners()})
    else:
        print(f"{rs.name}: seed {seed}, totals {state.returns()} -> {printable(args.out)}")
    return 0
