"""Every test run is private: its home, cache, config and data folders are temporary.

The folders are made once per run (and shared by pytest-xdist's workers, which
inherit the environment: solver tables are built once, written atomically);
each worker has a database of its own. Fixtures of the test folders point
single tests at narrower places still.

The test files that hold a ``slow`` test run first, each file whole (its fixtures are
made once), then the browser's files (each test seconds of waiting on a page), then the
rest: a long test started last would keep one core busy while the others wait.
xdist's ``auto`` is three workers more than the cores: many tests wait on servers,
sockets and subprocesses (the browser's files alone keep two cores busy half their
time), and the extra workers keep the cores busy meanwhile.
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    long_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: (item.path not in long_files,  # (stable: the order within)
                                 "web_browser" not in item.path.parts))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 3


def pytest_unconfigure(config: pytest.Config) -> None:
    for root in _MADE_HERE:
        shutil.rmtree(root, ignore_errors=True)
