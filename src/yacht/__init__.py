"""yacht: the whole Yacht dice family, with an exact optimal computer player.

Packages: :mod:`yacht.rules` (variants as data), :mod:`yacht.engine` (the
game state machine and records); the strategy, store, session and UIs build
on those two only.
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from yacht.strategy.api import solve

__all__ = ["__version__", "solve"]


def __getattr__(name: str) -> Any:
    """``yacht.solve`` (optimal play from Python, :mod:`yacht.strategy.api`), imported
    on first use so that ``import yacht`` stays light."""
    if name == "solve":
        from yacht.strategy.api import solve

        return solve
    raise AttributeError(f"module 'yacht' has no attribute {name!r}")
