"""Look variants up by id or alias."""

from __future__ import annotations

from collections.abc import Mapping

from .errors import InvalidType, YachtError
from .model import Ruleset
from .variants import VARIANTS

__all__ = ["UnknownVariant", "all_variants", "get", "ids"]


class UnknownVariant(YachtError, LookupError):
    """No variant has that id or alias."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown variant"


_BY_NAME: dict[str, Ruleset] = {}
for _rs in VARIANTS:
    for _name in (_rs.id, *_rs.aliases):
        if _name in _BY_NAME:
            raise RuntimeError(f"variant name {_name!r} is used twice")
        _BY_NAME[_name] = _rs


def all_variants() -> tuple[Ruleset, ...]:
    """Every variant, in the order they are listed to players."""
    return VARIANTS


def ids() -> list[str]:
    return [rs.id for rs in VARIANTS]


def get(name: str, options: Mapping[str, str] | None = None) -> Ruleset:
    """The variant called ``name`` (id or alias, any case), with ``options`` set.

    >>> get("Crag").id
    'tommys-crag'
    >>> get("yahtzee", {"joker": "free"}).option_values["joker"]
    'free'
    """
    if not isinstance(name, str):
        raise InvalidType(f"a variant's name is text, not {name!r} (accepted: "
                          f"{', '.join(ids())})")
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    try:
        rs = _BY_NAME[key]
    except KeyError:
        raise UnknownVariant(
            f"unknown variant {name!r} (accepted: {', '.join(ids())})"
        ) from None
    if options is not None and not isinstance(options, Mapping):
        from .model import OptionError

        raise OptionError(f"a variant's options are a mapping of option to value, e.g. "
                          f"{{'joker': 'free'}}, not {type(options).__name__} {options!r:.40}")
    return rs.configure(options) if options else rs
