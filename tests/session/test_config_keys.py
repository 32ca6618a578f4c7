"""Remembered setup, the --players notation, box letters, the score comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from yacht.rules import all_variants, get, rules_text
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


def test_the_flow_options_are_remembered(config_dir: Path) -> None:
    cfg = Config()
    assert cfg.next_player_pause and not cfg.auto_roll  # Ancient Yacht's pause by default
    cfg.next_player_pause, cfg.auto_roll = False, True
    assert save_config(cfg) is None
    again = load_config()
    assert not again.next_player_pause and again.auto_roll
    config_path().write_text('{"auto_roll": "yes", "next_player_pause": 0}')
    assert load_config() == Config()  # not booleans: the defaults


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
    assert all(len(k) == 1 and k.isalpha() for k in keys.values())
    # capitals only once every free small letter is taken (Maxi Yatzy's 20 boxes)
    free = 26 - len(RESERVED)
    assert sum(k.islower() for k in keys.values()) == min(len(keys), free)
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
    low = score_comment(get("ancient-yacht"), 90)
    high = score_comment(get("ancient-yacht"), 250)
    assert low != high
    assert "90 is 86.1 below the expert's average of 176.1" in low  # (not the 288 possible)
    assert score_comment(get("ancient-yacht-double"), 0).startswith("Oh dear")


def test_the_possible_maximum_includes_the_bonuses_a_player_can_earn() -> None:
    # 13 Yahtzees: 375 on the card and 12 bonuses of 100 (1480 without the Joker rule)
    assert best_possible(get("yahtzee")) == 1575
    assert best_possible(get("yahtzee", {"joker": "free"})) == 1575
    assert best_possible(get("yahtzee", {"joker": "none"})) == 1480
    assert best_possible(get("yahtzee", {"bonus": "off"})) == 375
    # the end line no longer names that maximum: it compares with the expert's average
    text = score_comment(get("yahtzee"), 407)
    assert "possible" not in text and "1575" not in text and "%" not in text, text
    assert text.startswith("A legendary game")  # 407 against the expert's 254.6
    tommy = score_comment(get("tommys-yahtzee"), 420)
    assert "possible" not in tommy and "expert's average of 252.9" in tommy


def test_yatcy_judges_against_the_authors_335() -> None:
    rs = get("yatcy")
    beaten = score_comment(rs, 340)
    assert beaten.startswith("Better than the author's 335, by 5!"), beaten
    short = score_comment(rs, 300)
    assert "35 short of the author's 335" in short
    assert score_comment(rs, 335).startswith("Exactly the author's 335")
    assert score_comment(rs, 330) != score_comment(rs, 200)
    # the rules text says so, and the other variants have no par
    assert "judged against the author's 335" in rules_text(rs)
    assert "author" not in score_comment(get("yatsee"), 340)


def test_tommys_letters_where_they_do_not_collide() -> None:
    from yacht.session.keys import letter_notes

    keys = category_keys(get("tommys-yahtzee"))
    # T(riplet), F(ull house), L(arge straight), Y(ahtzee) as Tommy had them
    assert [keys[c] for c in ("three_of_a_kind", "full_house", "large_straight",
                              "yahtzee")] == ["t", "f", "l", "y"]
    # Q and S are quit and singlets here: those boxes get letters of their own
    assert keys["four_of_a_kind"] not in "qs" and keys["small_straight"] not in "qs"
    notes = " ".join(letter_notes(get("tommys-yahtzee")))
    assert "Q (Four of a Kind) is quit here" in notes
    assert "S (Small Straight) is the unmatched dice here" in notes
    crag = category_keys(get("tommys-crag"))
    assert crag["three_of_a_kind"] == "t" and crag["low_straight"] == "l"
    assert crag["even_straight"] == "e"
    assert "H (High Straight) is hint here" in " ".join(letter_notes(get("tommys-crag")))
    assert letter_notes(get("yahtzee")) == []  # no original letters: nothing to say


def test_tommys_boards_in_his_order_with_his_names() -> None:
    rs = get("tommys-yahtzee")
    assert [c.board for c in rs.categories] == list("123456789ABCD")
    order = [c.id for c in rs.categories]
    assert order.index("chance") == order.index("yahtzee") - 1  # C before D
    yacht = get("tommys-yacht")
    assert "".join(c.board for c in yacht.categories) == "12345689ABCD"  # no board 7
    text = rules_text(rs, ids=False)
    assert "board names" in text and "    D  Yahtzee" in text and "[yahtzee]" not in text
    # names are no part of how a box scores
    assert rs.category("chance") == get("yahtzee").category("chance")


def test_a_box_has_the_same_letter_in_every_variant() -> None:
    """Ones, Twos, ... and the boxes that are the same under another name (Yacht, Yahtzee,
    Yatzy; Small, Short and Little Straight) keep their letter from variant to variant;
    only a letter Tommy's programs gave another box moves one, and the help says so."""
    from yacht.session.keys import letter_notes

    yahtzee = category_keys(get("yahtzee"))
    for rs in all_variants():
        keys = category_keys(rs)
        seeds = {c.letter.lower(): c for c in rs.categories if c.letter}
        for c in rs.categories:
            own = c.letter.lower() if c.letter and c.letter.lower() not in RESERVED else ""
            if own:
                assert keys[c.id] == own, (rs.id, c.id)  # Tommy's letters stay his
                continue
            usual = yahtzee.get(c.id)
            if usual is None or usual == keys[c.id]:
                continue
            # moved: only because the original gave that letter to another box, said
            other = seeds.get(usual)
            assert other is not None and other.id != c.id, (rs.id, c.id, usual, keys[c.id])
            notes = " ".join(letter_notes(rs))
            assert f"{c.label} is {keys[c.id]} here" in notes, (rs.id, notes)
    # the same box under other names
    assert category_keys(get("yatzy"))["yatzy"] == yahtzee["yahtzee"]
    assert category_keys(get("ancient-yacht"))["yacht"] == yahtzee["yahtzee"]
    assert category_keys(get("yatcy"))["short_straight"] == yahtzee["small_straight"]
    assert category_keys(get("yatcy"))["long_straight"] == yahtzee["large_straight"]
    assert category_keys(get("sackson-yacht"))["choice"] == yahtzee["chance"]
    assert category_keys(get("ancient-yacht"))["four_of_a_kind"] == yahtzee["four_of_a_kind"]
    assert category_keys(get("yatzy"))["chance"] == yahtzee["chance"]
    # the cases: Ones and Twos in Crag
    crag = category_keys(get("tommys-crag"))
    assert crag["threes"] == yahtzee["threes"] and crag["sixes"] == yahtzee["sixes"]
    notes = " ".join(letter_notes(get("tommys-crag")))
    assert f"Ones is {crag['ones']} here (e is Even Straight, as in the original)" in notes


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
def test_the_table_of_letters_covers_every_box_without_a_clash(rs: object) -> None:
    from yacht.rules import Ruleset
    from yacht.session.keys import LETTERS

    assert isinstance(rs, Ruleset)
    letters = [LETTERS[c.id] for c in rs.categories]  # every box of ours is in the table
    assert len(set(letters)) == len(letters) and not set(letters) & RESERVED
