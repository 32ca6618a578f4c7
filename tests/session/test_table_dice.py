"""At a table the dice are the server's: a seat's commands choose which dice roll, never
what they show; a table for real dice takes values and marks the game; a game goes on
with its seed wherever it is resumed, and shows its commitment, then its seed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yacht.engine import Choose, GiveBack, Player, Roll, TakeBack, die_face, verify
from yacht.rules import get
from yacht.session.commands import Command, GoOn, ScoreBox, Select, Toggle
from yacht.session.table import LOCAL, Refused, Seat, Table
from yacht.store import open_store

SEED = bytes(range(32))
YATZY = get("yatzy")


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with open_store(str(tmp_path / "dice.sqlite3")) as store:
        yield store


def unchanged(table: Table) -> tuple[Any, ...]:
    st = table._game.state
    view = table.view()
    return (list(st.log), table.version, st.dice, st.chosen, view.dice_entered, view.held)


# --- the property: the dice depend on where they are rolled, nothing else ------------------

POSITIONS = st.integers(0, YATZY.dice - 1)
CHOICES = st.lists(POSITIONS, max_size=5, unique=True).map(tuple)


class ScoreAny:
    """Score in the ``pick``-th box open to the dice (any box the rules allow)."""

    def __init__(self, pick: int) -> None:
        self.pick = pick

    def command(self, table: Table) -> Command:
        places = table._game.state.placements()
        return ScoreBox(places[self.pick % len(places)].category) if places else \
            ScoreBox("chance")


#: what a seat may send: rolls, choices of every kind, Oops, scorings, and dice of its own
#: (always refused at this table); scorings and rolls often enough for games to go on
INTENTS: st.SearchStrategy[Any] = st.one_of(
    st.just(Roll()), st.just(Roll()),
    st.builds(lambda c: (Choose(c), Roll()), CHOICES),
    st.builds(Toggle, POSITIONS),
    st.builds(Select, st.sampled_from(["all", "singlets", "none"])),
    st.builds(Choose, CHOICES),
    st.just(GiveBack()), st.just(TakeBack()), st.just(GoOn()),
    st.builds(ScoreAny, st.integers(0, 20)), st.builds(ScoreAny, st.integers(0, 20)),
    st.builds(Roll, st.lists(st.integers(1, 6), min_size=1, max_size=5).map(tuple)),
    st.builds(lambda r: Roll(r, entered=True),
              st.lists(st.integers(1, 6), min_size=5, max_size=5).map(tuple)),
)


def drive(intents: list[Any], mark: str = "reroll") -> dict[tuple[int, int, int], int]:
    """A table of two people from SEED driven by ``intents`` from the seat, whose clicks
    ``mark`` dice (hold them, or mark them to roll again); every die seen, by (turn,
    roll, position)."""
    table = Table.new(YATZY, [Player("Ann"), Player("Bob")], seed=SEED, speed="instant")
    table.set_prefs(LOCAL, dice_mark=mark)
    seen: dict[tuple[int, int, int], int] = {}
    for intent in intents:
        commands = (intent.command(table),) if isinstance(intent, ScoreAny) else \
            intent if isinstance(intent, tuple) else (intent,)
        state = table._game.state
        before = unchanged(table)
        forged = any(isinstance(c, Roll) and c.result is not None for c in commands)
        try:
            events = table.act(LOCAL, *commands)
        except Refused as refused:
            assert unchanged(table) == before, commands  # refused: nothing changed
            if forged:
                assert refused.code == "illegal" and "rolls the dice itself" in str(refused)
            continue
        assert not forged, commands
        for e in events:
            if e.kind == "rolled":  # (a roll ends its command: no scoring after it)
                assert not e.data["entered"]
                turn = sum(state.turns_taken(i) for i in range(len(state.players)))
                for pos in e.data["positions"]:
                    key = (turn, e.data["rolls"], pos)
                    assert seen.setdefault(key, e.data["dice"][pos]) == e.data["dice"][pos]
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INTENTS, min_size=30, max_size=80),
       st.lists(INTENTS, min_size=30, max_size=80),
       st.sampled_from(["hold", "reroll"]), st.sampled_from(["hold", "reroll"]))
def test_the_dice_a_seat_gets_depend_only_on_which_dice_it_rolls(
        first: list[Command], second: list[Command], mark_a: str, mark_b: str) -> None:
    """... whether its clicks hold dice or mark them to roll again."""
    a = drive([Roll(), *first], mark_a)
    b = drive([*second, Roll()], mark_b)
    both = set(a) & set(b)
    assert {(0, 1, p) for p in range(YATZY.dice)} <= both  # the first roll, at least
    # (two such games share a few turns: 60 examples meet some hundreds of dice)
    assert all(a[k] == b[k] for k in both)
    assert all(face == die_face(SEED, *k, 6) for k, face in a.items())


def test_a_refused_roll_leaves_the_dice_to_come_as_they_were() -> None:
    plain = Table.new(YATZY, [Player("Ann")], seed=SEED)
    tried = Table.new(YATZY, [Player("Ann")], seed=SEED)
    for values in [(6, 6, 6, 6, 6), (1,), (9, 9, 9, 9, 9)]:
        with pytest.raises(Refused):
            tried.act(LOCAL, Roll(values))
    with pytest.raises(Refused):
        tried.act(LOCAL, Choose((0,)), Roll((6,)))  # all or none: the choice is not kept
    assert tried.version == 0 and tried._game.state.log == []
    plain.act(LOCAL, Roll())
    tried.act(LOCAL, Roll())
    assert plain._game.state.dice == tried._game.state.dice


# --- real dice -------------------------------------------------------------------------------

def test_a_table_for_real_dice_takes_values_and_marks_the_game() -> None:
    t = Table.new(YATZY, [Player("Ann"), Player("Cpu", "computer", "random")], seed=SEED,
                  real_dice=True, speed="instant")
    seen: list[Any] = []
    t.subscribe(seen.append)
    assert not t.view().dice_entered and not t.view().apart
    t.act(LOCAL, Roll((6, 6, 6, 6, 6)))
    assert t._game.state.log == [Roll((6, 6, 6, 6, 6), entered=True)]
    assert seen[0].kind == "rolled" and seen[0].data["entered"] is True
    view = t.view()
    assert view.dice_entered and view.apart and not view.assisted
    snap = t.snapshot(LOCAL)
    assert snap["dice_entered"] and not snap["assisted"]
    t.act(LOCAL, ScoreBox("yatzy"), GoOn())
    t.run_due()  # the computer's dice are the table's, even at a table for real dice
    cpu_rolls = [a for a in t._game.state.log[2:] if isinstance(a, Roll)]
    assert cpu_rolls and not any(a.entered for a in cpu_rolls)


def test_actions_already_saved_are_not_commands_and_are_taken() -> None:
    here = Table.new(YATZY, [Player("Ann")], seed=SEED, real_dice=True)
    here.act(LOCAL, Roll((1, 2, 3, 4, 5)))
    there = Table.new(YATZY, [Player("Ann")], seed=SEED)  # no real dice here
    assert [e.kind for e in there.take_up([(0, here._game.state.log)])] == ["rolled"]
    assert there.view().dice_entered and there._game.state.dice == (1, 2, 3, 4, 5)
    again = Table.new(YATZY, [Player("Ann")], seed=SEED)
    again._game.apply_saved(Roll((2, 2, 2, 2, 2), entered=True))
    assert again.view().dice_entered


def test_an_online_seat_cannot_give_dice(db: Any) -> None:
    t = Table.new(YATZY, [Player("Ann"), Player("Bob")], store=db, strict=True,
                  seats=[Seat("ann", frozenset({0})), Seat("bob", frozenset({1}))])
    t.save()
    for cmd in (Roll((6, 6, 6, 6, 6)), Roll((6, 6, 6, 6, 6), entered=True)):
        with pytest.raises(Refused) as refused:
            t.act("ann", cmd)
        assert refused.value.code == "illegal"
    gid = t.view().game_id
    assert gid is not None and db.load_record(gid).actions == []


# --- the seed: kept, shown, revealed --------------------------------------------------------

def test_the_commitment_shows_from_the_start_and_the_seed_at_the_end(db: Any) -> None:
    t = Table.new(get("tommys-crag"), [Player("Ann")], store=db, speed="instant")
    seed = t._game.state.seed
    assert seed is not None
    first = t.snapshot(LOCAL)["dice_seed"]
    assert set(first) == {"scheme", "commitment"}
    while not t.view().over:
        t.act(LOCAL, Roll())
        assert t.snapshot(LOCAL)["dice_seed"] == first  # never the seed during the game
        t.act(LOCAL, ScoreBox(t._game.state.placements()[0].category))
    assert "seed" not in t.snapshot(LOCAL)["dice_seed"]  # over, but a take-back may follow
    t.act(LOCAL, GoOn())
    assert t.view().finished
    assert t.snapshot(LOCAL)["dice_seed"] == {**first, "seed": seed.hex()}
    gid = t.view().game_id
    assert gid is not None
    verdict = verify(db.load_record(gid))
    assert verdict.ok, verdict.line


def test_a_game_made_with_a_generator_shows_no_commitment() -> None:
    t = Table.new(YATZY, [Player("Ann")], rng=random.Random(1))
    assert t.snapshot(LOCAL)["dice_seed"] is None and t._game.state.seed is None


@pytest.mark.parametrize("strict", [False, True])
def test_a_resumed_game_goes_on_with_its_seed(db: Any, strict: bool) -> None:
    a = Table.new(YATZY, [Player("Ann")], store=db, strict=strict, speed="instant")
    a.act(LOCAL, Roll())
    a.act(LOCAL, Select("all"))
    gid = a.view().game_id
    assert gid is not None
    # another process (or the same after a restart) takes the game up from the store
    b = Table.resume(db, gid, strict=strict, speed="instant", rng=random.Random(5))
    assert b._game.state.seed == a._game.state.seed
    assert b.snapshot(LOCAL)["dice_seed"] == a.snapshot(LOCAL)["dice_seed"]
    coming = a._game.state.draw()  # (drawing from a seed changes nothing)
    b.act(LOCAL, Roll())
    assert b._game.state.dice == coming


def test_copies_kept_in_step_share_the_seed(db: Any) -> None:
    a = Table.new(YATZY, [Player("Ann")], store=db, strict=True, speed="instant")
    gid = a.save()
    assert gid is not None
    b = Table.resume(db, gid, strict=True, speed="instant")
    a.act(LOCAL, Roll())
    b.sync()
    b.act(LOCAL, Select("all"), Roll())
    a.sync()
    assert a._game.state.log == b._game.state.log
    b._game.apply_saved(Choose((0,)))  # b goes astray, then takes the stored game up
    assert [e.kind for e in b.sync()] == ["reloaded"]
    assert b._game.state.seed == a._game.state.seed
    a.act(LOCAL, Select("all"), Roll())
    b.sync()
    assert b._game.state.dice == a._game.state.dice
