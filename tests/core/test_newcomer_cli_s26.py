"""The commands as a newcomer meets them (session 26): every bad input is one line that
names the problem and what is accepted, exit 2, no traceback."""

from __future__ import annotations

import pytest


def test_stats_refuses_a_name_after_what_it_refuses(
        capsys: pytest.CaptureFixture[str]) -> None:
    """'yacht: error: The name is empty: give ...' (a capital after 'error:', two colons):
    said as daily --name says it."""
    from yacht.cli import main

    assert main(["stats", ""]) == 2
    assert capsys.readouterr().err == ("yacht: error: player: the name is empty. Give a "
                                       "name of 1-20 characters.\n")
