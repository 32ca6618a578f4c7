"""The expert's expected score for every variant and option set, measured once.

The end of a game compares a score with what the expert scores on average. Working
that out is a solve (seconds for the two-column games, a minute of simulated games
for ``ancient-yacht-10-double``), too slow for the end of a game, so the figures of
``yacht solve VARIANT [-o KEY=VALUE ...] --json`` for every kind of game (every
variant with every combination of its options) are kept in ``expected_scores.json``
beside this module. ``python -m yacht.strategy.expected`` measures them again and
rewrites the file (``tests/strategy/test_expected.py`` checks them against the solver).

>>> from yacht.rules import get
>>> e = expert_expected(get("yahtzee"))
>>> round(e.score, 2), e.exact
(254.59, True)
>>> expert_expected(get("ancient-yacht-10-double")).exact
False
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from yacht.rules import Ruleset, all_variants

__all__ = ["FILE", "Expected", "every_ruleset", "expert_expected", "measure"]

#: the file of figures, in this package
FILE = "expected_scores.json"


@dataclass(frozen=True)
class Expected:
    """The expert's expected final score for a kind of game."""

    score: float
    #: True: the optimum, solved exactly; False: the expert strategy's average over
    #: simulated games (the variants too big to solve exactly)
    exact: bool


def every_ruleset() -> list[Ruleset]:
    """Every variant with every combination of its options (each kind of game once)."""
    out = []
    for rs in all_variants():
        names = [o.id for o in rs.options]
        for values in itertools.product(*(o.values for o in rs.options)):
            out.append(rs.configure(dict(zip(names, values, strict=True))))
    return out


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    text = resources.files("yacht.strategy").joinpath(FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def expert_expected(rs: Ruleset) -> Expected | None:
    """The expert's expected score for ``rs`` as measured (None: a kind of game the file
    does not have, such as a ruleset made in code)."""
    found = _table()["scores"].get(rs.key)
    if not isinstance(found, dict):
        return None
    return Expected(float(found["expected_score"]), bool(found["exact"]))


def measure(keep: dict[str, Any] | None = None) -> dict[str, Any]:
    """The figures of ``yacht solve --json`` for every kind of game (minutes: each is a
    process of its own, so that the big tables' memory goes with it); ``keep``: figures
    measured before, kept for the kinds of game they have (only the others are solved)."""
    import subprocess
    import sys

    scores: dict[str, Any] = {}
    for rs in every_ruleset():
        if keep is not None and rs.key in keep:
            scores[rs.key] = keep[rs.key]
            continue
        opts = [arg for k, v in rs.option_values.items() for arg in ("-o", f"{k}={v}")]
        done = subprocess.run([sys.executable, "-m", "yacht", "solve", rs.id, *opts, "--json",
                               "--quiet"], capture_output=True, text=True, check=True)
        info = json.loads(done.stdout)
        scores[rs.key] = {"expected_score": info["expected_score"], "exact": info["exact"]}
        print(f"{rs.key}: {info['expected_score']}", file=sys.stderr)
    import datetime

    return {"made_by": "python -m yacht.strategy.expected (yacht solve VARIANT "
                       "[-o KEY=VALUE ...] --json for every kind of game)",
            "made": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
            "scores": scores}


if __name__ == "__main__":  # pragma: no cover - run by hand, once per change of the rules
    import sys
    from pathlib import Path

    # --missing: solve only the kinds of game the file does not have yet (new variants)
    path = Path(__file__).with_name(FILE)
    kept = _table()["scores"] if "--missing" in sys.argv[1:] else None
    path.write_text(json.dumps(measure(kept), indent=2) + "\n", encoding="utf-8")
    print(f"written: {path}")
