"""The refusal of a player's name is written once (``yacht.parsing.check_name``) and
shown by every interface: under the name's field on the web, in the terminal game's
notice, after ``yacht: error:`` on a command line. It was written for the terminal
alone: lower-case, the name and its character escaped as Python writes them
("player name '\\u200b' has a control or invisible character (\\u200b)"), which read
badly under a field of the page (QA s25). It is a sentence: a capital first, the name
as it shows, the character that shows nothing named in words ("an invisible character
(U+200B ZERO WIDTH SPACE)")."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from yacht.cli import main
from yacht.parsing import InputError, check_name, check_names
from yacht.store import open_store

from .conftest import serve

#: a name refused, and the words that say why
REFUSED = [("Bo\u200b", "The name 'Bo' has an invisible character (U+200B ZERO WIDTH SPACE)"),
           ("\u3164", "The name has an invisible character (U+3164 HANGUL FILLER)"),
           ("Ann\x1b[31m", "The name 'Ann[31m' has an invisible character (U+001B, a "
                           "control character)"),
           ("\u0301Bo", "The name 'Bo' starts with a combining mark (U+0301 COMBINING "
                        "ACUTE ACCENT)"),
           ("A" + "\u0301" * 19, "The name '\u00c1' piles more than 3 accents"),
           ("y" * 21, f"The name '{'y' * 21}' is longer than 20 characters (it has 21)"),
           ("   ", "The name is empty: give a name of 1-20 characters.")]


def sentence(line: str) -> None:
    """One line that reads as a sentence where it is shown: a capital first, a full stop
    last, nothing escaped, nothing that does not show."""
    assert line[0].isupper() and line.endswith("."), line
    assert "\\" not in line and line.isprintable() and "\n" not in line, line


@pytest.mark.parametrize(("name", "says"), REFUSED)
def test_a_refused_name_is_said_in_a_sentence(name: str, says: str) -> None:
    with pytest.raises(InputError) as e:
        check_name(name)
    line = str(e.value)
    assert line.startswith(says), line
    sentence(line)


def test_two_names_alike_are_said_in_a_sentence() -> None:
    with pytest.raises(InputError) as e:
        check_names(["Ann", "ann"])
    sentence(str(e.value))


def test_the_web_and_the_command_line_say_the_same(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    name, says = REFUSED[0]
    with open_store(str(tmp_path / "w.sqlite3")) as store:
        for client in serve(store):
            _said_on_the_web(client, name, says)
    assert main(["play", "tommys-crag", "--plain", "--players", f"Cy,{name}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"yacht: error: {says}"), err


def _said_on_the_web(client: TestClient, name: str, says: str) -> None:
    r = client.post("/api/daily", json={"variant": "yatzy", "name": name})
    assert r.status_code == 400 and r.json()["error"].startswith(says), r.text
    sentence(r.json()["error"])
    # a seat's: named by the seat (the page puts "Player 2: " before the sentence)
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "expert", "name": name}]})
    assert r.json()["error"].startswith(f"seat 2: {says}"), r.text
    r = client.post("/api/tables", json={"variant": "yatzy", "seats": [
        {"kind": "person", "name": "Ann", "here": True}, {"kind": "expert", "name": "ANN"}]})
    sentence(r.json()["error"])
