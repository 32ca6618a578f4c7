"""The exact solver: optimal solitaire play for every variant, by backward induction.

See ``API.md`` in this folder for the public API. Importing this package is
light; the numba kernels load (or compile) on first use.
"""

from .build import Solution, clear_memory_cache, solve
from .selfplay import SelfPlayResult, fast_selfplay
from .spec import Spec, UnsupportedRuleset, compile_ruleset

__all__ = ["SelfPlayResult", "Solution", "Spec", "UnsupportedRuleset", "clear_memory_cache",
           "compile_ruleset", "fast_selfplay", "solve"]
