"""yacht: the whole Yacht dice family, with an exact optimal computer player.

Packages: :mod:`yacht.rules` (variants as data), :mod:`yacht.engine` (the
game state machine and records); the strategy, store, session and UIs build
on those two only.
"""

__version__ = "0.1.0"
