"""Table-driven scoring: every category of every variant, with the edge cases of RULES.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from yacht.rules import Category, all_variants, get

# (variant, dice, category, expected)
CASES: list[tuple[str, str, str, int]] = [
    # --- ancient-yacht (and the two-column game, same boxes) -----------------
    ("ancient-yacht", "11135", "ones", 3),
    ("ancient-yacht", "22234", "twos", 6),
    ("ancient-yacht", "33312", "threes", 9),
    ("ancient-yacht", "44441", "fours", 16),
    ("ancient-yacht", "55123", "fives", 10),
    ("ancient-yacht", "66666", "sixes", 30),
    ("ancient-yacht", "12346", "sixes", 6),
    ("ancient-yacht", "12345", "choice", 15),
    ("ancient-yacht", "66655", "full_house", 28),
    ("ancient-yacht", "22333", "full_house", 13),
    ("ancient-yacht", "66666", "full_house", 0),      # five of a kind is not a full house
    ("ancient-yacht", "66662", "full_house", 0),
    ("ancient-yacht", "66662", "four_of_a_kind", 26),  # sum of all five dice
    ("ancient-yacht", "66666", "four_of_a_kind", 30),
    ("ancient-yacht", "66622", "four_of_a_kind", 0),
    ("ancient-yacht", "12346", "small_straight", 15),
    ("ancient-yacht", "23451", "small_straight", 15),
    ("ancient-yacht", "34566", "small_straight", 15),
    ("ancient-yacht", "12356", "small_straight", 0),
    ("ancient-yacht", "12345", "large_straight", 30),
    ("ancient-yacht", "65432", "large_straight", 30),
    ("ancient-yacht", "12346", "large_straight", 0),
    ("ancient-yacht", "44444", "yacht", 50),
    ("ancient-yacht", "44443", "yacht", 0),
    ("ancient-yacht-double", "66655", "full_house", 28),
    ("ancient-yacht-double", "33333", "yacht", 50),
    # --- ancient-yacht-10 -------------------------------------------------------
    ("ancient-yacht-10", "1111111111", "ones", 10),
    ("ancient-yacht-10", "6666655555", "sixes", 30),
    ("ancient-yacht-10", "6666655555", "choice", 55),
    ("ancient-yacht-10", "6666555443", "double_full_house", 50),  # the maximum
    ("ancient-yacht-10", "1111222334", "double_full_house", 20),
    ("ancient-yacht-10", "6666655443", "double_full_house", 0),   # counts 5,2,2,1
    ("ancient-yacht-10", "6666555444", "double_full_house", 0),   # 4,3,3
    ("ancient-yacht-10", "6666555442", "double_full_house", 49),  # any four faces
    ("ancient-yacht-10", "6666666612", "eight_of_a_kind", 51),
    ("ancient-yacht-10", "6666666666", "eight_of_a_kind", 60),
    ("ancient-yacht-10", "6666666123", "eight_of_a_kind", 0),
    ("ancient-yacht-10", "1234234566", "double_small_straight", 30),  # 1234 + 3456
    ("ancient-yacht-10", "1234123466", "double_small_straight", 30),  # 1234 twice
    ("ancient-yacht-10", "2345345666", "double_small_straight", 30),
    ("ancient-yacht-10", "1234566666", "double_small_straight", 0),   # only one run
    ("ancient-yacht-10", "1234512345", "double_large_straight", 60),
    ("ancient-yacht-10", "1234523456", "double_large_straight", 60),  # any pairing
    ("ancient-yacht-10", "2345623456", "double_large_straight", 60),
    ("ancient-yacht-10", "1234523466", "double_large_straight", 0),   # 12345 + 2346: no
    ("ancient-yacht-10", "1234523456", "double_small_straight", 30),  # large contains small
    ("ancient-yacht-10", "5555555555", "double_yacht", 100),
    ("ancient-yacht-10", "5555555554", "double_yacht", 0),
    # --- windows-yacht / yatsee / yatcy / tommys-yahtzee / yahtzee --------------
    ("windows-yacht", "33324", "three_of_a_kind", 15),
    ("windows-yacht", "33322", "three_of_a_kind", 13),
    ("windows-yacht", "33222", "four_of_a_kind", 0),
    ("windows-yacht", "22221", "four_of_a_kind", 9),
    ("windows-yacht", "55555", "four_of_a_kind", 25),
    ("windows-yacht", "33322", "full_house", 25),
    ("windows-yacht", "33333", "full_house", 0),
    ("windows-yacht", "12346", "small_straight", 30),
    ("windows-yacht", "12345", "small_straight", 30),
    ("windows-yacht", "11234", "small_straight", 30),
    ("windows-yacht", "12245", "small_straight", 0),
    ("windows-yacht", "23456", "large_straight", 40),
    ("windows-yacht", "12346", "large_straight", 0),
    ("windows-yacht", "66666", "yacht", 50),
    ("windows-yacht", "66666", "chance", 30),
    ("windows-yacht", "11111", "small_straight", 0),  # no joker in Windows Yacht
    ("yatsee", "44444", "yatsee", 50),
    ("yatsee", "34562", "large_straight", 40),
    ("yatsee", "22255", "full_house", 25),
    ("yatcy", "13456", "short_straight", 30),
    ("yatcy", "13456", "long_straight", 0),
    ("yatcy", "15432", "long_straight", 40),
    ("yatcy", "22222", "yatcy", 50),
    ("yatcy", "66554", "chance", 26),
    ("tommys-yahtzee", "11111", "yahtzee", 50),
    ("tommys-yahtzee", "55566", "full_house", 25),
    ("yahtzee", "66666", "yahtzee", 50),
    ("yahtzee", "66666", "full_house", 0),  # joker only with a filled Yahtzee box
    ("yahtzee", "34561", "small_straight", 30),
    ("yahtzee", "44455", "three_of_a_kind", 22),
    # --- tommys-yacht ----------------------------------------------------------
    ("tommys-yacht", "66665", "four_of_a_kind", 29),
    ("tommys-yacht", "66655", "full_house", 28),
    ("tommys-yacht", "66666", "full_house", 0),
    ("tommys-yacht", "12345", "little_straight", 30),
    ("tommys-yacht", "12346", "little_straight", 0),
    ("tommys-yacht", "23456", "big_straight", 30),
    ("tommys-yacht", "12345", "big_straight", 0),
    ("tommys-yacht", "13366", "chance", 19),
    ("tommys-yacht", "22222", "yacht", 50),
    # --- tommys-crag -----------------------------------------------------------
    ("tommys-crag", "661", "crag", 50),
    ("tommys-crag", "553", "crag", 50),
    ("tommys-crag", "445", "crag", 50),
    ("tommys-crag", "661", "thirteen", 26),   # a crag counts as thirteen too
    ("tommys-crag", "634", "thirteen", 26),
    ("tommys-crag", "634", "crag", 0),        # thirteen without a pair is no crag
    ("tommys-crag", "652", "crag", 0),
    ("tommys-crag", "652", "thirteen", 26),
    ("tommys-crag", "444", "three_of_a_kind", 25),
    ("tommys-crag", "444", "fours", 12),
    ("tommys-crag", "443", "three_of_a_kind", 0),
    ("tommys-crag", "321", "low_straight", 20),
    ("tommys-crag", "654", "high_straight", 20),
    ("tommys-crag", "531", "odd_straight", 20),
    ("tommys-crag", "642", "even_straight", 20),
    ("tommys-crag", "124", "low_straight", 0),
    ("tommys-crag", "642", "high_straight", 0),
    ("tommys-crag", "666", "sixes", 18),
    ("tommys-crag", "666", "thirteen", 0),
    # --- yatzy -----------------------------------------------------------------
    ("yatzy", "33455", "one_pair", 10),    # highest pair
    ("yatzy", "12345", "one_pair", 0),
    ("yatzy", "66666", "one_pair", 12),    # five of a kind is a pair
    ("yatzy", "33455", "two_pairs", 16),
    ("yatzy", "33445", "two_pairs", 14),
    ("yatzy", "33335", "two_pairs", 0),    # one face is not two pairs
    ("yatzy", "66666", "two_pairs", 0),
    ("yatzy", "33366", "two_pairs", 18),
    ("yatzy", "33345", "three_of_a_kind", 9),   # only the three dice count
    ("yatzy", "66666", "three_of_a_kind", 18),
    ("yatzy", "33456", "three_of_a_kind", 0),
    ("yatzy", "22226", "four_of_a_kind", 8),
    ("yatzy", "66666", "four_of_a_kind", 24),
    ("yatzy", "12345", "small_straight", 15),
    ("yatzy", "23456", "small_straight", 0),    # exactly 1-2-3-4-5
    ("yatzy", "12346", "small_straight", 0),
    ("yatzy", "23456", "large_straight", 20),
    ("yatzy", "12345", "large_straight", 0),
    ("yatzy", "22333", "full_house", 13),
    ("yatzy", "66666", "full_house", 0),
    ("yatzy", "12345", "chance", 15),
    ("yatzy", "11111", "yatzy", 50),
    # --- sackson-yacht ---------------------------------------------------------
    ("sackson-yacht", "33333", "four_of_a_kind", 12),  # the four matching dice only
    ("sackson-yacht", "44441", "four_of_a_kind", 16),
    ("sackson-yacht", "44411", "four_of_a_kind", 0),
    ("sackson-yacht", "33322", "full_house", 13),
    ("sackson-yacht", "33333", "full_house", 0),
    ("sackson-yacht", "12345", "little_straight", 30),
    ("sackson-yacht", "23456", "big_straight", 30),
    ("sackson-yacht", "13456", "big_straight", 0),
    ("sackson-yacht", "12345", "choice", 15),
    ("sackson-yacht", "44444", "yacht", 50),
    # --- kismet (RULES.md "Variants beyond the seeds") ---------------------------
    ("kismet", "11156", "ones", 3),
    ("kismet", "22256", "twos", 6),
    ("kismet", "33356", "threes", 9),
    ("kismet", "44456", "fours", 12),
    ("kismet", "55516", "fives", 15),
    ("kismet", "66615", "sixes", 18),
    ("kismet", "11662", "two_pair_same_colour", 16),  # a face and its partner, twice each
    ("kismet", "22553", "two_pair_same_colour", 17),
    ("kismet", "33344", "two_pair_same_colour", 17),  # 3-3-3-4-4 counts
    ("kismet", "44441", "two_pair_same_colour", 17),  # two pairs of one face
    ("kismet", "55555", "two_pair_same_colour", 25),
    ("kismet", "33355", "two_pair_same_colour", 0),   # a full house of two colours
    ("kismet", "11223", "two_pair_same_colour", 0),   # two pairs, two colours
    ("kismet", "22215", "three_of_a_kind", 12),
    ("kismet", "22115", "three_of_a_kind", 0),
    ("kismet", "12345", "straight", 30),
    ("kismet", "23456", "straight", 30),
    ("kismet", "12346", "straight", 0),
    ("kismet", "11666", "flush", 35),                 # 5 + 0, 4 + 1, 3 + 2 of one colour
    ("kismet", "34343", "flush", 35),
    ("kismet", "22222", "flush", 35),
    ("kismet", "25253", "flush", 0),
    ("kismet", "33355", "full_house", 34),            # 15 + 19
    ("kismet", "66666", "full_house", 45),            # five of a kind is a full house here
    ("kismet", "33335", "full_house", 0),
    ("kismet", "22255", "full_house_same_colour", 36),  # 20 + 16, faces adding up to 7
    ("kismet", "44433", "full_house_same_colour", 38),
    ("kismet", "11111", "full_house_same_colour", 25),
    ("kismet", "33355", "full_house_same_colour", 0),
    ("kismet", "55551", "four_of_a_kind", 46),        # 25 + 21
    ("kismet", "55511", "four_of_a_kind", 0),
    ("kismet", "12356", "yarborough", 17),
    ("kismet", "44444", "kismet", 70),                # 50 + 20
    ("kismet", "44443", "kismet", 0),
    # --- generala -------------------------------------------------------------------
    ("generala", "11234", "ones", 2),
    ("generala", "22234", "twos", 6),
    ("generala", "33312", "threes", 9),
    ("generala", "44441", "fours", 16),
    ("generala", "55123", "fives", 10),
    ("generala", "66666", "sixes", 30),
    ("generala", "12345", "escalera", 20),
    ("generala", "23456", "escalera", 20),
    ("generala", "13456", "escalera", 0),             # 3-4-5-6-1 only with straight=ace_high
    ("generala", "22333", "full", 30),
    ("generala", "33333", "full", 0),                 # five of a kind is never a full
    ("generala", "44441", "poker", 40),
    ("generala", "44444", "poker", 40),
    ("generala", "44411", "poker", 0),
    ("generala", "22222", "generala", 50),
    ("generala", "22221", "generala", 0),
    ("generala", "55555", "doble_generala", 100),     # on an empty card: see the hook tests
    # --- maxi-yatzy -------------------------------------------------------------------
    ("maxi-yatzy", "111234", "ones", 3),
    ("maxi-yatzy", "222134", "twos", 6),
    ("maxi-yatzy", "333124", "threes", 9),
    ("maxi-yatzy", "444412", "fours", 16),
    ("maxi-yatzy", "555123", "fives", 15),
    ("maxi-yatzy", "666666", "sixes", 36),
    ("maxi-yatzy", "224466", "one_pair", 12),
    ("maxi-yatzy", "123456", "one_pair", 0),
    ("maxi-yatzy", "224466", "two_pairs", 20),        # the best two pairs
    ("maxi-yatzy", "333355", "two_pairs", 16),        # 4 + 2 is two pairs
    ("maxi-yatzy", "222555", "two_pairs", 14),
    ("maxi-yatzy", "666666", "two_pairs", 0),         # six of a kind is one face
    ("maxi-yatzy", "224466", "three_pairs", 24),
    ("maxi-yatzy", "333355", "three_pairs", 0),       # 4 + 2 is not three pairs
    ("maxi-yatzy", "222555", "three_pairs", 0),
    ("maxi-yatzy", "555512", "three_of_a_kind", 15),
    ("maxi-yatzy", "222555", "three_of_a_kind", 15),  # the highest face shown that often
    ("maxi-yatzy", "555512", "four_of_a_kind", 20),
    ("maxi-yatzy", "555551", "five_of_a_kind", 25),
    ("maxi-yatzy", "666666", "five_of_a_kind", 30),
    ("maxi-yatzy", "555512", "five_of_a_kind", 0),
    ("maxi-yatzy", "123456", "small_straight", 15),
    ("maxi-yatzy", "123455", "small_straight", 15),   # the sixth die is free
    ("maxi-yatzy", "234566", "large_straight", 20),
    ("maxi-yatzy", "123455", "large_straight", 0),
    ("maxi-yatzy", "123456", "full_straight", 21),
    ("maxi-yatzy", "123455", "full_straight", 0),
    ("maxi-yatzy", "344666", "full_house", 26),       # the sixth die does not count
    ("maxi-yatzy", "333355", "full_house", 19),       # 3-3-3 + 5-5
    ("maxi-yatzy", "222555", "full_house", 19),       # 5-5-5 + 2-2
    ("maxi-yatzy", "666666", "full_house", 0),
    ("maxi-yatzy", "222555", "villa", 21),
    ("maxi-yatzy", "222255", "villa", 0),
    ("maxi-yatzy", "333355", "tower", 22),
    ("maxi-yatzy", "666666", "tower", 0),
    ("maxi-yatzy", "222555", "tower", 0),
    ("maxi-yatzy", "123456", "chance", 21),
    ("maxi-yatzy", "444444", "maxi_yatzy", 100),
    ("maxi-yatzy", "444443", "maxi_yatzy", 0),
]


@pytest.mark.parametrize(("variant", "dice", "category", "expected"), CASES)
def test_score_table(variant: str, dice: str, category: str, expected: int) -> None:
    rs = get(variant)
    assert rs.scores([int(d) for d in dice])[category] == expected


def test_every_category_of_every_variant_has_cases() -> None:
    """Each box of each variant is covered by a case (directly or by a box that scores
    the same: its id, scorer and parameters, whatever its label)."""
    def scoring(cat: Category) -> tuple[object, ...]:
        return cat.id, cat.scorer, tuple(cat.parameters.items())

    covered = {scoring(get(v).category(c)) for v, _, c, _ in CASES}
    missing = [(rs.id, cat.id) for rs in all_variants() for cat in rs.categories
               if scoring(cat) not in covered]
    assert not missing


# The peer suite lives in ../shared beside the checkout (CI lays it there too).
PEER = Path(__file__).resolve().parents[2].parent / "shared" / "peer-tests" / \
    "exercism-yacht-canonical.json"
needs_peer = pytest.mark.skipif(not PEER.exists(), reason=f"peer suite not found at {PEER}")


def _peer_cases() -> list[tuple[str, list[int], str, int]]:
    if not PEER.exists():
        return []
    data = json.loads(PEER.read_text())
    return [(c["description"], c["input"]["dice"], c["input"]["category"], c["expected"])
            for c in data["cases"]]


@needs_peer
@pytest.mark.parametrize(("description", "dice", "category", "expected"), _peer_cases())
def test_exercism_canonical_sackson(description: str, dice: list[int], category: str,
                                    expected: int) -> None:
    rs = get("sackson-yacht")
    assert rs.scores(dice)[category.replace(" ", "_")] == expected, description


@needs_peer
def test_peer_suite_is_complete() -> None:
    assert len(_peer_cases()) == 29


@pytest.mark.parametrize(("variant", "labels"), [
    ("ancient-yacht", {"four_of_a_kind": "Four of a Kind"}),
    ("ancient-yacht-10-double", {"eight_of_a_kind": "Eight of a Kind"}),
    ("windows-yacht", {"three_of_a_kind": "Three of a Kind", "four_of_a_kind": "Four of a Kind"}),
    ("yatcy", {"three_of_a_kind": "Three of a Kind", "four_of_a_kind": "Four of a Kind"}),
    ("tommys-yahtzee", {"three_of_a_kind": "Three of a Kind"}),
    ("tommys-yacht", {"four_of_a_kind": "Four of a Kind"}),
    ("tommys-crag", {"three_of_a_kind": "Three of a Kind"}),
    ("yatsee", {"three_of_a_kind": "3 of a Kind", "four_of_a_kind": "4 of a Kind"}),
    ("kismet", {"ones": "Aces", "twos": "Twos"}),
])
def test_labels_follow_each_original(variant: str, labels: dict[str, str]) -> None:
    """RULES.md: the labels shown follow each original's wording (its manual or card)."""
    rs = get(variant)
    assert {cid: rs.category(cid).label for cid in labels} == labels
