"""The README's `>>>` examples run, with a private cache (like the docstring examples)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("YACHT_DB", str(tmp_path / "y.sqlite3"))
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(tmp_path / "config"))
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
