"""Every test run is private: its home, cache, config and data folders are temporary.

The folders are made once per run (and shared by pytest-xdist's workers, which
inherit the environment: solver tables are built once, written atomically);
each worker has a database of its own. Fixtures of the test folders point
single tests at narrower places still.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_MADE_HERE: list[Path] = []


def pytest_configure(config: pytest.Config) -> None:
    root_text = os.environ.get("YACHT_TEST_ROOT")
    if not root_text:
        root = Path(tempfile.mkdtemp(prefix="yacht-tests-"))
        _MADE_HERE.append(root)
        os.environ["YACHT_TEST_ROOT"] = str(root)
    else:
        root = Path(root_text)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    places = {"HOME": root / "home", "XDG_CACHE_HOME": root / "cache",
              "XDG_CONFIG_HOME": root / "config", "XDG_DATA_HOME": root / "data",
              "XDG_STATE_HOME": root / "state", "YACHT_CACHE_DIR": root / "cache" / "yacht",
              "YACHT_CONFIG_DIR": root / "config" / worker}
    for name, path in places.items():
        path.mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(path)
    os.environ["YACHT_DB"] = str(root / "data" / f"{worker}.sqlite3")
    # a missing table is built where it is asked for, not in the background: no choice
    # of a test depends on timing (tests of the background builds set it themselves)
    os.environ["YACHT_BUILDS"] = "wait"


def pytest_unconfigure(config: pytest.Config) -> None:
    for root in _MADE_HERE:
        shutil.rmtree(root, ignore_errors=True)
