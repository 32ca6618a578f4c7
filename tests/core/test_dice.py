"""Dice from a committed seed: the construction as docs/VERIFY.md writes it, the state's one
way of drawing, records that carry the commitment, and the verdict of `verify`."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from dataclasses import replace

import pytest

from yacht.engine import (
    SCHEME,
    Choose,
    IllegalAction,
    Player,
    Record,
    RecordError,
    Roll,
    Score,
    SeededDice,
    State,
    TakeBack,
    action_from_json,
    action_to_json,
    die_face,
    random_turn,
    verify,
)
from yacht.rules import get

SEED = bytes(range(32))


def face_from_the_document(seed: bytes, turn: int, roll: int, die: int, faces: int) -> int:
    """The construction written again from docs/VERIFY.md alone, as another program
    would (no code of the engine's)."""
    limit = 256 - 256 % faces
    counter = 0
    while True:
        message = f"yacht-hmac-sha256/1:{turn}:{roll}:{die}:{counter}".encode("ascii")
        for byte in hmac.new(seed, message, hashlib.sha256).digest():
            if byte < limit:
                return byte % faces + 1
        counter += 1


def seeded_game(variant: str = "tommys-crag", players: int = 1, seed: bytes = SEED,
                moves: int = 11) -> State:
    """A whole game drawn from ``seed``, random decisions (keeps, Oops, scorings)."""
    state = State(get(variant), [Player(f"P{i}") for i in range(players)], seed=seed)
    pick = random.Random(moves)
    while not state.is_terminal():
        random_turn(state, pick)
        if state.can_take_back() and pick.random() < 0.2 and not state.is_terminal():
            state.apply(TakeBack())
    return state


def finished_record(state: State) -> Record:
    """The record a store gives of a finished game: the seed revealed."""
    record = Record.from_state(state)
    assert record.dice_seed is not None and state.seed is not None
    record.dice_seed = record.dice_seed.revealed(state.seed)
    return record


# --- the construction ---------------------------------------------------------------------

@pytest.mark.parametrize("faces", [2, 3, 5, 6, 7, 12, 256])
def test_every_face_is_what_the_document_says(faces: int) -> None:
    for turn in (0, 1, 12, 77):
        for roll in (1, 2, 3):
            for die in range(10):
                assert die_face(SEED, turn, roll, die, faces) == \
                    face_from_the_document(SEED, turn, roll, die, faces)


def test_a_byte_above_the_limit_is_passed_over() -> None:
    # the first byte for die 0 of the first roll is 255 (not below 252): the next byte counts
    first = hmac.new(SEED, b"yacht-hmac-sha256/1:0:1:0:0", hashlib.sha256).digest()
    assert first[0] >= 252 and die_face(SEED, 0, 1, 0, 6) == first[1] % 6 + 1


def test_the_faces_come_out_alike() -> None:
    counts = Counter(die_face(SEED, t, r, d, 6) for t in range(200) for r in (1, 2, 3)
                     for d in range(10))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 6,000 dice: each face within 5 standard deviations (about 145) of 1,000
    assert all(abs(n - 1000) < 145 for n in counts.values()), counts


def test_seeds_and_faces_that_cannot_be() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        SeededDice(b"short")
    with pytest.raises(ValueError, match="2-256"):
        die_face(SEED, 0, 1, 0, 1)
    with pytest.raises(ValueError, match="one source"):
        State(get("yatzy"), [Player("Ann")], rng=random.Random(1), seed=SEED)


def test_the_commitment_is_sha256_of_the_seed_and_never_shows_the_seed() -> None:
    dice = SeededDice(SEED)
    assert dice.commitment == hashlib.sha256(SEED).hexdigest()
    assert SEED.hex() not in repr(dice)
    fresh = [SeededDice.new() for _ in range(3)]
    assert len({d.seed for d in fresh}) == 3 and all(len(d.seed) == 32 for d in fresh)


# --- the state ------------------------------------------------------------------------------

def test_a_state_without_a_generator_gets_a_fresh_seed() -> None:
    a = State(get("yatzy"), [Player("Ann")])
    b = State(get("yatzy"), [Player("Ann")])
    assert a.seed is not None and b.seed is not None and a.seed != b.seed
    assert a.commitment is not None and a.commitment.scheme == SCHEME
    assert a.commitment.seed is None  # the state shows its commitment, not its seed
    assert State(get("yatzy"), [Player("Ann")], rng=random.Random(1)).commitment is None


def test_each_die_is_drawn_at_its_turn_roll_and_position() -> None:
    s = State(get("yatzy"), [Player("Ann"), Player("Bob")], seed=SEED)
    assert s.roll_index() == (0, 1)
    s.apply(Roll())
    assert s.dice == tuple(die_face(SEED, 0, 1, d, 6) for d in range(5))
    s.apply(Choose((1, 3)))
    s.apply(Roll())
    assert (s.dice[1], s.dice[3]) == (die_face(SEED, 0, 2, 1, 6), die_face(SEED, 0, 2, 3, 6))
    s.apply(Score(s.placements()[0].category))
    assert s.roll_index() == (1, 1)  # Bob's first roll: turn 1 of the whole game
    s.apply(Roll())
    assert s.dice == tuple(die_face(SEED, 1, 1, d, 6) for d in range(5))


def test_a_score_taken_back_and_made_again_keeps_the_dice_to_come() -> None:
    straight = State(get("yatzy"), [Player("Ann")], seed=SEED)
    straight.apply(Roll())
    oops = straight.clone()
    straight.apply(Score("chance"))
    straight.apply(Roll())
    oops.apply(Score("ones"))
    oops.apply(TakeBack())
    oops.apply(Score("twos"))  # another box: the next turn is turn 1 all the same
    oops.apply(Roll())
    assert oops.dice == straight.dice


def test_copies_keep_the_seed_and_reading_copies_cannot_roll() -> None:
    s = State(get("yatzy"), [Player("Ann")], seed=SEED)
    assert s.clone().seed == SEED
    reading = s.clone(rng=False)
    with pytest.raises(IllegalAction, match="copy for reading"):
        reading.apply(Roll())
    assert reading.log == [] and s.clone().draw() == s.draw()  # drawing changes nothing


def test_a_generator_still_rolls_as_it_did() -> None:
    s = State(get("yatzy"), [Player("Ann")], rng=random.Random(4))
    s.apply(Roll())
    again = random.Random(4)
    assert s.dice == tuple(again.randint(1, 6) for _ in range(5))


# --- entered dice and records ----------------------------------------------------------------

def test_entered_rolls_are_marked_in_the_log_and_the_record() -> None:
    s = State(get("yatzy"), [Player("Ann")], seed=SEED)
    with pytest.raises(IllegalAction, match="needs the values"):
        s.apply(Roll(None, entered=True))
    s.apply(Roll((6, 6, 6, 6, 6), entered=True))
    assert s.dice_entered and s.log == [Roll((6, 6, 6, 6, 6), entered=True)]
    assert action_to_json(s.log[0]) == {"type": "roll", "result": [6] * 5, "entered": True}
    assert action_from_json(action_to_json(s.log[0])) == s.log[0]
    assert action_to_json(Roll((1, 2))) == {"type": "roll", "result": [1, 2]}
    with pytest.raises(ValueError, match="entered"):
        action_from_json({"type": "roll", "result": [1], "entered": "yes"})
    record = Record.loads(Record.from_state(s).dumps())
    assert record.dice_entered and record.dice_seed == s.commitment


def test_a_record_carries_the_commitment_and_reads_it_back() -> None:
    state = seeded_game()
    record = finished_record(state)
    again = Record.loads(record.dumps())
    assert again.dice_seed == record.dice_seed and again.dice_seed.seed == SEED.hex()
    assert "dice_seed" not in Record.from_state(State(get("yatzy"), [Player("Ann")],
                                                      rng=random.Random(1))).to_json()
    bad = record.to_json()
    bad["dice_seed"] = {"scheme": SCHEME}
    with pytest.raises(RecordError, match="commitment"):
        Record.from_json(bad)


# --- verify ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), [("tommys-crag", 1), ("yatzy", 3),
                                                  ("yahtzee", 2), ("ancient-yacht-10", 1)])
def test_every_finished_game_verifies(variant: str, players: int) -> None:
    state = seeded_game(variant, players)
    verdict = verify(finished_record(state))
    rolls = sum(1 for a in state.log if isinstance(a, Roll))
    assert verdict.ok and verdict.code == "verified" and verdict.rolls == rolls
    assert verdict.line.startswith(f"verified: all {verdict.dice} dice of the {rolls} rolls")
    assert verdict.to_json()["commitment"] == hashlib.sha256(SEED).hexdigest()


def test_one_die_changed_fails_and_says_where() -> None:
    record = finished_record(seeded_game("yatzy"))
    rolls = [i for i, a in enumerate(record.actions) if isinstance(a, Roll)]
    i = rolls[len(rolls) // 2]
    roll = record.actions[i]
    assert isinstance(roll, Roll) and roll.result is not None
    changed = (roll.result[0] % 6 + 1, *roll.result[1:])
    record.actions[i] = Roll(changed)
    verdict = verify(record)
    assert not verdict.ok and verdict.code == "mismatch" and verdict.action == i + 1
    assert verdict.line.startswith(f"not verified: action {i + 1} (roll ")
    assert " ".join(map(str, changed)) in verdict.line


def test_a_wrong_seed_fails() -> None:
    record = finished_record(seeded_game())
    assert record.dice_seed is not None
    other = bytes(31) + b"\x01"
    record.dice_seed = replace(record.dice_seed, seed=other.hex())
    verdict = verify(record)
    assert not verdict.ok and verdict.code == "bad_seed"
    assert "does not match its commitment" in verdict.line
    record.dice_seed = replace(record.dice_seed, seed="not hex")
    assert verify(record).code == "bad_seed"


def test_what_cannot_be_verified_says_why() -> None:
    state = seeded_game()
    record = Record.from_state(state)
    assert verify(record).code == "unrevealed"  # finished, but the seed not shown
    no_seed = Record.from_state(state)
    no_seed.dice_seed = None
    assert verify(no_seed).code == "no_seed"
    assert "no committed seed" in verify(no_seed).line
    half = finished_record(state)
    half.actions = half.actions[:5]
    assert verify(half).code == "unfinished"
    other = finished_record(state)
    assert other.dice_seed is not None
    other.dice_seed = replace(other.dice_seed, scheme="dice-by-hand/9")
    assert verify(other).code == "unknown_scheme"
    broken = finished_record(state)
    broken.actions.insert(0, Score("chance"))
    assert verify(broken).code == "unplayable" and verify(broken).action == 1


def test_dice_entered_by_hand_are_not_verified() -> None:
    s = State(get("tommys-crag"), [Player("Ann")], seed=SEED)
    while not s.is_terminal():
        s.apply(Roll((6, 6, 1), entered=True) if s.turns_taken(0) == 4 else Roll())
        s.apply(Score(s.placements()[0].category))
    verdict = verify(finished_record(s))
    assert not verdict.ok and verdict.code == "entered" and verdict.action == 9
    assert "entered by hand" in verdict.line
