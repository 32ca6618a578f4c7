"""Remembered setup, the --players notation, box letters, the score comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.rules import all_variants, get
from yacht.session import (
    RESERVED,
    Config,
    PlayerSpec,
    best_possible,
    category_keys,
    config_path,
    key_for,
    load_config,
    parse_players,
    save_config,
    score_comment,
    singlets,
)


def test_config_round_trip_in_the_overridden_folder(config_dir: Path) -> None:
    assert load_config() == Config()  # nothing saved yet: the defaults
    cfg = Config(variant="yatzy", options={"ancient-yacht-10": {"rolls": "3"}},
                 players=[PlayerSpec("Ann"), PlayerSpec("Max", "expert")], demo=True,
                 speed="fast", sound=False)
    assert save_config(cfg) is None
    assert config_path().parent == config_dir
    assert load_config() == cfg


@pytest.mark.parametrize("text", ["not json", "[]", '{"players": 5, "speed": "warp"}',
                                  '{"players": [{"name": ""}], "sound": "loud"}'])
def test_a_damaged_config_gives_the_defaults(config_dir: Path, text: str) -> None:
    config_dir.mkdir(parents=True)
    config_path().write_text(text)
    cfg = load_config()
    assert cfg.players == Config().players and cfg.speed == "normal" and cfg.sound


def test_an_unwritable_config_folder_is_one_line(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("YACHT_CONFIG_DIR", str(blocker / "sub"))
    problem = save_config(Config())
    assert problem is not None and "cannot save the setup" in problem
    assert "\n" not in problem


def test_parse_players() -> None:
    ps = parse_players("Ann, Bob ,cpu:expert,Max=cpu:beginner,cpu")
    assert [(p.name, p.kind) for p in ps] == [
        ("Ann", "person"), ("Bob", "person"), ("Expert", "expert"), ("Max", "beginner"),
        ("Intermediate", "intermediate")]
    assert ps[2].is_computer and not ps[0].is_computer


@pytest.mark.parametrize("text,match", [
    ("", "separated by commas"), ("Ann,,Bob", "separated by commas"),
    ("cpu:grandmaster", "unknown computer level"), ("Ann=robot", "person or cpu"),
    (",".join("abcdefghi"), "9 players"), ("x" * 21, "longer than 20")])
def test_parse_players_errors(text: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        parse_players(text)


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_every_box_has_its_own_free_letter(rs: object) -> None:
    from yacht.rules import Ruleset

    assert isinstance(rs, Ruleset)
    keys = category_keys(rs)
    assert list(keys) == [c.id for c in rs.categories]
    assert len(set(keys.values())) == len(keys)
    assert not set(keys.values()) & RESERVED
    assert all(len(k) == 1 and k.isalpha() and k.islower() for k in keys.values())
    for cid, k in keys.items():
        assert key_for(rs, k) == cid


def test_letters_follow_the_labels() -> None:
    keys = category_keys(get("yahtzee"))
    assert keys["yahtzee"] == "y" and keys["three_of_a_kind"] == "k"
    assert key_for(get("yahtzee"), "q") is None


def test_singlets() -> None:
    assert singlets((2, 2, 5, 6, 2)) == (2, 3)
    assert singlets((4, 4, 4)) == ()


def test_score_comment_scales_with_the_variant() -> None:
    assert best_possible(get("tommys-crag")) == 244
    assert best_possible(get("yatcy")) == 370
    low = score_comment(get("yahtzee"), 90)
    high = score_comment(get("yahtzee"), 330)
    assert low != high
    assert "90 of a possible 375" in low
    assert score_comment(get("ancient-yacht-double"), 0).startswith("Oh dear")
