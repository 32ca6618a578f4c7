"""An older SQLite database upgraded as a game opens it (QA s25): `yacht web` and `yacht
resume` said so (c8913c1), the line game, the terminal game and `yacht daily` upgraded it
and copied it aside (FILE.bak-REVISION) without a word."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "store"))
from store_helpers import OLD_GAME, database_at  # noqa: E402

from yacht.cli import main  # noqa: E402
from yacht.session import Launch, PlayerSpec, upgrade_note  # noqa: E402


def said(path: Path) -> str:
    return (f"{path} is upgraded for this version of yacht; the file as it was is kept as "
            f"{path}.bak-yacht_0001")


def test_the_line_game_says_the_database_was_upgraded(tmp_path: Path) -> None:
    from yacht.plain import run_plain

    path = tmp_path / "db.sqlite3"  # (the fixture's $YACHT_DB)
    database_at(str(path), "yacht_0001", OLD_GAME)
    launch = Launch(variant="yatzy", players=[PlayerSpec("Ann")])
    out = io.StringIO()
    assert run_plain(launch, io.StringIO("q\n"), out) == 0
    assert f"Note: {said(path)}\n" in out.getvalue(), out.getvalue()
    assert Path(f"{path}.bak-yacht_0001").is_file()
    again = io.StringIO()  # said once: the next game finds it upgraded
    assert run_plain(launch, io.StringIO("q\n"), again) == 0
    assert "upgraded" not in again.getvalue()


def test_games_not_saved_say_so_and_nothing_of_upgrades(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from yacht.plain import run_plain

    monkeypatch.setenv("YACHT_DB", str(tmp_path))  # (a folder: no store)
    out = io.StringIO()
    assert run_plain(Launch(variant="yatzy", players=[PlayerSpec("Ann")]),
                     io.StringIO("q\n"), out) == 0
    assert "Warning: games are not saved: " in out.getvalue()
    assert "Note:" not in out.getvalue() and upgrade_note(None) is None


@pytest.mark.parametrize("json", [False, True])
def test_yacht_daily_says_the_database_was_upgraded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], json: bool) -> None:
    path = tmp_path / "old.db"
    database_at(str(path), "yacht_0001", OLD_GAME)
    args = ["daily", "tommys-crag", "--standings", "--db", str(path)]
    assert main(args + ["--json"] * json) == 0
    out, err = capsys.readouterr()
    assert f"yacht: {said(path)}\n" in (err if json else out), (out, err)
    if json:
        assert "upgraded" not in out  # (its output stays JSON)
    assert main(args) == 0
    assert "upgraded" not in "".join(capsys.readouterr())
