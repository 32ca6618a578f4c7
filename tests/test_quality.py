"""The code's own promises: types (mypy --strict), lint (ruff) and the docstring examples."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

# Modules whose `>>>` examples are run (every one but the terminal game's, whose
# examples need a running app).
DOCTEST_PACKAGES = ["yacht.cells", "yacht.rules", "yacht.engine", "yacht.parsing",
                    "yacht.strategy", "yacht.store", "yacht.session", "yacht.render",
                    "yacht.shapes", "yacht.web", "yacht.plain", "yacht.cli"]


def _modules() -> list[str]:
    names = []
    for pkg_name in DOCTEST_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        names.append(pkg_name)
        if hasattr(pkg, "__path__"):
            for info in pkgutil.walk_packages(pkg.__path__, pkg_name + "."):
                names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str, tmp_path_factory: pytest.TempPathFactory,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    # examples that solve or save must not touch the user's own cache and data
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("YACHT_DB", str(tmp_path_factory.mktemp("db") / "y.sqlite3"))
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.slow
def test_mypy_strict() -> None:
    proc = subprocess.run([str(BIN / "mypy"), "--strict", "src/yacht"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff() -> None:
    dirs = [d for d in ("src", "tests", "benchmarks") if (ROOT / d).is_dir()]
    proc = subprocess.run([str(BIN / "ruff"), "check", "--output-format", "concise", *dirs],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
