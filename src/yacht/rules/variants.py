"""The variants, one frozen :class:`Ruleset` each, as ../shared/RULES.md settles them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .hooks import (
    ForcedFirstTurn,
    NeedsBox,
    PenaltyOnOthers,
    RepeatBox,
    SavedRolls,
    ServedBonus,
    ServedWin,
    YahtzeeBonusJoker,
)
from .model import Category, Change, Option, Par, Ruleset, UpperBonus

__all__ = ["VARIANTS"]

_FACE_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")
SMALL_RUNS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
LARGE_RUNS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))


def cat(id: str, label: str, scorer: str, section: str = "lower", **params: Any) -> Category:
    return Category(id, label, section, scorer, tuple(params.items()))  # type: ignore[arg-type]


def upper(faces: int = 6) -> tuple[Category, ...]:
    return tuple(
        cat(_FACE_NAMES[f - 1], _FACE_NAMES[f - 1].capitalize(), "face", "upper", face=f)
        for f in range(1, faces + 1)
    )


#: the "of a kind" boxes' labels as the manuals of Windows Yacht, Yatcy and Tommy's spell
#: them (Yatsee's and today's Yahtzee card say "3 of a Kind")
SPELLED = ("Three of a Kind", "Four of a Kind")


def classic13(straights: tuple[str, str, str, str], yacht: tuple[str, str],
              kinds: tuple[str, str] = ("3 of a Kind", "4 of a Kind")) -> tuple[Category, ...]:
    """The 13 boxes shared by Windows Yacht, Yatsee, Yatcy, Tommy's Yahtzee and Yahtzee."""
    ss_id, ss_label, ls_id, ls_label = straights
    return upper() + (
        cat("three_of_a_kind", kinds[0], "of_a_kind", n=3, points="all"),
        cat("four_of_a_kind", kinds[1], "of_a_kind", n=4, points="all"),
        cat("full_house", "Full House", "pattern", counts=(3, 2), points=25),
        cat(ss_id, ss_label, "straight", runs=SMALL_RUNS, points=30),
        cat(ls_id, ls_label, "straight", runs=LARGE_RUNS, points=40),
        cat(yacht[0], yacht[1], "of_a_kind", n=5, points=50),
        cat("chance", "Chance", "sum"),
    )


def boards(categories: tuple[Category, ...], names: str, letters: dict[str, str],
           order: tuple[str, ...] = ()) -> tuple[Category, ...]:
    """The boxes as the original program had them: in ``order`` (category ids; the
    order given when empty), named one character of ``names`` each, with the original's
    letters (category id -> letter) for the boxes that had one."""
    if order:
        by_id = {c.id: c for c in categories}
        categories = tuple(by_id[i] for i in order)
    return tuple(replace(c, board=n, letter=letters.get(c.id, ""))
                 for c, n in zip(categories, names, strict=True))


#: Tommy's Yahtzee: boards 1-9, A-D, Chance (C) before Yahtzee (D), his letters for the
#: lower boards (T, Q, F, S, L, Y)
TOMMY13 = boards(
    classic13(("small_straight", "Small Straight", "large_straight", "Large Straight"),
              ("yahtzee", "Yahtzee"), SPELLED),
    "123456789ABCD",
    {"three_of_a_kind": "t", "four_of_a_kind": "q", "full_house": "f",
     "small_straight": "s", "large_straight": "l", "yahtzee": "y"},
    order=("ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
           "four_of_a_kind", "full_house", "small_straight", "large_straight", "chance",
           "yahtzee"))

ANCIENT5 = upper() + (
    cat("choice", "Choice", "sum"),
    cat("full_house", "Full House", "pattern", counts=(3, 2), points="all"),
    cat("four_of_a_kind", "Four of a Kind", "of_a_kind", n=4, points="all"),
    cat("small_straight", "Small Straight", "straight", runs=SMALL_RUNS, points=15),
    cat("large_straight", "Large Straight", "straight", runs=LARGE_RUNS, points=30),
    cat("yacht", "Yacht", "of_a_kind", n=5, points=50),
)

ANCIENT10 = upper() + (
    cat("choice", "Choice", "sum"),
    cat("double_full_house", "Double Full House", "pattern", counts=(4, 3, 2, 1), points="all"),
    cat("eight_of_a_kind", "Eight of a Kind", "of_a_kind", n=8, points="all"),
    cat("double_small_straight", "Double Small Straight", "straight", runs=SMALL_RUNS, copies=2,
        points=30),
    cat("double_large_straight", "Double Large Straight", "straight", runs=LARGE_RUNS, copies=2,
        points=60),
    cat("double_yacht", "Double Yacht", "of_a_kind", n=10, points=100),
)

ROLLS_OPTION = Option(
    "rolls", "Rolls per turn", ("3", "4", "5"), "5",
    "How many rolls each turn allows (the original's difficulty setting).",
    ("hard", "medium", "easy"), field="rolls",
)

#: Kismet's dice: a face and its opposite (adding up to 7) have one colour
KISMET_COLOURS = ((1, 6), (2, 5), (3, 4))

#: Kismet's card calls its ones "Aces"
KISMET15 = (replace(upper()[0], label="Aces"), *upper()[1:]) + (
    cat("two_pair_same_colour", "2 Pair Same Color", "colour_pairs", pairs=2, points="all",
        colours=KISMET_COLOURS),
    cat("three_of_a_kind", "3 of a Kind", "of_a_kind", n=3, points="all"),
    cat("straight", "Straight", "straight", runs=LARGE_RUNS, points=30),
    cat("flush", "Flush", "colour", points=35, colours=KISMET_COLOURS),
    cat("full_house", "Full House", "pattern", counts=(3, 2), points="all", plus=15,
        yacht=True),
    cat("full_house_same_colour", "Full House Same Color", "pattern", counts=(3, 2),
        points="all", plus=20, yacht=True, colours=KISMET_COLOURS),
    cat("four_of_a_kind", "4 of a Kind", "of_a_kind", n=4, points="all", plus=25),
    cat("yarborough", "Yarborough", "sum"),
    cat("kismet", "Kismet", "of_a_kind", n=5, points="all", plus=50),
)

#: Generala's straights by the ``straight`` option
GENERALA_RUNS = {
    "plain": LARGE_RUNS,
    "ace_high": (*LARGE_RUNS, (3, 4, 5, 6, 1)),
    "any": (*LARGE_RUNS, (3, 4, 5, 6, 1), (4, 5, 6, 1, 2), (5, 6, 1, 2, 3), (6, 1, 2, 3, 4)),
}

GENERALA11 = upper() + (
    cat("escalera", "Escalera", "straight", runs=LARGE_RUNS, points=20),
    cat("full", "Full", "pattern", counts=(3, 2), points=30),
    cat("poker", "Poker", "of_a_kind", n=4, points=40),
    cat("generala", "Generala", "of_a_kind", n=5, points=50),
    cat("doble_generala", "Doble Generala", "of_a_kind", n=5, points=100),
)

MAXI20 = upper() + (
    cat("one_pair", "One Pair", "pairs", pairs=1),
    cat("two_pairs", "Two Pairs", "pairs", pairs=2),
    cat("three_pairs", "Three Pairs", "pattern", counts=(2, 2, 2), points="all"),
    cat("three_of_a_kind", "3 of a Kind", "of_a_kind", n=3, points="matched"),
    cat("four_of_a_kind", "4 of a Kind", "of_a_kind", n=4, points="matched"),
    cat("five_of_a_kind", "5 of a Kind", "of_a_kind", n=5, points="matched"),
    cat("small_straight", "Small Straight", "straight", runs=((1, 2, 3, 4, 5),), points=15),
    cat("large_straight", "Large Straight", "straight", runs=((2, 3, 4, 5, 6),), points=20),
    cat("full_straight", "Full Straight", "straight", runs=((1, 2, 3, 4, 5, 6),), points=21),
    cat("full_house", "Full House", "groups", sizes=(3, 2)),
    cat("villa", "Villa", "groups", sizes=(3, 3)),
    cat("tower", "Tower", "groups", sizes=(4, 2)),
    cat("chance", "Chance", "sum"),
    cat("maxi_yatzy", "Maxi Yatzy", "of_a_kind", n=6, points=100),
)

ANCIENT_ORIGIN = "Ancient Yacht / Ancient Yacht Challenge (1995, Windows 3.1)"
TOMMY_ORIGIN = "Tommy's Yahtzee (1986, DOS)"
BONUS_63 = UpperBonus(63, ">=", 35)

VARIANTS: tuple[Ruleset, ...] = (
    Ruleset(
        id="ancient-yacht", name="Ancient Yacht",
        description="The old game of Yacht: 5 dice, 12 boxes, no bonus.",
        origin=ANCIENT_ORIGIN, dice=5, rolls=3, categories=ANCIENT5,
        aliases=("ancient", "ay"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="ancient-yacht-double", name="Ancient Yacht, two columns",
        description="Ancient Yacht with every box twice; the second column counts double.",
        origin=ANCIENT_ORIGIN, dice=5, rolls=3, categories=ANCIENT5, columns=(1, 2),
        aliases=("ancient-double", "ay2"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="ancient-yacht-10", name="Ancient Yacht Challenge",
        description="Yacht with 10 dice: double straights, 8 of a kind, the double yacht.",
        origin=ANCIENT_ORIGIN, dice=10, rolls=5, categories=ANCIENT10,
        options=(ROLLS_OPTION,), aliases=("challenge", "ancient-10", "ay10"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="ancient-yacht-10-double", name="Ancient Yacht Challenge, two columns",
        description="The 10-dice game with every box twice; the second column counts double.",
        origin=ANCIENT_ORIGIN, dice=10, rolls=5, categories=ANCIENT10, columns=(1, 2),
        options=(ROLLS_OPTION,), aliases=("challenge-double", "ancient-10-double", "ay10x2"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="windows-yacht", name="Windows Yacht",
        description="The 13-box game: 35 bonus at 63 in the upper section.",
        origin="Windows Yacht (1990, Windows)", dice=5, rolls=3,
        categories=classic13(("small_straight", "Small Straight", "large_straight",
                              "Large Straight"), ("yacht", "Yacht"), SPELLED),
        upper_bonus=BONUS_63, aliases=("windows", "wy"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="yatsee", name="Yatsee",
        description="The 13-box game; the 35 bonus needs more than 63.",
        origin="Yatsee (1997, OS/2)", dice=5, rolls=3,
        categories=classic13(("small_straight", "Small Straight", "large_straight",
                              "Large Straight"), ("yatsee", "Yatsee")),
        upper_bonus=UpperBonus(63, ">", 35), aliases=("os2",),
        dice_mark="hold",  # (its manual: a clicked die shows "Hold")
    ),
    Ruleset(
        id="yatcy", name="Yatcy",
        description="The 13-box game with a 30 bonus above 62, and a verdict on your score.",
        origin="Yatcy (1994, Amiga)", dice=5, rolls=3,
        categories=classic13(("short_straight", "Short Straight", "long_straight",
                              "Long Straight"), ("yatcy", "Yatcy"), SPELLED),
        upper_bonus=UpperBonus(62, ">", 30), aliases=("amiga",),
        par=Par(335, "the author's"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="tommys-yahtzee", name="Tommy's Yahtzee",
        description="The 13-box game where the Yahtzee board can be scored again and again.",
        origin=TOMMY_ORIGIN, dice=5, rolls=3,
        categories=TOMMY13,
        upper_bonus=UpperBonus(62, ">", 35), special=(RepeatBox("yahtzee", 50),),
        aliases=("tommy", "tommys"),
        dice_mark="reroll",
    ),
    Ruleset(
        id="tommys-yacht", name="Tommy's Yacht",
        description="12 boards; the first turn keeps rolling for the yacht, at a price.",
        origin=TOMMY_ORIGIN, dice=5, rolls=3,
        categories=boards(upper() + (
            cat("four_of_a_kind", "Four of a Kind", "of_a_kind", n=4, points="all"),
            cat("full_house", "Full House", "pattern", counts=(3, 2), points="all"),
            cat("little_straight", "Little Straight", "straight", runs=((1, 2, 3, 4, 5),),
                points=30),
            cat("big_straight", "Big Straight", "straight", runs=((2, 3, 4, 5, 6),), points=30),
            cat("chance", "Chance", "sum"),
            cat("yacht", "Yacht", "of_a_kind", n=5, points=50),
        ), "12345689ABCD",  # (his board 7 is not used in Yacht)
            {"four_of_a_kind": "q", "full_house": "f", "little_straight": "l", "yacht": "y"}),
        special=(ForcedFirstTurn("yacht", 50, 3, 5, -95),), aliases=("tommy-yacht",),
        dice_mark="reroll",
    ),
    Ruleset(
        id="tommys-crag", name="Tommy's Crag",
        description="3 dice and one re-roll: straights, crag and thirteen.",
        origin=TOMMY_ORIGIN, dice=3, rolls=2,
        categories=boards(upper() + (
            cat("three_of_a_kind", SPELLED[0], "of_a_kind", n=3, points=25),
            cat("low_straight", "Low Straight", "straight", runs=((1, 2, 3),), points=20),
            cat("high_straight", "High Straight", "straight", runs=((4, 5, 6),), points=20),
            cat("odd_straight", "Odd Straight", "straight", runs=((1, 3, 5),), points=20),
            cat("even_straight", "Even Straight", "straight", runs=((2, 4, 6),), points=20),
            cat("crag", "Crag", "total", total=13, pair=True, points=50),
            cat("thirteen", "Thirteen", "total", total=13, points=26),
        ), "123456789ABCD",
            {"three_of_a_kind": "t", "low_straight": "l", "high_straight": "h",
             "odd_straight": "o", "even_straight": "e"}),
        aliases=("crag",),
        dice_mark="reroll",
    ),
    Ruleset(
        id="yahtzee", name="Yahtzee",
        description="Today's official rules: 35 bonus at 63; by default the Yahtzee bonus "
                    "and the Joker.",
        origin="Today's official rules", dice=5, rolls=3,
        categories=classic13(("small_straight", "Small Straight", "large_straight",
                              "Large Straight"), ("yahtzee", "Yahtzee")),
        upper_bonus=BONUS_63, special=(YahtzeeBonusJoker(),),
        options=(
            Option("joker", "Joker rule", ("forced", "free", "none"), "forced",
                   "How an extra Yahtzee may be placed.",
                   ("official: upper box of its face first, then a lower box",
                    "any open box, joker values once that upper box is filled",
                    "no joker")),
            Option("bonus", "Yahtzee bonus", ("on", "off"), "on",
                   "An extra 100 for each further Yahtzee while the box holds 50.",
                   ("+100 per extra Yahtzee", "no bonus")),
        ),
        aliases=("official", "american"),
    ),
    Ruleset(
        id="yatzy", name="Yatzy",
        description="The Scandinavian game: 15 boxes, pairs, 50 bonus at 63.",
        origin="Scandinavian rules", dice=5, rolls=3,
        categories=upper() + (
            cat("one_pair", "One Pair", "pairs", pairs=1),
            cat("two_pairs", "Two Pairs", "pairs", pairs=2),
            cat("three_of_a_kind", "3 of a Kind", "of_a_kind", n=3, points="matched"),
            cat("four_of_a_kind", "4 of a Kind", "of_a_kind", n=4, points="matched"),
            cat("small_straight", "Small Straight", "straight", runs=((1, 2, 3, 4, 5),),
                points=15),
            cat("large_straight", "Large Straight", "straight", runs=((2, 3, 4, 5, 6),),
                points=20),
            cat("full_house", "Full House", "pattern", counts=(3, 2), points="all"),
            cat("chance", "Chance", "sum"),
            cat("yatzy", "Yatzy", "of_a_kind", n=5, points=50),
        ),
        upper_bonus=UpperBonus(63, ">=", 50), aliases=("scandinavian", "nordic"),
    ),
    Ruleset(
        id="sackson-yacht", name="Yacht (Sackson)",
        description="Yacht as in Sid Sackson's A Gamut of Games: 12 boxes, no bonus.",
        origin="Sid Sackson, A Gamut of Games (1969)", dice=5, rolls=3,
        categories=upper() + (
            cat("full_house", "Full House", "pattern", counts=(3, 2), points="all"),
            cat("four_of_a_kind", "Four of a Kind", "of_a_kind", n=4, points="matched"),
            cat("little_straight", "Little Straight", "straight", runs=((1, 2, 3, 4, 5),),
                points=30),
            cat("big_straight", "Big Straight", "straight", runs=((2, 3, 4, 5, 6),), points=30),
            cat("choice", "Choice", "sum"),
            cat("yacht", "Yacht", "of_a_kind", n=5, points=50),
        ),
        aliases=("yacht", "sackson", "gamut"),
    ),
    Ruleset(
        id="kismet", name="Kismet",
        description="Coloured dice: pairs, flushes and full houses of one colour, a bonus "
                    "of 35, 55 or 75 in the Basic section.",
        origin="Kismet (Lakeside Games, 1964)", dice=5, rolls=3, categories=KISMET15,
        upper_bonus=UpperBonus(63, ">=", 35, ((71, 55), (78, 75))),
        special=(PenaltyOnOthers("kismet", "second_kismet"),),
        options=(
            Option("straight", "Straight", ("30", "40"), "30",
                   "What the Straight box scores.",
                   ("the 1964 card", "as GNOME Tali's Colors game"),
                   changes=(("40", (Change("straight", "points", 40),)),)),
            Option("second_kismet", "Second Kismet", ("penalty", "off"), "penalty",
                   "What a further Kismet does to the other players.",
                   ("the others write 0 in their topmost open box", "nothing")),
        ),
        section_names=("Basic", "Kismet"),
        die_colours=("black", "red", "green", "green", "red", "black"),
        aliases=("tali-colors", "colors"),
    ),
    Ruleset(
        id="generala", name="Generala",
        description="The Latin American game: no bonus, more for a box served on the first "
                    "roll, and by default a served Generala wins at once.",
        origin="Latin America (traditional)", dice=5, rolls=3, categories=GENERALA11,
        special=(ServedBonus(("escalera", "full", "poker"), 5, "served_bonus"),
                 NeedsBox("doble_generala", "generala"), ServedWin("generala", "servida")),
        options=(
            Option("servida", "Served Generala", ("win", "points"), "win",
                   "What five of a kind on a turn's first roll does with two or more "
                   "players (alone it always scores).",
                   ("wins the game at once", "scores like any other five of a kind")),
            Option("straight", "Escalera", ("plain", "ace_high", "any"), "plain",
                   "Which five different faces make an escalera.",
                   ("1-2-3-4-5 or 2-3-4-5-6", "also 3-4-5-6-1",
                    "any five different faces (every wrap-around)"),
                   changes=tuple((v, (Change("escalera", "runs", runs),))
                                 for v, runs in GENERALA_RUNS.items())),
            Option("served_bonus", "Served extra", ("5", "10"), "5",
                   "What Escalera, Full and Poker score more when served.",
                   ("25, 35, 45", "30, 40, 50")),
            Option("generala_points", "Generala points", ("50", "60"), "50",
                   "What Generala scores (Doble Generala twice as much).",
                   ("Generala 50, Doble 100", "Generala 60, Doble 120"),
                   changes=(("60", (Change("generala", "points", 60),
                                    Change("doble_generala", "points", 120))),)),
            Option("doble", "Doble Generala", ("on", "off"), "on",
                   "Whether the card has the Doble Generala box.",
                   ("11 boxes", "10 boxes: no Doble Generala"),
                   changes=(("off", (Change("doble_generala", drop=True),)),)),
        ),
        aliases=("generala-argentina",),
    ),
    Ruleset(
        id="maxi-yatzy", name="Maxi Yatzy",
        description="The Scandinavian game with six dice and 20 boxes: by default rolls not "
                    "used are saved for later turns, and the bonus is 100 at 84.",
        origin="Scandinavian rules", dice=6, rolls=3, categories=MAXI20,
        upper_bonus=UpperBonus(84, ">=", 100),
        special=(SavedRolls("saved_rolls"),),
        options=(
            Option("bonus", "Upper bonus", ("100@84", "50@75"), "100@84",
                   "The upper bonus and the total that earns it.",
                   ("100 at 84 or more", "50 at 75 or more"),
                   changes=(("50@75", (Change(bonus=UpperBonus(75, ">=", 50)),)),)),
            Option("saved_rolls", "Saved rolls", ("on", "off"), "on",
                   "Whether rolls not used are saved for later turns.",
                   ("saved in the player's pool", "3 rolls every turn, unused ones lost")),
        ),
        aliases=("maxi", "maxiyatzy", "maxi-yahtzee"),
    ),
)
