"""The layers of DEVELOPERS.md, kept: what each part of the package may import, read off
the import graph of every module (imports inside functions and for type checking
included: a lazy import is a dependency too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: each part, and the parts it may import (besides itself, the standard library and
#: third-party packages). cells, rules < engine < parsing, render < strategy, store < session
#: < the interfaces (which never import one another) < the command line.
LOW = {"cells", "rules", "engine", "parsing", "render"}
ALLOWED: dict[str, set[str]] = {
    "cells": set(),  # (text measured in a terminal's cells: what every text view uses)
    "rules": set(),
    "engine": {"rules"},
    "parsing": {"rules", "engine"},
    "render": {"cells", "rules", "engine"},
    "strategy": LOW | {"yacht"},  # (yacht: `from yacht import parsing`)
    "store": {"rules", "engine", "parsing"},
    "shapes": LOW | {"store"},
    "session": LOW | {"strategy", "store"},
    "tui": LOW | {"strategy", "store", "session", "shapes"},
    "plain": LOW | {"strategy", "store", "session", "shapes"},
    "web": LOW | {"strategy", "store", "session", "shapes"},
    "cli": LOW | {"strategy", "store", "session", "shapes", "tui", "plain", "web", "yacht"},
    "yacht": {"strategy"},  # the package's own __init__: yacht.solve, made on first use
    "__main__": {"cli"},
}
#: inside the strategy package: the solver is below what uses it
SOLVER_MAY_IMPORT = {"yacht.strategy.base", "yacht.strategy.ranking", "yacht.strategy.solver"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every ``yacht`` module ``path`` imports, wherever the import is."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "yacht")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "yacht":
                continue
            found.add(target)
            if target == "yacht":  # from yacht import parsing: the module itself
                found.update(f"yacht.{a.name}" for a in node.names
                             if (SRC / "yacht" / f"{a.name}.py").exists()
                             or (SRC / "yacht" / a.name).is_dir())
    return found


def part(module: str) -> str:
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else "yacht"


MODULES = sorted(SRC.joinpath("yacht").rglob("*.py"))


def test_the_graph_is_read() -> None:
    table = imports(SRC / "yacht" / "session" / "table.py")
    assert "yacht.engine" in table and "yacht.session.commands" in table
    assert {part(module_name(p)) for p in MODULES} >= set(ALLOWED) - {"yacht"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_each_module_keeps_to_its_layer(path: Path) -> None:
    name = module_name(path)
    mine = part(name)
    assert mine in ALLOWED, f"{name}: a part the layers do not know (add it to ALLOWED)"
    wrong = sorted(t for t in imports(path)
                   if part(t) != mine and part(t) not in ALLOWED[mine]
                   and not (t == "yacht" and "yacht" in ALLOWED[mine]))
    assert not wrong, f"{name} imports {wrong}: {mine} may import {sorted(ALLOWED[mine])}"
    if name.startswith("yacht.strategy.solver"):
        above = sorted(t for t in imports(path) if t.startswith("yacht.strategy")
                       and not any(t == m or t.startswith(m + ".") for m in SOLVER_MAY_IMPORT))
        assert not above, f"{name} imports {above}: the solver is below them"


INTERFACES = ("tui", "plain", "web", "cli")


@pytest.mark.parametrize("path", [p for p in MODULES if part(module_name(p)) in INTERFACES],
                         ids=lambda p: module_name(p))
def test_the_interfaces_stay_above_the_table(path: Path) -> None:
    """A view asks the table (session/API.md): it never reaches the game under it
    (``table.session``), and opens a table the one way there is (``open_table``)."""
    tree = ast.parse(path.read_text("utf-8"))
    under = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr in ("session", "_game")]
    assert not under, f"{module_name(path)} reaches under the table at lines {under}"
    opens = [node.lineno for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr in ("new", "resume")
             and isinstance(node.value, ast.Name) and node.value.id == "Table"]
    assert not opens, f"{module_name(path)} opens a table itself at lines {opens}: open_table"


def test_the_table_keeps_its_game_to_itself() -> None:
    from yacht.session.table import Table

    assert not hasattr(Table, "session") and "session" not in vars(Table)
