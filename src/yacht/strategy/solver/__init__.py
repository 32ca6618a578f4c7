"""The exact solver: optimal solitaire play for every variant, by backward induction.

See ``API.md`` in this folder for the public API. Importing this package is
light (no numpy): its names are imported on first use, and the kernels load
on first use of a table.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .build import Solution, clear_memory_cache, solve
    from .selfplay import SelfPlayResult, fast_selfplay
    from .spec import Spec, UnsupportedRuleset, compile_ruleset

__all__ = ["SelfPlayResult", "Solution", "Spec", "UnsupportedRuleset", "clear_memory_cache",
           "compile_ruleset", "fast_selfplay", "solve"]

_WHERE = {"Solution": "build", "clear_memory_cache": "build", "solve": "build",
          "SelfPlayResult": "selfplay", "fast_selfplay": "selfplay", "Spec": "spec",
          "UnsupportedRuleset": "spec", "compile_ruleset": "spec"}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{where}", __name__), name)
    globals()[name] = value
    return value
