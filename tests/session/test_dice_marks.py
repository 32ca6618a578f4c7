"""What a click on a die means: each variant's own way (its ruleset's ``dice_mark``), and
a seat's choice. Holding, the held dice are the table's between commands, and saved as
the engine's choice of the other dice (a quit or a kill keeps them); a roll is the choice
of every die not held and its roll, in one step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from yacht.engine import Choose, GiveBack, Player, Roll, TakeBack
from yacht.rules import all_variants, get
from yacht.session import Config, load_config, save_config
from yacht.session.commands import ScoreBox, Select, Toggle
from yacht.session.present import BROWSER, TERMINAL
from yacht.session.table import LOCAL, Event, Refused, Seat, Table

#: each seed program's way, from its manual (RULES.md for the modern games): a clicked
#: die rolls again in Ancient Yacht, Windows Yacht, Yatcy and Tommy's; Yatsee shows
#: "Hold" on it, and so do today's Yahtzee apps
SEEDS = {"ancient-yacht": "reroll", "ancient-yacht-double": "reroll",
         "ancient-yacht-10": "reroll", "ancient-yacht-10-double": "reroll",
         "windows-yacht": "reroll", "yatcy": "reroll", "tommys-yahtzee": "reroll",
         "tommys-yacht": "reroll", "tommys-crag": "reroll", "yatsee": "hold",
         "yahtzee": "hold", "yatzy": "hold", "sackson-yacht": "hold",
         "kismet": "hold", "generala": "hold", "maxi-yatzy": "hold"}  # (as today's apps)


def test_each_variant_clicks_dice_as_its_seed_program_did() -> None:
    assert {rs.id: rs.dice_mark for rs in all_variants()} == SEEDS
    # how the dice are shown is no rule of the game: the same game either way
    yatsee = get("yatsee")
    import dataclasses

    other = dataclasses.replace(yatsee, dice_mark="reroll")
    assert other == yatsee and hash(other) == hash(yatsee)


def holding(variant: str = "yatzy", players: int = 1, **kw: Any) -> Table:
    people = [Player("Ann"), Player("Bob")][:players]
    t = Table.new(get(variant), people, real_dice=True, **kw)
    t.set_prefs(LOCAL, dice_mark="hold")
    return t


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def last_roll(t: Table) -> tuple[Any, tuple[int, ...] | None]:
    """The record's last roll and the action before it: the choice, and the values of the
    roll after it (the holds kept for the next roll may be saved after it)."""
    log = t.actions_since(0)
    i = max(i for i, a in enumerate(log) if isinstance(a, Roll))
    roll = log[i]
    assert isinstance(roll, Roll)
    return log[i - 1], roll.result


def test_holding_a_die_is_the_tables_and_a_roll_rolls_the_others() -> None:
    t = holding()
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    log, version = t.actions_since(0), t.version
    events = t.act(LOCAL, Toggle(0))
    t.act(LOCAL, Toggle(1))
    assert kinds(events) == ["chosen", "held"] and events[-1].data["held"] == [0]
    # saved as the engine's choice of the other dice (a quit or a kill keeps the holds)
    assert t.actions_since(0) == [*log, Choose((1, 2, 3, 4)), Choose((2, 3, 4))]
    assert t.view().state.chosen == {2, 3, 4}
    assert t.version == version + 2  # (a command sent before a hold is stale)
    snap = t.snapshot(LOCAL, BROWSER)
    assert (snap["dice_mark"], snap["marks"], snap["to_roll"]) == \
        ("hold", ["held", "held", "", "", ""], [2, 3, 4])
    assert snap["can"]["roll"] and snap["can"]["give_back"]
    assert snap["help"].startswith("Roll: roll the 3 dice not held - or score")
    t.act(LOCAL, Roll((5, 5, 5)))
    # the record says which dice rolled again, as it always did
    assert last_roll(t) == (Choose((2, 3, 4)), (5, 5, 5))
    assert t.view().state.dice == (6, 6, 5, 5, 5)
    # the holds stay on the dice for the turn's next roll...
    assert t.view().held == frozenset({0, 1})
    assert t.snapshot(LOCAL)["marks"] == ["held", "held", "", "", ""]
    t.act(LOCAL, Toggle(1))
    t.act(LOCAL, Roll((4, 4, 4, 4)))
    assert last_roll(t) == (Choose((1, 2, 3, 4)), (4, 4, 4, 4))
    # ... and go with the turn
    t.act(LOCAL, ScoreBox("chance"))
    assert t.view().held is None
    t.act(LOCAL, Roll((1, 2, 3, 4, 5)))
    assert t.snapshot(LOCAL)["marks"] == [""] * 5


def test_holding_nothing_rolls_every_die_and_holding_everything_cannot_roll() -> None:
    t = holding()
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    assert t.snapshot(LOCAL)["to_roll"] == [0, 1, 2, 3, 4]
    t.act(LOCAL, Select("all"))
    snap = t.snapshot(LOCAL, TERMINAL)
    assert snap["marks"] == ["held"] * 5 and not snap["can"]["roll"]
    assert snap["help"].startswith("Every die is held")
    version = t.version
    with pytest.raises(Refused, match="every die is held"):
        t.act(LOCAL, Roll())
    assert t.version == version and t.view().held == frozenset(range(5))
    t.act(LOCAL, Select("none"))
    t.act(LOCAL, Roll((1, 1, 1, 1, 1)))
    assert last_roll(t) == (Choose((0, 1, 2, 3, 4)), (1, 1, 1, 1, 1))


def test_singlets_and_give_back_in_the_terms_of_holding() -> None:
    t = holding()
    t.act(LOCAL, Roll((2, 2, 5, 6, 2)))
    t.act(LOCAL, Select("singlets"))  # the singlets roll again: the rest is held
    assert t.view().held == frozenset({0, 1, 4})
    t.act(LOCAL, GiveBack())  # Oops: hold none (nothing to give back in the record)
    assert t.view().held is None and t.snapshot(LOCAL)["marks"] == [""] * 5
    assert not t.snapshot(LOCAL)["can"]["give_back"]
    with pytest.raises(Refused, match="no die is held"):
        t.act(LOCAL, GiveBack())
    t.act(LOCAL, Roll((3, 3, 3, 3, 3)))
    t.act(LOCAL, Roll((4, 4, 4, 4, 4)))  # the last roll: nothing to hold any more
    with pytest.raises(Refused, match="no roll left"):
        t.act(LOCAL, Toggle(0))


def test_a_choice_in_the_notation_is_taken_as_it_is() -> None:
    """A move of the hint (choose, then roll) or the line game's "choose 1,3": the dice it
    does not choose are held, and the roll rolls what it chose."""
    t = holding()
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0))
    t.act(LOCAL, Choose((2, 3)))
    assert t.snapshot(LOCAL)["marks"] == ["held", "held", "", "", "held"]
    t.act(LOCAL, Roll((5, 5)))
    assert last_roll(t) == (Choose((2, 3)), (5, 5))
    assert t.view().held == frozenset({0, 1, 4})


def test_a_take_back_gives_back_the_holds_of_its_turn() -> None:
    t = holding()
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0), Toggle(1))
    t.act(LOCAL, ScoreBox("sixes"))
    t.act(LOCAL, TakeBack())
    assert t.view().held == frozenset({0, 1})


def test_refused_commands_leave_the_holds() -> None:
    t = holding()
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    t.act(LOCAL, Toggle(0))
    before = (t.version, t.view().held)
    with pytest.raises(Refused):
        t.act(LOCAL, Toggle(1), Toggle(7))  # all or none
    with pytest.raises(Refused):
        t.act(LOCAL, Roll((1, 2, 3)))  # four dice roll, not three
    assert (t.version, t.view().held) == before


def test_each_seat_sees_the_dice_its_own_way() -> None:
    """Ann holds; Bob (another browser) marks dice to roll again; a watcher sees the
    variant's way. The same dice, each seat's words and marks."""
    t = Table.new(get("yatzy"), [Player("Ann"), Player("Bob")], real_dice=True,
                  seats=[Seat("a", frozenset({0})), Seat("b", frozenset({1}))])
    t.set_prefs("a", dice_mark="hold")
    t.set_prefs("b", dice_mark="reroll")
    t.act("a", Roll((6, 6, 1, 2, 3)))
    t.act("a", Toggle(0), Toggle(1))
    ann, bob, watcher = (t.snapshot(s, BROWSER) for s in ("a", "b", None))
    assert ann["marks"] == watcher["marks"] == ["held", "held", "", "", ""]
    assert bob["marks"] == ["", "", "roll", "roll", "roll"]
    assert watcher["dice_mark"] == "hold" and bob["dice_mark"] == "reroll"
    assert ann["to_roll"] == bob["to_roll"] == [2, 3, 4]
    assert ann["help"] == watcher["help"] == \
        "Roll: roll the 3 dice not held - or score: choose a box on your card."
    assert bob["help"] == "Roll: roll the 3 chosen dice - or score: choose a box on your card."


def test_a_seat_marks_dice_to_roll_again_until_it_says_otherwise() -> None:
    """The notation's way (the line game, `yacht resume --action`): a table's seats mark
    dice to roll again unless their interface says; "variant" is the variant's way."""
    t = Table.new(get("yahtzee"), [Player("Ann")], real_dice=True)
    assert t.prefs(LOCAL).dice_mark == "reroll"
    t.act(LOCAL, Roll((6, 6, 1, 2, 3)))
    with pytest.raises(Refused, match="choose at least one die"):
        t.act(LOCAL, Roll())
    version = t.version
    assert kinds(t.set_prefs(LOCAL, dice_mark="variant")) == ["seat_prefs"]
    # (the game is as it was: no new version, another seat's command is not stale)
    assert t.prefs(LOCAL).dice_mark == "hold" and t.version == version
    assert t.set_prefs(LOCAL, dice_mark="hold") == []  # nothing changed: no event
    t.act(LOCAL, Toggle(0), version=version)
    assert t.view().held == {0}
    with pytest.raises(ValueError, match="accepted: hold, reroll, variant"):
        t.set_prefs(LOCAL, dice_mark="sideways")
    t.set_prefs(LOCAL, dice_mark="variant")
    crag = Table.new(get("tommys-crag"), [Player("Ann")])
    crag.set_prefs(LOCAL, dice_mark="variant")
    assert crag.prefs(LOCAL).dice_mark == "reroll"


def test_the_setting_is_remembered() -> None:
    assert (Config().dice_mark, Config().computer_pause) == ("variant", True)
    save_config(Config(dice_mark="hold", computer_pause=False))
    got = load_config()
    assert (got.dice_mark, got.computer_pause) == ("hold", False)
    assert Config.from_json({"dice_mark": "up", "computer_pause": "no"}).dice_mark == "variant"
    assert Config.from_json({"computer_pause": "no"}).computer_pause is True


# --- item 20: the pause after a person's score, before a computer plays --------------------

def ann_and_cpu(store: Any, factory: Any) -> Table:
    return Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
                     store=store, rng=random.Random(2), strategy_factory=factory,
                     speed="instant", real_dice=True)


def test_without_the_pause_the_game_goes_on_after_a_moment(store: Any, factory: Any) -> None:
    from yacht.session.table import MOMENT

    t = ann_and_cpu(store, factory)
    t.set_prefs(LOCAL, pause=False)
    t.act(LOCAL, Roll((6, 6, 1)))
    events = t.act(LOCAL, ScoreBox("sixes"))
    assert "paused" not in kinds(events) and t.view().pause is None
    assert events[-1].kind == "went_on" and events[-1].data["at_once"]
    due = t.due()
    assert due is not None and due.kind == "computer"
    assert due.at - t._changed_at >= MOMENT  # a moment, even at the instant speed
    # meanwhile Oops still takes the score back
    snap = t.snapshot(LOCAL)
    assert snap["can"]["take_back"] and not snap["can"]["go_on"]
    assert snap["help"] == "Cpu is playing. Oops takes back Ann's score until Cpu rolls."
    t.act(LOCAL, TakeBack())
    assert (t.view().state.current, t.view().state.dice) == (0, (6, 6, 1))
    t.act(LOCAL, ScoreBox("sixes"))
    t.run_due()  # the computer rolls: too late now
    with pytest.raises(Refused):
        t.act(LOCAL, TakeBack())


def test_with_the_pause_the_computer_waits_for_go_on(store: Any, factory: Any) -> None:
    t = ann_and_cpu(store, factory)
    assert t.prefs(LOCAL).pause
    t.act(LOCAL, Roll((6, 6, 1)))
    assert "paused" in kinds(t.act(LOCAL, ScoreBox("sixes")))
    assert t.view().pause == "next_player" and t.due() is None


def test_another_process_goes_on_with_the_seat_that_did_not_pause(tmp_path: Any,
                                                                  factory: Any) -> None:
    """Two copies of a table (two server processes): the copy that takes up the score
    pauses, as a table does by default, and leaves the pause as the news of the
    ``went_on`` says (the cluster tells it): the computer is not held up there."""
    from yacht.store import open_store

    with open_store(str(tmp_path / "two.sqlite3")) as db:
        a = Table.new(get("tommys-crag"), [Player("Ann"), Player("Cpu", "computer", "random")],
                      store=db, rng=random.Random(1), strategy_factory=factory, strict=True,
                      speed="instant", real_dice=True)
        gid = a.save()
        assert gid is not None
        b = Table.resume(db, gid, strategy_factory=factory, strict=True, speed="instant")
        a.set_prefs(LOCAL, pause=False)
        a.act(LOCAL, Roll((6, 6, 1)))
        told = [e for e in a.act(LOCAL, ScoreBox("sixes")) if e.kind == "went_on"]
        assert a.view().pause is None and told[0].data["pause"] == "next_player"
        b.sync()
        assert b.view().pause == "next_player"
        assert [e.kind for e in b.remote_go_on("next_player")] == ["went_on"]
        assert b.due() is not None and b.due().kind == "computer"  # type: ignore[union-attr]


def test_a_computers_keep_in_the_news_shows_coloured_dice_with_their_marks() -> None:
    """Kismet: "Cy keeps 2◆ 2◆" as the line game and the analysis write the dice (the
    terminal's news said "Cy keeps 2 2", the colours lost); plain dice stay plain."""
    for variant, marked in (("kismet", True), ("yatzy", False)):
        t = Table.new(get(variant), [Player("Cy", "computer", "beginner")],
                      rng=random.Random(5), speed="instant")
        events: list[Event] = []
        t.subscribe(events.append)
        t.run_due(until=lambda ev=events: any(e.kind == "chosen" for e in ev))
        keep = next(e for e in events if e.kind == "chosen")
        assert keep.text.startswith("Cy keeps ") and keep.text != "Cy keeps nothing"
        words = keep.text.removeprefix("Cy keeps ").split()
        assert all((w[-1] in "●◆■") == marked for w in words), keep.text
