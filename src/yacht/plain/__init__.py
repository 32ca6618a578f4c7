"""The line game (``yacht play --plain``): prompts and answers, one line each.

For screen readers, pipes and terminals without a full screen. Like the
terminal game it is a view of a :class:`~yacht.session.table.Table`.
"""

from .game import PlainGame, resume_command, run_plain

__all__ = ["PlainGame", "resume_command", "run_plain"]
