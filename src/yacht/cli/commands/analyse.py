"""`yacht analyse`: every decision of a game against the expert, the points lost, luck."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from yacht.cli.common import GAMES_DB_HELP, CliError, emit_json, record_or_game, text_width, whole

ORDER = 45

DESCRIPTION = """\
Analyse a game: a saved game (its id, or a unique start of it, as `yacht resume \
--finished` lists them) or a record file (`yacht resume ID --export FILE`, `yacht \
selfplay --out FILE`). For every decision of every player (each keep before a \
re-roll and each box scored; a scoring taken back with Oops does not count, what was \
played instead does) it shows what the expert would have played and the loss in \
expected final score. Per player:

  loss          the points the player's decisions lost, summed (never signed);
  luck          result - expected score at the start + loss: what the dice decided
                (result = expected start + luck - loss);
  accuracy      100 x (expected start - loss) / expected start: the share of the
                expert's expected score the decisions kept (the expert: 100; on
                average, 100 x the player's average score / the expert's);

the three costliest decisions with the situation (notation of `yacht advise`), and a \
chart of each player's expected final score after each turn.

With 2 or more players, each player's chance of winning after every turn of the \
game, if everyone plays the expert's way from there on. Players' dice are \
independent, so it is a sum over the distributions of their final totals: exact \
(the distributions are built once per variant, with a progress bar, and kept in the \
cache; in Generala the chance that a served Generala ends the game at once is \
counted) in every variant but the two-column Ancient Yacht games and Maxi Yatzy: \
there each player's final total is sampled from GAMES games (--win-games, \
default 2000) played by the expert from that player's card (fixed seeds: the same \
game, the same figures), each figure within about 1/sqrt(GAMES) of the exact value \
(2.2 points in 100 at 2000 games). A shared first place counts as a win for every \
player sharing it, so a finished game's figures are 0 or 1. --win-games 0 leaves the \
chances out.

The reference is the expected score: a champion (or a person) who gives up points for \
a better chance of winning shows those decisions as losses here; `yacht hint --target \
N` ranks a situation by the chance of reaching N.

A game of a duplicate table (everyone on the same dice, online) also shows the \
group's games side by side once they are all finished: the places, the expert's own \
total on those dice, and each turn's points against the mean of the others'.

For ancient-yacht-10-double the reference is the expert strategy (exact turns, the \
future valued by the one-column tables), not a proven optimum."""


def register(sub: Any) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="every decision of a game against the expert: loss, luck, "
                            "accuracy, chances of winning",
                       description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME_ID|RECORD_FILE",
                   help="a saved game's id (or a unique start of it), or a record file")
    p.add_argument("--win-games", type=whole("--win-games", 0, 1_000_000), default=None,
                   metavar="GAMES",
                   help="games simulated per player and turn for the chances of winning "
                        "where they are not exact (default 2000; 0: no chances)")
    p.add_argument("--db", metavar="URL", help=GAMES_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_analyse)


def cmd_analyse(args: argparse.Namespace) -> int:
    from yacht.cli.interrupt import run_interruptible
    from yacht.engine import RecordError
    from yacht.strategy.analysis import WIN_GAMES, Analysis, analyse
    from yacht.strategy.solver import UnsupportedRuleset

    record = record_or_game(args.game, args.db)
    games = WIN_GAMES if args.win_games is None else args.win_games
    try:
        record.ruleset  # noqa: B018 - checks the variant and options
    except RecordError as e:
        raise CliError(str(e)) from None

    import sys

    from yacht.cli.commands.simulate import ProgressBar

    # on a terminal, after a second: the chances of winning of a variant analysed for the
    # first time build its score distributions
    bar = ProgressBar(sys.stderr, "working out the chances of winning", unit="%")
    shown = bar if sys.stderr.isatty() else None

    def run(_stop: Any) -> Analysis:
        return analyse(record, win_games=games, progress=shown)

    try:
        result = run_interruptible(run)
    except (RecordError, UnsupportedRuleset) as e:
        raise CliError(str(e)) from None
    finally:
        bar.close()
    same = _same_dice(record, args.db) if not Path(args.game).is_file() else None
    if args.json:
        out = result.to_json()
        if same is not None:
            out["same_dice"] = same.to_json()
        emit_json(out)
    else:
        print(result.text(width=text_width()))  # a wide terminal: every turn in the charts
        if same is not None:
            me = same.names.index(record.players[0].name) \
                if record.players[0].name in same.names else None
            print()
            print(same.text(me))
    return 0


def _same_dice(record: Any, db: str | None) -> Any:
    """A duplicate table's game: its group's games compared (None: not one, or not
    every game of it is finished)."""
    from yacht.session.duplicate import same_dice
    from yacht.store import StoreError, open_store

    group = record.meta.get("duplicate")
    if not isinstance(group, str):
        return None
    try:
        store = open_store(db, readonly=True)
    except StoreError:
        return None
    try:
        return same_dice(store, group)
    except StoreError:
        return None
    finally:
        store.close()
