"""`yacht solve`: build (or load) a variant's optimal-play table and report it."""

from __future__ import annotations

import argparse
from typing import Any

from yacht.cli.common import (
    CliError,
    add_variant_args,
    emit_json,
    reachable_target,
    ruleset_from_args,
    text_width,
    whole,
)

ORDER = 40


def register(sub: Any) -> None:
    p = sub.add_parser(
        "solve", help="solve a variant exactly: expected score under optimal solitaire play",
        description="Build (or load from the cache) the table of optimal solitaire play for "
                    "a variant and print its expected score, the number of card states, the "
                    "seconds taken and the peak memory. Tables are kept in the user cache "
                    "directory (override with YACHT_CACHE_DIR).")
    add_variant_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--no-cache", action="store_true",
                   help="neither read nor write the table cache (always build)")
    p.add_argument("--workers", type=whole("workers", 1, 64), default=None, metavar="N",
                   help="threads to build with (default: all cores)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--target", type=whole("target", 0, 100_000), default=None, metavar="N",
                   help="instead: the best chance of finishing with at least N points from "
                        "the start, and the expert's (both exact; one-column variants; the "
                        "tables are built once, about a minute each for Yahtzee, and cached)")
    p.set_defaults(func=cmd_solve)


def _peak_rss() -> int:
    try:
        import resource
        import sys

        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(r if sys.platform == "darwin" else r * 1024)
    except (ImportError, OSError):  # pragma: no cover - platform dependent
        return 0


def cmd_solve(args: argparse.Namespace) -> int:
    import sys
    import time

    rs = ruleset_from_args(args.variant, args.option)
    if args.target is not None:
        return _solve_target(args, rs)
    if not args.no_cache:
        # a table in the cache: the facts saved with it, read without numpy or the kernels
        from yacht.strategy.solver.cache import stored_facts

        t0 = time.perf_counter()
        cached = _Cached.of(stored_facts(rs))
        if cached is not None:
            return _report(args, rs, cached, time.perf_counter() - t0)
    from yacht.cli.interrupt import run_interruptible
    from yacht.strategy.solver import UnsupportedRuleset, solve

    t0 = time.perf_counter()
    try:
        sol = run_interruptible(lambda _stop: solve(
            rs, cache=not args.no_cache,
            progress=(not args.quiet and not args.json and sys.stderr.isatty()),
            workers=args.workers))
    except UnsupportedRuleset as e:
        raise CliError(str(e)) from None
    return _report(args, rs, sol, time.perf_counter() - t0)


class _Cached:
    """What the report reads of a Solution, from the facts saved with a cached table."""

    built = False
    exact = True
    upper_bound: float | None = None
    note = ""

    def __init__(self, facts: dict[str, Any]):
        self.expected_score = float(facts["expected_score"])
        self.states = int(facts["states"])
        self.seconds = float(facts["seconds"])
        self.peak_memory = int(facts.get("peak_memory", 0))

    @classmethod
    def of(cls, facts: dict[str, Any] | None) -> _Cached | None:
        try:
            return None if facts is None else cls(facts)
        except (KeyError, TypeError, ValueError):
            return None


def _report(args: argparse.Namespace, rs: Any, sol: Any, seconds: float) -> int:
    rss = _peak_rss()
    info: dict[str, Any] = {
        "variant": rs.id,
        "options": dict(rs.option_values),
        "expected_score": round(sol.expected_score, 6),
        "states": sol.states,
        "seconds": round(seconds, 3),
        "build_seconds": round(sol.seconds, 3),
        "from_cache": not sol.built,
        "peak_memory_mb": round(max(rss, sol.peak_memory) / 2**20, 1),
        "exact": sol.exact,
    }
    if not sol.exact:
        info["upper_bound"] = None if sol.upper_bound is None else round(sol.upper_bound, 4)
        info["gap"] = (None if sol.upper_bound is None
                       else round(sol.upper_bound - sol.expected_score, 4))
        info["note"] = sol.note
    if args.json:
        emit_json(info)
        return 0
    from yacht.render import wrap_text

    out: list[str] = []
    opts = " ".join(f"{k}={v}" for k, v in rs.option_values.items())
    out.append(f"{rs.name}{' (' + opts + ')' if opts else ''}")
    kind = "optimal" if sol.exact else "best computed strategy (approximate)"
    out.append(f"  expected score ({kind}): {sol.expected_score:.4f}")
    if not sol.exact:
        if sol.upper_bound is not None:
            out.append(f"  proven upper bound: {sol.upper_bound:.4f} "
                       f"(gap {sol.upper_bound - sol.expected_score:.4f})")
        out.append(f"  {sol.note}")
    out.append(f"  card states: {sol.states:,}")
    how = "loaded from cache" if not sol.built else "built"
    out.append(f"  seconds: {seconds:.2f} ({how}; build took {sol.seconds:.2f})")
    out.append(f"  peak memory: {info['peak_memory_mb']} MB")
    print(wrap_text("\n".join(out), text_width()))
    return 0


def _target_variants() -> list[str]:
    """The variants with exact target tables (their default options)."""
    from yacht.rules import all_variants
    from yacht.strategy.solver import UnsupportedRuleset
    from yacht.strategy.solver.target import check_supported

    out = []
    for v in all_variants():
        try:
            check_supported(v)
        except UnsupportedRuleset:
            continue
        out.append(v.id)
    return out


def _solve_target(args: argparse.Namespace, rs: Any) -> int:
    """`yacht solve VARIANT --target N`: the best chance of reaching N from the start."""
    import sys
    import time

    from yacht.cli.interrupt import run_interruptible
    from yacht.strategy.solver import UnsupportedRuleset
    from yacht.strategy.solver.target import check_supported, is_ready, target_table

    try:
        check_supported(rs)
    except UnsupportedRuleset as e:
        raise CliError(f"{e}; accepted: {', '.join(_target_variants())}") from None
    target = reachable_target(rs, int(args.target))
    cached = not args.no_cache and is_ready(rs, target)
    if not cached and not args.quiet and not args.json and sys.stderr.isatty():
        print(f"building the target table for {target} points (kept in the cache; about a "
              "minute for Yahtzee)...", file=sys.stderr)
    from yacht.cli.commands.simulate import ProgressBar
    from yacht.strategy.solver.dist import distributions

    shown = not args.quiet and not args.json and sys.stderr.isatty()
    t0 = time.perf_counter()

    def work(_stop: Any) -> tuple[Any, float]:
        bar = ProgressBar(sys.stderr, f"target table for {target}", unit="%")
        try:
            tt = target_table(rs, target, cache=not args.no_cache, workers=args.workers,
                              progress=bar if shown else None)
        finally:
            bar.close()
        # the expert's chance of the same: its final total's exact distribution
        bar = ProgressBar(sys.stderr, "score distributions", unit="%")
        try:
            dd = distributions(rs, cache=not args.no_cache, workers=args.workers,
                               progress=bar if shown else None)
        finally:
            bar.close()
        lo, pmf = dd.final(rs.new_card(), 0)
        return tt, float(pmf[max(0, target - lo):].sum())

    try:
        tt, expert = run_interruptible(work)
    except ValueError as e:
        raise CliError(str(e)) from None
    seconds = time.perf_counter() - t0
    info: dict[str, Any] = {
        "variant": rs.id,
        "options": dict(rs.option_values),
        "target": target,
        "chance": round(tt.start, 9),
        "expert_chance": round(expert, 9),
        "exact": True,
        "cells": tt.cells,
        "seconds": round(seconds, 3),
        "build_seconds": round(tt.seconds, 3),
        "from_cache": not tt.built,
        "table_mb": round(tt.nbytes / 2**20, 1),
        "peak_memory_mb": round(max(_peak_rss(), tt.peak_memory) / 2**20, 1),
    }
    if args.json:
        emit_json(info)
        return 0
    from yacht.render import wrap_text

    out: list[str] = []
    opts = " ".join(f"{k}={v}" for k, v in rs.option_values.items())
    out.append(f"{rs.name}{' (' + opts + ')' if opts else ''}")
    out.append(f"  best chance of finishing with at least {target} points: "
               f"{tt.start:.6f} ({100 * tt.start:.2f}%)")
    out.append(f"  the expert's (playing for the most points): {expert:.6f} "
               f"({100 * expert:.2f}%; {100 * (tt.start - expert):+.2f} points in 100 for "
               "playing to reach it)")
    how = "loaded from cache" if not tt.built else "built"
    out.append(f"  table: {tt.cells:,} chances, {info['table_mb']} MB; seconds: "
               f"{seconds:.2f} ({how}; build took {tt.seconds:.2f})")
    print(wrap_text("\n".join(out), text_width()))
    return 0
