"""`yacht export`: random reachable situations labelled with every option's value."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli.common import CliError, add_variant_args, emit_json, ruleset_from_args, whole

ORDER = 42

EPILOG = """\
Each row is one situation with dice showing: every decision, in order, of games
played from an empty card where each choice is the best one or, with chance
1/4, a random legal one (so cards optimal play seldom makes come up too); the
same seed gives the same rows. A row: variant, situation (the notation of
`yacht advise`, e.g. "13356 r2 ones=3,fours=12"), card_total, actions and
values (every keep and box, best first: "keep 3 3", "score chance"), best and
value (the first of them) and final. Values are expected final totals under
optimal play (points on the card included); with --to-come the expected points
still to come.

JSON Lines: one object a line. Parquet needs pyarrow: pip install
'yacht-dice[parquet]'. The same from Python: yacht.solve(VARIANT).export(PATH,
situations=N, seed=S, format=FORMAT).
"""


#: yacht.strategy.bulk.FORMATS (kept here too: the parser is built without the solver)
FORMATS = ("jsonl", "parquet")
#: the suffixes that name a format (the file's name says what it holds)
SUFFIXES = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
#: the suffixes of data formats not written here: such a name would be a file of JSON
#: Lines that says it is another format
OTHER_DATA = frozenset({".csv", ".tsv", ".json", ".xlsx", ".xls", ".arrow", ".feather",
                        ".orc", ".avro", ".h5", ".hdf5", ".pkl", ".pickle"})


def register(sub: Any) -> None:
    p = sub.add_parser(
        "export", help="write random situations with every option's value (JSON Lines, "
                       "Parquet)",
        description="Write random reachable situations of a variant with the value of "
                    "every option under optimal play and the best one: labelled data.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_variant_args(p)
    p.add_argument("--situations", type=whole("situations", 1, 100_000_000), default=1000,
                   metavar="N", help="how many situations (default 1000)")
    p.add_argument("--seed", type=whole("seed", 0, 2**63 - 1), default=0, metavar="S",
                   help="the seed of the games they come from (default 0)")
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="JSON Lines or Parquet (default: as the --out file's suffix says, "
                        "else jsonl)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="the file to write, never one that is there (default "
                        "VARIANT-N-S.jsonl or .parquet)")
    p.add_argument("--to-come", action="store_true",
                   help="values are the expected points still to come, not final totals")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    p.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    import time

    from yacht.cli.interrupt import run_interruptible
    from yacht.parsing import parse_out_path, printable
    from yacht.strategy.bulk import MissingExtra, check_format
    from yacht.strategy.solver import UnsupportedRuleset

    rs = ruleset_from_args(args.variant, args.option)
    fmt = out_format(args.out, args.format)
    out = parse_out_path(args.out if args.out is not None
                         else f"{rs.id}-{args.situations}-{args.seed}.{fmt}")
    try:
        check_format(fmt)
    except MissingExtra as e:
        raise CliError(str(e)) from None
    import yacht

    t0 = time.perf_counter()
    try:
        rows = run_interruptible(lambda _stop: yacht.solve(rs).export(
            str(out), args.situations, args.seed, fmt, final=not args.to_come))
    except UnsupportedRuleset as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"cannot write {printable(str(out))}: {e.strerror or e}") from None
    seconds = time.perf_counter() - t0
    if args.json:
        emit_json({"variant": rs.id, "options": dict(rs.option_values), "rows": rows,
                   "seed": args.seed, "format": fmt, "out": str(out),
                   "final": not args.to_come, "seconds": round(seconds, 3)})
    else:
        print(f"{rs.name}: {rows} situations (seed {args.seed}) -> {printable(str(out))} "
              f"({seconds:.1f} s)")
    return 0


def out_format(out: str | None, given: str | None) -> str:
    """The format to write: ``--format``, else the one the ``--out`` file's suffix names
    (``.jsonl``, ``.parquet``...), else JSON Lines; a suffix of the other format is a
    contradiction, refused."""
    import os

    from yacht.parsing import shown

    suffix = os.path.splitext(out or "")[1].lower()
    named = SUFFIXES.get(suffix)
    if given is None:
        if suffix in OTHER_DATA:
            raise CliError(f"--out {shown(out or '', 60)}: a {suffix} file is not written "
                           "here (accepted: JSON Lines, .jsonl or .ndjson; Parquet, .parquet "
                           "or .pq; or name the format with --format)")
        return named or "jsonl"
    if named is not None and named != given:
        words = {"jsonl": "JSON Lines", "parquet": "Parquet"}
        raise CliError(f"--out {shown(out or '', 60)} is a {words[named]} name, but --format "
                       f"is {given}: give a .{given} file, or leave --format out")
    return given
