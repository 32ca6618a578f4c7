"""The `yacht` commands as a new user meets them (session 25)."""

from __future__ import annotations

import inspect


def test_every_public_name_of_the_clis_common_module_is_exported() -> None:
    # (say_building, used by the commands that build an expert's table, was missing)
    from yacht.cli import common

    own = {name for name, obj in vars(common).items()
           if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
           and obj.__module__ == common.__name__}
    assert "say_building" in own
    assert own <= set(common.__all__), own - set(common.__all__)
