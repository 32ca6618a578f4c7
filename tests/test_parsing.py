"""yacht.parsing: one parser per kind of input. The listed cases of issue 12, and
properties over arbitrary Unicode text and bytes: a valid result or one printable line
(InputError), never another exception."""

from __future__ import annotations

import doctest
import json
import os
import random
import re
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from yacht import parsing
from yacht.engine import Choose, Player, Roll, State
from yacht.parsing import (
    NAME_MARKS,
    InputError,
    check_name,
    check_names,
    parse_card,
    parse_dice,
    parse_game_id,
    parse_in_path,
    parse_options,
    parse_out_path,
    parse_players,
    parse_positions,
    parse_ruleset,
    parse_situation,
    parse_table_id,
    parse_whole,
    read_record,
    turns_possible,
)
from yacht.rules import Ruleset, all_variants, get
from yacht.session.commands import ActionError, parse_command
from yacht.strategy.advisor import AdviceError, card_text

VARIANTS = list(all_variants())
#: examples per property (YACHT_FUZZ_EXAMPLES for a longer hunt)
FUZZ = settings(max_examples=int(os.environ.get("YACHT_FUZZ_EXAMPLES", "150")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def test_docstring_examples() -> None:
    result = doctest.testmod(parsing, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


def one_line(e: Exception) -> str:
    text = str(e)
    assert text and "\n" not in text and text.isprintable(), repr(text)
    return text


# text as typed, text with other scripts' digits, and bytes as argv would carry them
TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from(string.digits + ",; -\t0²①１٥৩"), max_size=24),
    st.binary(max_size=40).map(os.fsdecode),
)


# --- dice --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["²2345", "①2345", "１２３４５", "1,2,3,4,٥", "1,,2,3,4,5",
                                  "1,2,3,4,5,", ",1,2,3,4,5", "1 2,3,4,5", "", " ", "123456",
                                  "12340", "1,2,3,4,99999999999999999999999", "1_2345",
                                  "+1,2,3,4,5", "1.0,2,3,4,5", "0x1,2,3,4,5"])
def test_dice_refused(text: str) -> None:
    with pytest.raises(InputError) as e:
        parse_dice(text, get("yahtzee"))
    assert "accepted" in one_line(e.value) or "write them like" in str(e.value) \
        or "dice" in str(e.value)


@pytest.mark.parametrize("text", ["12345", "1,2,3,4,5", "1 2 3 4 5", " 1, 2 ,3,4,5 ",
                                  "1\t2 3 4 5"])
def test_dice_forms(text: str) -> None:
    assert parse_dice(text, get("yahtzee")) == (1, 2, 3, 4, 5)


def test_ten_dice_and_counts() -> None:
    rs = get("ancient-yacht-10")
    assert parse_dice("6666555443", rs) == (6, 6, 6, 6, 5, 5, 5, 4, 4, 3)
    assert parse_dice("3,5", rs, count=2) == (3, 5)
    with pytest.raises(InputError, match="2 dice are rolled, but 3 values"):
        parse_dice("3,5,1", rs, count=2)


@FUZZ
@given(st.sampled_from(VARIANTS), TEXT)
@example(get("yatzy"), "1,2,3,4,٥")
def test_dice_property(rs: Ruleset, text: str) -> None:
    try:
        dice = parse_dice(text, rs)
    except InputError as e:
        one_line(e)
        return
    assert len(dice) == rs.dice and all(1 <= v <= rs.faces for v in dice)
    assert set(text) <= set(string.digits + ", \t")


@FUZZ
@given(st.sampled_from(VARIANTS), st.data())
def test_dice_round_trip(rs: Ruleset, data: st.DataObject) -> None:
    dice = tuple(data.draw(st.lists(st.integers(1, rs.faces), min_size=rs.dice,
                                    max_size=rs.dice)))
    for form in (",".join(map(str, dice)), " ".join(map(str, dice)),
                 ", ".join(map(str, dice))):
        assert parse_dice(form, rs) == dice
    if rs.faces < 10:
        assert parse_dice("".join(map(str, dice)), rs) == dice


# --- positions ---------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "words"), [
    ("1,1", "named twice"), ("11", "named twice"), ("²", "not a whole number"),
    ("1,,2", "empty item"), ("1,2,", "empty item"), ("6", "no die 6"), ("0", "no die 0"),
    ("", "give the dice by position"), ("１", "not a whole number")])
def test_positions_refused(text: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_positions(text, get("yatzy"))


def test_positions_ten_dice() -> None:
    rs = get("ancient-yacht-10")
    assert parse_positions("10, 1", rs) == (0, 9) and parse_positions("0 1", rs) == (0, 9)
    with pytest.raises(InputError, match="die 10 is named twice"):
        parse_positions("10,0", rs)


@FUZZ
@given(st.sampled_from(VARIANTS), TEXT)
def test_positions_property(rs: Ruleset, text: str) -> None:
    try:
        pos = parse_positions(text, rs)
    except InputError as e:
        one_line(e)
        return
    assert pos and list(pos) == sorted(set(pos)) and all(0 <= p < rs.dice for p in pos)


# --- whole numbers -----------------------------------------------------------------------
@FUZZ
@given(TEXT, st.integers(-5, 5), st.integers(0, 10**6))
@example("１２", 0, 100)
@example("9" * 5000, 0, None)  # type: ignore[arg-type]
def test_whole_property(text: str, lo: int, hi: int | None) -> None:
    try:
        n = parse_whole(text, "games", lo, hi)
    except InputError as e:
        one_line(e)
        return
    assert lo <= n and (hi is None or n <= hi)
    assert text.strip(" \t").lstrip("-").isascii()


# --- options and variants ----------------------------------------------------------------
def test_options() -> None:
    assert parse_options(["rolls=3"]) == {"rolls": "3"}
    for items, words in [(["joker=free", "joker=none"], "given twice"),
                         (["joker=free", " JOKER = free"], "given twice"),
                         (["joker"], "not KEY=VALUE"), (["=free"], "not KEY=VALUE"),
                         (["rolls=３"], "plain words"), (["\u212aey=1"], "plain words")]:
        with pytest.raises(InputError, match=words):
            parse_options(items)
    with pytest.raises(InputError, match="given twice"):
        parse_ruleset("yahtzee", ["joker=free", "joker=none"])
    with pytest.raises(InputError, match="unknown variant"):
        parse_ruleset("sac\u212ason-yacht")  # the Kelvin sign is not a k
    assert parse_ruleset("Crag").id == "tommys-crag"


@FUZZ
@given(TEXT, st.lists(TEXT, max_size=3))
@example("yahtzee", ["joker=free", "joker=none"])
def test_ruleset_property(name: str, items: list[str]) -> None:
    try:
        rs = parse_ruleset(name, items)
    except InputError as e:
        one_line(e)
        return
    assert isinstance(rs, Ruleset)


# --- the card and the situation ------------------------------------------------------------
@pytest.mark.parametrize(("variant", "text", "words"), [
    ("yahtzee", "extra=50", "no box on this card earns extra points"),
    ("yahtzee", "yahtzee=0,extra=100", "no box on this card earns extra points"),
    ("yahtzee", "yahtzee=50,extra=50", "steps of 100"),
    ("yahtzee", "yahtzee=50,extra=100,extra=100", "given twice"),
    ("yahtzee", "yahtzee=50,extra=" + "1" * 9, "not a whole number"),
    ("yatzy", "extra=100", "no points outside the boxes"),
    ("yatzy", "ones=３", "not a whole number"),
    ("yatzy", "ones=-3", "cannot hold -3"),
    ("yatzy", "one\u212a=3", "unknown box"),
    ("yatzy", "ones=3;fours=12", "not a whole number"),
    ("ancient-yacht-double", "col3:ones=3", "column must be 1-2"),
    ("ancient-yacht-double", "ones@0=3", "column must be 1-2"),
    ("yatzy", "ones=3,saved=1", "yatzy saves no rolls for later turns"),
    ("maxi-yatzy", "ones=3,saved=1,saved=2", "saved is given twice"),
    ("maxi-yatzy", "ones=3,saved=-1", "saved rolls cannot be negative"),
    ("maxi-yatzy", "ones=3,saved=x", "not a whole number"),
])
def test_card_refused(variant: str, text: str, words: str) -> None:
    with pytest.raises(InputError, match=words) as e:
        parse_card(get(variant), text)
    one_line(e.value)


def test_card_forms() -> None:
    rs = get("yahtzee")
    card = parse_card(rs, "ones=3, fours=12 yahtzee=50,,extra=200")
    assert card == parse_card(rs, "ones=3,fours=12,yahtzee=50,extra=200")
    assert card.extra == 200 and card.filled == 3
    d = get("ancient-yacht-double")
    assert parse_card(d, "yacht@2=50").boxes[1][d.index("yacht")] == 50
    assert parse_card(d, "col2:yacht=50") == parse_card(d, "YACHT@2=50")


def test_saved_rolls_on_the_card() -> None:
    """Maxi Yatzy's pool of saved rolls is part of the card's notation (it was not:
    a card with rolls saved printed as one without)."""
    rs = get("maxi-yatzy")
    card = parse_card(rs, "saved=2 ones=3")
    assert card.saved == 2 and card.filled == 1
    assert card_text(rs, card) == "ones=3,saved=2"
    assert parse_card(rs, card_text(rs, card)) == card
    assert card_text(rs, card.with_saved(0)) == "ones=3"
    assert parse_card(rs, "ones=3,saved=0") == card.with_saved(0)
    off = get("maxi-yatzy", {"saved_rolls": "off"})
    with pytest.raises(InputError, match="saves no rolls"):
        parse_card(off, "ones=3,saved=1")
    with pytest.raises(InputError, match=r"accepted: .*, extra, saved\)"):
        parse_card(rs, "onez=3")


def _random_card(rs: Ruleset, rng: random.Random) -> str:
    items = []
    for col in range(len(rs.columns)):
        for i, cat in enumerate(rs.categories):
            if rng.random() < 0.5:
                value = rng.choice(sorted(parsing.possible_values(rs, i)))
                items.append(f"{'col2:' if col else ''}{cat.id}={value}")
    if any(rule.saves_rolls(rs) for rule in rs.special) and rng.random() < 0.5:
        items.append(f"saved={rng.randrange(8)}")
    rng.shuffle(items)
    return ",".join(items)


@FUZZ
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False))
def test_card_round_trip(rs: Ruleset, rng: random.Random) -> None:
    card = parse_card(rs, _random_card(rs, rng))
    assert parse_card(rs, card_text(rs, card)) == card


@FUZZ
@given(st.sampled_from(VARIANTS), TEXT)
@example(get("yahtzee"), "extra=50")
def test_card_property(rs: Ruleset, text: str) -> None:
    try:
        card = parse_card(rs, text)
    except InputError as e:
        one_line(e)
        return
    assert parse_card(rs, card_text(rs, card)) == card


def test_turns_possible() -> None:
    rs = get("yahtzee")
    assert turns_possible(rs, parse_card(rs, "ones=3,yahtzee=50")) == range(2, 3)
    ty = get("tommys-yahtzee")
    # 100 is a Yahtzee and one repeat, or a scratch and two
    assert turns_possible(ty, parse_card(ty, "yahtzee=100")) == range(2, 4)
    # (before, from 1: a turn for the box's points, not one for each 50 of them)
    assert turns_possible(ty, parse_card(ty, "ones=3,yahtzee=150")) == range(4, 6)


def test_situation() -> None:
    rs = get("yatzy")
    s = parse_situation(rs, "13356 r2 t3 ones=3, fours=12")
    assert (s.dice, s.rolls_left, s.turn) == ((1, 3, 3, 5, 6), 2, 3)
    assert parse_situation(rs, "- ones=3").dice == ()
    for text in ["１３３５６ r2", "13356 r２", "13356 r2 r1", "1,,3356 r2", ""]:
        with pytest.raises(InputError):
            parse_situation(rs, text)


@FUZZ
@given(st.sampled_from(VARIANTS), TEXT)
def test_situation_property(rs: Ruleset, text: str) -> None:
    try:
        parse_situation(rs, text)
    except InputError as e:
        one_line(e)


# --- action text ---------------------------------------------------------------------------
def _states() -> list[State]:
    out = []
    for name in ("yatzy", "ancient-yacht-10-double", "tommys-crag"):
        s = State(get(name), [Player("Ann")], rng=random.Random(1))
        out.append(s.clone())
        s.apply(Roll())
        out.append(s.clone())
        s.apply(Choose((0,)))
        out.append(s.clone())
    return out


STATES = _states()


@pytest.mark.parametrize(("text", "words"), [
    ("choose ²", "not a whole number"), ("choose 1,1", "named twice"),
    ("choose 11", "named twice"), ("1,,3", "empty item"), ("roll 1,2,3,4,٥", "roll needs"),
    ("score chance 99999999999999999", "no column"), ("score \u212a", "no box")])
def test_action_refused(text: str, words: str) -> None:
    state = STATES[0] if text.startswith("roll") else STATES[1]
    with pytest.raises(ActionError, match=words) as e:
        parse_command(text, state)
    one_line(e.value)
    assert isinstance(e.value, InputError)


@FUZZ
@given(st.sampled_from(STATES), TEXT)
def test_action_property(state: State, text: str) -> None:
    try:
        commands = parse_command(text, state)
    except ActionError as e:
        one_line(e)
        return
    assert commands
    for c in commands:
        if isinstance(c, Choose):
            assert len(set(c.dice)) == len(c.dice)
        if isinstance(c, Roll) and c.result is not None:
            assert all(1 <= v <= state.ruleset.faces for v in c.result)


# --- players and names ---------------------------------------------------------------------
@pytest.mark.parametrize(("text", "words"), [
    ("Ann,Ann", "Two players are called"), ("Ann,ANN", "Two players are called"),
    ("Ann\x1b[2J", "control"), ("Ann\n,Bob", "control"), ("Ann\u200b", "invisible"),
    ("Ann,,Bob", "separated by commas"), ("Ann,", "separated by commas"),
    ("Max=cpu:expert,max", "Two players"), ("cpu:", "unknown computer level"),
    ("cpu:grandmaster", "unknown computer level"), ("Ann=robot", "person or cpu")])
def test_players_refused(text: str, words: str) -> None:
    with pytest.raises(InputError, match=words) as e:
        parse_players(text)
    one_line(e.value)


def test_players_forms() -> None:
    assert parse_players("Ann,  Bob  Lee ,cpu,cpu,Cpunk") == [
        ("Ann", "person"), ("Bob Lee", "person"), ("Intermediate", "intermediate"),
        ("Intermediate 2", "intermediate"), ("Cpunk", "person")]
    # "Bob:expert" made a person called "Bob:expert" (QA s21): a computer was meant
    assert parse_players("Ann,Bob:expert, Cy : Champion,Di:cpu,Ed:random") == [
        ("Ann", "person"), ("Bob", "expert"), ("Cy", "champion"), ("Di", "intermediate"),
        ("Ed", "random")]
    # a colon before anything else is part of a person's name
    assert parse_players("Dr:Who,:expert") == [("Dr:Who", "person"), (":expert", "person")]
    assert check_names(["Ann", "Bob"]) == ["Ann", "Bob"]
    with pytest.raises(InputError, match="give a name"):
        check_name("   ")


@FUZZ
@given(TEXT)
@example("Ann,ann")
@example("cpu,Intermediate")
def test_players_property(text: str) -> None:
    try:
        players = parse_players(text)
    except InputError as e:
        one_line(e)
        return
    names = [n for n, _ in players]
    assert 1 <= len(players) <= 8
    assert len({n.casefold() for n in names}) == len(names)
    assert all(n.isprintable() and 1 <= len(n) <= 20 for n in names)


@FUZZ
@given(TEXT)
def test_name_property(text: str) -> None:
    try:
        name = check_name(text)
    except InputError as e:
        one_line(e)
        return
    assert name.isprintable() and 1 <= len(name) <= 20 and name == name.strip()
    assert name == unicodedata.normalize("NFC", name) and "  " not in name
    assert not unicodedata.category(name[0]).startswith("M")  # (something shows)
    assert not set(name) & set(BLANKS)
    marks = [len(m) for m in re.findall(r"[\u0300-\u036f\u0590-\u05c7\u0f71-\u0fbc]+", name)]
    assert max(marks, default=0) <= NAME_MARKS


#: characters that show nothing, yet are letters or symbols to Unicode (or marks)
BLANKS = "\u3164\u2800\u115f\u1160\uffa0\u034f\U0001d159"


@pytest.mark.parametrize(("text", "words"), [
    ("\u3164", "invisible character (U+3164 HANGUL FILLER)"),
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"), ("\u115f", "U+115F"), ("\uffa0", "U+FFA0"),
    ("Ann\u3164", "invisible"), ("A\u2800B", "invisible"), ("\u200b", "invisible"),
    ("Ann\u200d", "invisible"), ("\ufeffAnn", "invisible"), ("\u00ad", "invisible"),
    ("Ann\u2066", "invisible"), ("\U000e0041", "invisible"), ("A\u034fB", "invisible"),
    ("\u0301", "starts with a combining mark"), ("\u0301\u0302\u0303", "starts with a combining"),
    ("\ufe0f\ufe0f", "starts with a combining"), ("\u0301Ann", "starts with a combining mark"),
    ("  \u0301  ", "starts with a combining"), ("A" + "\u0301" * 19, "more than 3 accents"),
    ("Ann" + "\u0316" * 4, "more than 3"), ("a" * 21, "longer than 20 characters")])
def test_names_that_show_nothing_are_refused(text: str, words: str) -> None:
    with pytest.raises(InputError, match=re.escape(words)) as e:
        check_name(text)
    one_line(e.value)
    line = str(e.value)
    assert line.isprintable() and not set(line) & set(BLANKS) and "\u0301\u0301" not in line
    assert "characters" in line or "mark goes after its letter" in line  # (what is taken)


@pytest.mark.parametrize("text", [
    "Zoë", "Zoe\u0308", "Nguyễn Thị", "王小明", "山田 太郎", "김민준", "Łukasz", "Ангелина",
    "Аnn", "محمد", "שָּׁלוֹם", "श्रीनिवास", "ที่รัก", "སྒྲོལ་མ", "Ann 🎲", "❤️", "1️⃣", "O'Brien-Smith",
    "Ann" + "\u0301\u0302\u0303"])
def test_names_of_every_script_are_taken(text: str) -> None:
    name = check_name(text)
    assert name == unicodedata.normalize("NFC", text)


# --- ids and paths -------------------------------------------------------------------------
@FUZZ
@given(TEXT)
@example("3F2A")
def test_ids_property(text: str) -> None:
    for parse, lengths in ((parse_game_id, range(1, 13)), (parse_table_id, range(12, 13))):
        try:
            got = parse(text)
        except InputError as e:
            one_line(e)
            continue
        assert len(got) in lengths and set(got) <= set("0123456789abcdef")


@FUZZ
@given(TEXT)
@example("")
@example("a\x00b")
@example(".")
def test_paths_property(text: str) -> None:
    for parse in (parse_in_path, parse_out_path):
        try:
            path = parse(text)
        except InputError as e:
            one_line(e)
            continue
        assert "\x00" not in str(path)


def test_out_path_refused(tmp_path: Path) -> None:
    for text in ["", " ", ".", "..", str(tmp_path), str(tmp_path) + "/", "a\nb", "a\x1bb"]:
        with pytest.raises(InputError):
            parse_out_path(text)


# --- record files --------------------------------------------------------------------------
def _valid_record() -> dict[str, object]:
    from yacht.engine import Record, random_turn

    s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(2))
    rng = random.Random(3)
    for _ in range(3):
        random_turn(s, rng)
    obj: dict[str, object] = Record.from_state(s).to_json()
    return obj


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=12)


@FUZZ
@given(st.one_of(
    st.binary(max_size=200),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.tuples(st.sampled_from(["variant", "options", "players", "actions", "version", "meta"]),
              JSON).map(lambda kv: json.dumps({**_valid_record(), kv[0]: kv[1]}).encode()),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),
))
def test_record_files_property(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.json"
        path.write_bytes(data)
        try:
            rec = read_record(str(path))
        except InputError as e:
            one_line(e)
            return
        assert rec.final_state() is not None


def test_deep_and_huge_records(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="nests deeper"):
        read_record(str(deep))
    digits = tmp_path / "digits.json"
    digits.write_text("1" * 10_000)
    with pytest.raises(InputError, match="not valid JSON"):
        read_record(str(digits))
    with pytest.raises(InputError, match="cannot read"):
        read_record(str(tmp_path))


# --- the advisor keeps its own error type --------------------------------------------------
def test_advisor_card_errors_are_advice_errors() -> None:
    from yacht.strategy.advisor import parse_card as advisor_card

    with pytest.raises(AdviceError, match="no box on this card earns"):
        advisor_card(get("yahtzee"), "extra=50")
