"""One base for every exception of the package's own (``yacht.YachtError``), each still
the built-in exception it was (``except ValueError`` keeps working)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any

import pytest

import yacht

#: the parts a Python user calls, whose exceptions this file holds to the base (the
#: interfaces' own errors, the web server's and the command line's, never reach them)
PARTS = ("yacht.rules", "yacht.engine", "yacht.parsing", "yacht.render", "yacht.strategy",
         "yacht.store", "yacht.session")


def _modules() -> list[str]:
    out = []
    for name in PARTS:
        mod = importlib.import_module(name)
        out.append(name)
        if hasattr(mod, "__path__"):
            out += [m.name for m in pkgutil.walk_packages(mod.__path__, name + ".")]
    return out


def _exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        mod = importlib.import_module(name)
        for _, obj in inspect.getmembers(mod, inspect.isclass):
            if (issubclass(obj, BaseException) and obj.__module__.startswith("yacht.")
                    and not obj.__name__.startswith("_")):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return [found[k] for k in sorted(found)]


EXCEPTIONS = _exceptions()


def test_the_base_is_exported() -> None:
    from yacht import YachtError
    from yacht.rules import YachtError as in_rules

    assert YachtError is in_rules is yacht.YachtError
    assert issubclass(YachtError, Exception) and "YachtError" in yacht.__all__


def test_every_public_exception_is_found() -> None:
    names = {e.__name__ for e in EXCEPTIONS}
    assert {"OptionError", "UnknownBox", "UnknownVariant", "ScorerError", "IllegalAction",
            "RecordError", "InputError", "UnknownLevel", "SimulationStopped",
            "UnsupportedRuleset", "BackendUnavailable", "MissingExtra", "AdviceError",
            "PlayerIndexError", "InvalidValue", "InvalidType", "StoreError", "GameMovedOn",
            "SessionError", "HintUnavailable", "DayRefused", "SaveConflict"} <= names


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda c: c.__name__)
def test_each_public_exception_derives_from_the_base(cls: type[BaseException]) -> None:
    assert issubclass(cls, yacht.YachtError), cls


@pytest.mark.parametrize(("name", "builtin"), [
    ("yacht.rules:OptionError", ValueError), ("yacht.rules:UnknownBox", KeyError),
    ("yacht.rules:UnknownVariant", LookupError), ("yacht.rules:ScorerError", ValueError),
    ("yacht.engine:IllegalAction", ValueError), ("yacht.engine:RecordError", ValueError),
    ("yacht.engine:PlayerIndexError", IndexError),
    ("yacht.rules:InvalidValue", ValueError), ("yacht.rules:InvalidType", TypeError),
    ("yacht.parsing:InputError", ValueError), ("yacht.strategy:UnknownLevel", LookupError),
    ("yacht.strategy.solver:UnsupportedRuleset", ValueError),
    ("yacht.strategy.bulk:MissingExtra", ImportError),
    ("yacht.strategy.advisor:AdviceError", ValueError),
])
def test_each_keeps_its_builtin_base(name: str, builtin: type[BaseException]) -> None:
    module, _, attr = name.partition(":")
    assert issubclass(getattr(importlib.import_module(module), attr), builtin)


def test_one_except_catches_what_the_package_refuses() -> None:
    from yacht.engine import Choose, Player, Record, Score, State
    from yacht.parsing import parse_dice
    from yacht.rules import get
    from yacht.strategy import make_player
    from yacht.strategy.simulate import simulate
    from yacht.strategy.solver.target import target_table

    rs = get("yatzy")
    s = State(rs, [Player("Ann")])
    refused: list[Any] = [
        lambda: get("no-such-game"), lambda: get("yahtzee", {"joker": "often"}),
        lambda: get(5), lambda: s.apply(Score("chance")), lambda: parse_dice("7", rs),
        lambda: make_player(rs, "grandmaster"), lambda: make_player(rs, 3), lambda: s.totals(3),
        lambda: s.totals(-1), lambda: yacht.solve("yatzy").situation("99999 r2"),
        lambda: State(rs, []), lambda: State("yatzy", [Player("Ann")]),
        lambda: Player("Ann", "robot"), lambda: Player(5), lambda: Choose((0.5,)),
        lambda: Score("chance", by="robot"), lambda: rs.scores([6, 6, 6]),
        lambda: rs.scores([0, 1, 2, 3, 4]), lambda: Record.from_json({"format": "x"}),
        lambda: simulate(rs, "beginner", games=0, seed=1),
        lambda: simulate(rs, "beginner", games=1, seed=1.5),
        lambda: target_table(get("tommys-crag"), 150.5),
        lambda: yacht.solve("tommys-crag").export("/no/such/folder/x.jsonl", 1, format="csv"),
    ]
    for call in refused:
        with pytest.raises(yacht.YachtError):
            call()


def test_the_store_and_the_session_refuse_with_the_base(tmp_path: Path) -> None:
    from yacht.engine import Player
    from yacht.rules import get
    from yacht.session import Session
    from yacht.store import open_store

    store = open_store(str(tmp_path / "games.sqlite3"))
    try:
        refused: list[Any] = [
            lambda: store.load_record("nosuchgame"),
            lambda: Session.resume(store, "nosuchgame"),
            lambda: Session(get("yatzy"), [Player(str(i)) for i in range(9)], store=store),
            lambda: open_store(str(tmp_path / "no" / "such" / "dir" / "x.sqlite3")),
        ]
        for call in refused:
            with pytest.raises(yacht.YachtError):
                call()
    finally:
        store.close()


@pytest.mark.parametrize("options", ["joker=free", ["joker"], 5])
def test_options_that_are_no_mapping_are_one_line(options: object) -> None:
    """``get("yahtzee", "joker=free")`` was a bare TypeError ('str' object is not a
    mapping) from deep inside the ruleset; it is an OptionError saying what is taken."""
    from yacht.rules import OptionError, get

    with pytest.raises(OptionError, match="a mapping of option to value"):
        get("yahtzee", options)  # type: ignore[arg-type]
