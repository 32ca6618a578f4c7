"""`yacht solve` with the table cached: the facts saved with the table, read without numpy,
and never from a file that is damaged, stale or of other rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.rules import get
from yacht.strategy.solver import cache as diskcache
from yacht.strategy.solver import clear_memory_cache, solve


def _solve_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["solve", *argv, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    clear_memory_cache()
    return tmp_path


def test_a_cached_table_is_reported_from_its_facts(cache: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    built = _solve_json(capsys, "tommys-yacht")
    assert built["from_cache"] is False
    clear_memory_cache()
    rs = get("tommys-yacht")
    facts = diskcache.stored_facts(rs)
    assert facts is not None and facts["expected_score"] == pytest.approx(
        solve(rs).expected_score)
    clear_memory_cache()
    again = _solve_json(capsys, "tommys-yacht")
    assert again["from_cache"] is True
    for key in ("variant", "options", "expected_score", "states", "build_seconds", "exact"):
        assert again[key] == built[key]
    assert main(["solve", "tommys-yacht"]) == 0
    assert "loaded from cache" in capsys.readouterr().out


def test_the_warm_process_imports_no_numpy(cache: Path) -> None:
    env = {**os.environ, "YACHT_CACHE_DIR": str(cache)}
    code = ("import sys\nfrom yacht.cli import main\nmain(['solve', 'tommys-crag', '--json'])\n"
            "print('numpy' in sys.modules, 'yacht.strategy.solver.build' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True)
    assert first.stdout.strip().endswith("True True")
    warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert warm.stdout.strip().endswith("False False"), warm.stdout
    assert json.loads(warm.stdout[:warm.stdout.rindex("}") + 1])["from_cache"] is True


def test_a_damaged_or_foreign_file_is_not_reported(cache: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rs = get("tommys-crag")
    _solve_json(capsys, "tommys-crag")
    path = diskcache.cache_path(rs.key)
    good = path.read_bytes()
    assert diskcache.stored_facts(rs) is not None
    data = bytearray(good)
    data[-3] ^= 0x40  # the payload: its SHA-256 no longer matches
    path.write_bytes(bytes(data))
    assert diskcache.stored_facts(rs) is None
    clear_memory_cache()
    assert _solve_json(capsys, "tommys-crag")["from_cache"] is False  # rebuilt
    assert diskcache.stored_facts(rs) is not None
    path.write_bytes(good[:-8])  # truncated
    assert diskcache.stored_facts(rs) is None
    path.write_bytes(b"")
    assert diskcache.stored_facts(rs) is None
    # the same file read for other rules: a different digest
    path.write_bytes(good)
    assert diskcache.stored_facts(get("tommys-crag")) is not None
    assert diskcache.rules_digest(get("tommys-crag")) != diskcache.rules_digest(get("yatzy"))
    clear_memory_cache()


def test_a_stale_digest_is_refreshed_by_the_next_load(cache: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    rs = get("tommys-crag")
    _solve_json(capsys, "tommys-crag")
    # the code that compiles rules changed (say): the digest no longer matches
    monkeypatch.setattr(diskcache, "_CODE_DIGEST", ["another version of the code"])
    assert diskcache.stored_facts(rs) is None
    clear_memory_cache()
    again = _solve_json(capsys, "tommys-crag")  # the full check: same table, loaded
    assert again["from_cache"] is True
    assert diskcache.stored_facts(rs) is not None  # and its facts carry the new digest
    clear_memory_cache()
