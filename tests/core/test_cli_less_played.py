"""The less-played commands as a new user tries them (advise, replay, scores): bad input
is one line naming the problem and what is accepted, exit status 2; the output fits the
terminal and says things in words."""

from __future__ import annotations

import pytest

from yacht.cli import main


def fail(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one line of a refused command (exit 2), with nothing on the output."""
    try:
        code = main(list(argv))
    except SystemExit as e:  # argparse's own refusals
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_a_tommys_yacht_card_filled_before_its_yacht_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every first turn goes to the Yacht box: a card with Ones filled and the Yacht open
    is no game's. Before, advise ended in a traceback ('the forced first turn is not
    solved by chance tables', from the ranking to reach a score)."""
    for argv in (["advise", "tommys-yacht", "23422 r2 ones=2"],
                 ["hint", "tommys-yacht", "--dice", "23422", "--rolls-left", "1",
                  "--card", "ones=2,chance=20"]):
        assert fail(capsys, *argv) == (
            "yacht: error: the first turn goes to the Yacht box, so a card with boxes "
            "filled has it filled too (e.g. yacht=50; it holds 50 down to -95 in steps of "
            "5)\n")
    out = run(capsys, "advise", "tommys-yacht", "23422 r2 ones=2,yacht=-95", "--top", "1")
    assert "[23422 r2 ones=2,yacht=-95]" in out
    assert "keep" in run(capsys, "advise", "tommys-yacht", "23422 r2", "--top", "1")
