"""The table's main button (Roll / Roll again / Score a box / Go on ...): one rule in
the table (``session.present.main_button``), its words per interface; each seat sees
its own (issue 22, item 22)."""

from __future__ import annotations

from yacht.engine import Player, Roll, Score
from yacht.rules import get
from yacht.session.commands import GoOn, Toggle
from yacht.session.present import BROWSER, TERMINAL
from yacht.session.table import Seat, Table


def button(t: Table, seat: str | None, words: object = BROWSER) -> tuple[str, bool]:
    b = t.snapshot(seat, words)["button"]
    return b["label"], b["enabled"]


def two_seats(variant: str = "yatzy") -> Table:
    return Table.new(get(variant), [Player("Ann"), Player("Bob"),
                                    Player("Max", "computer", "expert")], real_dice=True,
                     seats=[Seat("a", frozenset({0})), Seat("b", frozenset({1})),
                            Seat("w", frozenset())])


def test_each_seat_sees_its_own_button_through_a_turn() -> None:
    t = two_seats()
    assert button(t, "a") == ("Roll", True)
    assert button(t, "b") == ("Ann's turn", False)
    assert button(t, "w") == button(t, None) == ("Ann's turn", False)
    t.act("a", Roll((6, 6, 1, 2, 3)))
    assert button(t, "a") == ("Roll again", True)
    t.set_prefs("a", dice_mark="hold")
    t.act("a", Toggle(0))
    t.act("a", Toggle(1))
    assert button(t, "a") == ("Roll 3 dice", True)  # the dice not held
    t.set_prefs("a", dice_mark="reroll")
    assert button(t, "a") == ("Roll 3 dice", True)  # the same dice, marked to roll
    t.act("a", Roll((5, 5, 5)))
    t.act("a", Toggle(4))
    t.act("a", Roll((3,)))
    assert button(t, "a") == ("Score a box", False)  # no roll left
    assert button(t, "b") == ("Ann's turn", False)
    t.act("a", Score(t.view().state.placements()[0].category))
    assert button(t, "b") == ("Roll", True)
    assert button(t, "a") == ("Bob's turn", False)


def test_a_computers_turn_the_pause_and_the_end_in_each_interfaces_words() -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann"), Player("Max", "computer", "expert")],
                  real_dice=True)
    t.act("local", Roll((1, 2, 3)))
    t.act("local", Score(t.view().state.placements()[0].category))
    assert t.view().pause is not None
    assert button(t, "local", BROWSER) == ("Go on", True)
    assert button(t, "local", TERMINAL) == ("Next player", True)
    t.act("local", GoOn())
    assert button(t, "local", BROWSER) == ("Max is playing", False)
    assert button(t, "local", TERMINAL) == ("Computer plays", False)
    while not t.view().over:
        view = t.view()
        if view.pause is not None:
            t.act("local", GoOn())
        elif view.computer_turn:
            t.run_due()
        else:
            t.act("local", Roll())
            t.act("local", Score(t.view().state.placements()[0].category))
    assert button(t, "local", BROWSER) == ("See the results", True)  # the last pause
    assert button(t, "local", TERMINAL) == ("See results", True)
    t.act("local", GoOn())
    assert t.view().pause is None
    assert button(t, "local", BROWSER) == ("Game over", False)
    assert button(t, "local", TERMINAL) == ("See results", True)
