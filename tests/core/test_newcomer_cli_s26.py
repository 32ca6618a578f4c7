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


@pytest.mark.parametrize("given", ["", "  ", "http://yacht.example.org", "yacht.example.org/",
                                   "a b"])
def test_web_refuses_an_allowed_host_that_no_browser_sends(
        given: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty --allowed-host was left out without a word, and a URL was listed as a
    name no Host header ever is (every browser then refused); both are one line, exit 2,
    before the server starts."""
    from yacht.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["web", "--allowed-host", given, "--port", "0"])  # (never served)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"yacht web: error: argument --allowed-host: {given!r} is not a "
                          "host name (accepted: ") and err.count("\n") == 1, err


def test_web_takes_the_host_names_browsers_send() -> None:
    from yacht.cli.commands.web import _allowed_host

    for name in ("yacht.example.org", "Yacht.Example.org:8000", "192.168.1.5", "::1",
                 "[::1]", "*", " localhost "):
        assert _allowed_host(name) == name.strip()
