"""`yacht verify`: whether every die of a finished game came from its committed seed."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli.common import GAMES_DB_HELP, emit_json, record_or_game

ORDER = 46

DESCRIPTION = """\
Check a finished game's dice: a saved game (its id, or a unique start of it, as \
`yacht resume --finished` lists them) or a record file (`yacht resume ID --export \
FILE`). A game commits to a secret seed when it starts (the record and the table show \
SHA-256 of the seed) and reveals the seed when it is finished; every die is drawn from \
the seed (HMAC-SHA256, see docs/VERIFY.md). This replays the game and says in one line \
whether every die came from the committed seed, or else the first roll that did not, \
a seed that does not match its commitment, a game not finished, without a committed \
seed, or with dice entered by hand (real dice).

Exit status: 0 verified, 1 not verified, 2 bad input."""


def register(sub: Any) -> None:
    p = sub.add_parser("verify", help="check that every die of a finished game came from "
                                      "its committed seed",
                       description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", metavar="RECORD",
                   help="a record file, or a saved game's id (or a unique start of it)")
    p.add_argument("--db", metavar="URL", help=GAMES_DB_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    from yacht.engine import verify

    verdict = verify(record_or_game(args.record, args.db))
    if args.json:
        emit_json(verdict.to_json())
    else:
        print(verdict.line)
    return 0 if verdict.ok else 1
