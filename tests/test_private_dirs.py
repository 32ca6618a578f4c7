"""The suite never writes into the real home, cache or config: a sample of every test
folder, run with a fresh HOME and no YACHT_/XDG_ settings, leaves that HOME empty."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: tests that build solver tables, save setups, write databases, open the terminal game
SAMPLE = [
    "tests/tui/test_game.py::test_hint",
    "tests/tui/test_game.py::test_setup_starts_the_chosen_game_and_remembers_it",
    "tests/tui/test_game.py::test_quit_saves_and_the_next_start_offers_resume",
    "tests/session/test_table.py::test_hint_ranks_moves_and_marks_the_player_assisted",
    "tests/session/test_table.py::test_every_action_is_saved_as_it_happens",
    "tests/store/test_store_api.py::test_actions_are_saved_one_by_one_and_replay",
    "tests/core/test_cli_core.py::test_selfplay_replay_reproduces_totals_and_seed",
    "tests/strategy/test_solver.py::test_empty_card_value_is_expected_score",
    "tests/test_quality.py::test_docstring_examples[yacht.strategy.solver.build]",
    "tests/test_quality.py::test_docstring_examples[yacht.session.snapshot]",
]


@pytest.mark.slow
def test_a_sample_of_the_suite_leaves_a_fresh_home_untouched(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("YACHT_", "XDG_", "PYTEST_"))}
    env["HOME"] = str(home)
    home.chmod(0o555)  # read-only (root may still write: the check below is what counts)
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-n", "0", "-x", *SAMPLE], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=900)
    finally:
        home.chmod(0o755)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " passed" in r.stdout
    written = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    assert written == [], f"the tests wrote into HOME: {written[:10]}"
