"""yacht: the whole Yacht dice family, with an exact optimal computer player.

Packages: :mod:`yacht.rules` (variants as data), :mod:`yacht.engine` (the
game state machine and records); the strategy, store, session and UIs build
on those two only.

From Python: ``yacht.solve("yahtzee", joker="free")`` is the optimal player of a
variant (:class:`yacht.strategy.api.SolvedVariant`: ``value``, ``best``, ``options``,
``batch``, ``simulate``, ``chances``, ``win_chances``); ``yacht.rules.get(name)`` a
variant's rules, ``yacht.engine.State`` a game, ``yacht.strategy.make_player(rules,
level)`` a computer player, ``yacht.strategy.analysis.analyse(record)`` a game judged
move by move, ``yacht.store.open_store()`` the saved games. The README's "From Python"
and "As a library" sections show each.

Every exception the package raises of its own derives from :class:`YachtError`
(``yacht.YachtError``) and keeps its built-in base (most are ``ValueError``), so
``except yacht.YachtError`` catches whatever yacht refuses and ``except ValueError``
still works where it did:

>>> import yacht
>>> from yacht.rules import get
>>> try:
...     get("yahtzee", {"joker": "sometimes"})
... except yacht.YachtError as e:
...     print(type(e).__name__, isinstance(e, ValueError))
OptionError True
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from yacht.strategy import YachtError
    from yacht.strategy.api import solve

__all__ = ["YachtError", "__version__", "solve"]


def __getattr__(name: str) -> Any:
    """``yacht.solve`` (optimal play from Python, :mod:`yacht.strategy.api`) and
    ``yacht.YachtError`` (:mod:`yacht.rules.errors`), imported on first use so that
    ``import yacht`` stays light."""
    if name == "solve":
        from yacht.strategy.api import solve

        return solve
    if name == "YachtError":
        # (the class of yacht.rules.errors, the bottom layer; the package's own module
        # may import the strategy only: tests/test_layers.py)
        from yacht.strategy import YachtError

        return YachtError
    raise AttributeError(f"module 'yacht' has no attribute {name!r}")
