"""What a Python user who read only the README and the API.md files trips on: reprs
one can read, and wrong input refused with one line of a yacht.YachtError, never a
bare TypeError, IndexError, AttributeError or numpy's error (found using the package
as such a user, notes/s20/qa-python.md)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import yacht
from yacht.engine import IllegalAction, Player, Record, RecordError, State, verify
from yacht.rules import get
from yacht.strategy import make_player, play_turn
from yacht.strategy.analysis import analyse
from yacht.strategy.api import Chances, Distribution, Situation, SolvedVariant


@pytest.fixture(scope="module")
def crag() -> Any:
    return yacht.solve("tommys-crag")


def finished_game() -> State:
    s = State(get("tommys-crag"), [Player("Cpu", "computer", "expert")], rng=random.Random(1))
    expert = make_player(s.ruleset, "expert")
    while not s.is_terminal():
        play_turn(s, expert)
    return s


def test_reprs_are_short_and_say_what_they_hold(crag: Any) -> None:
    # the dataclass reprs wrote out the whole Ruleset, every chance or every total
    s = crag.situation("621 r1 crag=50")
    assert repr(s) == "<Situation tommys-crag: 621 r1 crag=50>"
    y = yacht.solve("yahtzee", joker="free")
    assert repr(y.situation("13356 r2 ones=3")) == \
        "<Situation yahtzee joker=free,bonus=on: 13356 r2 ones=3>"
    c = Chances(10, np.array([0.25, 0.0, 0.75]))
    assert repr(c) == "<Chances 10-12: mean 11.50, std 0.87>"
    d = Distribution(np.array([10, 20, 30]), seed=0)
    assert repr(d) == "<Distribution of 3 games: mean 20.00, std 10.00, 10-30>"
    b = crag.batch(["621 r1 crag=50", "333 r0"])
    assert repr(b).startswith("<Batch of 2 situations (final totals): ")
    assert len(repr(crag.chances(s))) < 80
    a = analyse(Record.from_state(finished_game()))
    assert repr(a).startswith("<Analysis of a game of tommys-crag, finished: Cpu ")
    assert len(repr(a)) < 120
    # the hint: both rankings were written out whole (7,000 characters)
    from yacht.engine import Player, Roll, State
    from yacht.strategy.advisor import hint

    game = State(crag.ruleset, [Player("Ann")])
    game.apply(Roll((6, 2, 1)))
    h = hint(game, target=150, build=True)
    assert repr(h).startswith("<Hint 20 options, best for the score ")
    assert "to win: <WinRanking to reach 150: 20 options, best " in repr(h)
    assert len(repr(h)) < 200


def test_percentiles_and_points_refuse_what_is_no_number(crag: Any) -> None:
    d = crag.simulate(20, seed=1)
    c = crag.chances(None)
    for bad in (101, -1):
        with pytest.raises(yacht.YachtError, match="a percentile is from 0 to 100"):
            d.percentile(bad)  # (numpy's ValueError before)
    for dist in (d, c):
        with pytest.raises(yacht.YachtError, match="a percentile must be a number, not '5'"):
            dist.percentile("5")  # (numpy's or Python's TypeError before)
        with pytest.raises(yacht.YachtError, match="points must be a number, not '5'"):
            dist.chance_at_least("5")
        with pytest.raises(yacht.YachtError, match="a percentile must be a number"):
            dist.percentile(float("nan"))
    assert d.percentile(np.float32(50)) == d.percentile(50)
    assert c.chance_at_least(np.int64(0)) == 1.0  # (0.9999999999999998 before)
    assert c.chance_at_least(c.lo) == 1.0


def test_a_batch_refuses_a_situation_it_does_not_hold(crag: Any) -> None:
    b = crag.batch(["621 r1 crag=50", "333 r0"])
    assert b.options(-1) == b.options(1)
    with pytest.raises(yacht.YachtError, match=r"no situation 2: the batch holds 2 \(0-1\)"):
        b.options(2)  # (numpy's IndexError before)
    with pytest.raises(yacht.YachtError, match="a situation's index must be a whole number"):
        b.options("1")


def test_solve_refuses_options_that_are_no_mapping() -> None:
    with pytest.raises(yacht.YachtError, match="the options are a mapping") as e:
        yacht.solve("yahtzee", ["joker"])  # type: ignore[arg-type]
    assert isinstance(e.value, ValueError)


def test_a_finished_game_has_no_turn_to_play_or_decide() -> None:
    s = finished_game()
    rs = s.ruleset
    with pytest.raises(IllegalAction, match="the game is over"):
        play_turn(s, make_player(rs, "expert"))  # (did nothing, silently)
    for level in ("random", "beginner", "intermediate"):
        # random: IndexError from random.choice; the others said "roll first"
        with pytest.raises(yacht.YachtError, match="the game is over"):
            make_player(rs, level).decide(s)
    fresh = State(rs, [Player("Ann")], rng=random.Random(1))
    with pytest.raises(yacht.YachtError, match="no dice are showing: roll first"):
        make_player(rs, "random").decide(fresh)
    with pytest.raises(yacht.YachtError, match="not str"):
        play_turn("game", make_player(rs, "random"))  # type: ignore[arg-type]


def test_records_and_analysis_refuse_what_is_no_game() -> None:
    # (AttributeError: 'str' object has no attribute 'ruleset' / 'new_state' before)
    with pytest.raises(RecordError, match=r"made from a game \(yacht.engine.State\), not str"):
        Record.from_state("game")  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="analyse reads a game's record"):
        analyse("game.json")  # type: ignore[arg-type]


def test_win_chances_alone_and_of_no_list(crag: Any) -> None:
    game = State(crag.ruleset, [Player("Ann")], rng=random.Random(1))
    assert crag.win_chances(game) == [1.0]  # (0.9999999999999998 before)
    assert crag.win_chances(["621 r1"]) == [1.0]
    with pytest.raises(yacht.YachtError, match="a list of situations, one a player, not int"):
        crag.win_chances(5)  # (list(5): a bare TypeError before)


def test_the_turns_of_a_card_are_counted_in_good_english(crag: Any) -> None:
    with pytest.raises(yacht.YachtError, match="this card is 0 turns into the game at most"):
        crag.situation("621 r1 t1")
    y = yacht.solve("yahtzee")
    with pytest.raises(yacht.YachtError, match="this card is 1 turn into the game at most, not 5"):
        y.situation("13356 r2 t5 ones=3")  # ("1 turns" before)
    card = y.ruleset.new_card().with_box(0, 0, 3)
    with pytest.raises(yacht.YachtError, match="1 box is filled, so at least 1 turn was taken"):
        y.situation(dice=(1, 3, 3, 5, 6), rolls_left=2, card=card, turn=0)


def test_dice_as_a_numpy_array(crag: Any) -> None:
    # the docs take numpy's integers; the hint said Sequence[int] (mypy --strict refused
    # an array) and a text with dice= compared the array to () (numpy's ValueError)
    y: SolvedVariant = crag  # (typed: mypy --strict checks the calls below)
    dice = np.array([6, 2, 1])
    assert str(y.situation(dice=dice, rolls_left=1)) == "621 r1"
    assert str(Situation.of(y.ruleset, dice=dice, rolls_left=0)) == "621 r0"
    with pytest.raises(yacht.YachtError, match="not both"):
        y.situation("621 r1", dice=dice)


def test_a_records_repr_is_one_short_line() -> None:
    # (the dataclass's repr listed every action: thousands of characters a game)
    r = Record.from_state(finished_game())
    r.created = "2026-12-06T10:00:00+00:00"
    assert repr(r) == f"<Record tommys-crag (Cpu): {len(r.actions)} actions, " \
                      f"created 2026-12-06T10:00:00+00:00>"
    y = Record("yahtzee", {"joker": "free"}, [Player("Ann"), Player("Bob")], created="x")
    assert repr(y) == "<Record yahtzee joker=free (Ann, Bob): 0 actions, created x>"


def test_every_name_the_docs_import_is_there_and_exported() -> None:
    # (solver.target's is_ready, imported by API.md, was missing from its __all__)
    import importlib
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    wrong = []
    for doc in ("README.md", "src/yacht/strategy/solver/API.md"):
        text = (root / doc).read_text(encoding="utf-8")
        for m in re.finditer(r"^\s*from (yacht[\w.]*) import \(?([\w ,\n]+?)\)?\s*$", text,
                             re.M):
            module = importlib.import_module(m.group(1))
            for name in (n.strip() for n in m.group(2).replace("\n", " ").split(",")):
                if name and not (hasattr(module, name)
                                 and name in getattr(module, "__all__", [name])):
                    wrong.append(f"{doc}: {m.group(1)}.{name}")
    assert not wrong


def test_the_functions_under_yacht_solve_say_they_take_a_ruleset_or_a_game() -> None:
    # each of these was an AttributeError ('str' object has no attribute 'key', 'dice',
    # 'filled', 'split', 'boxes', 'complete', 'is_terminal'): API.md says only yacht.solve
    # takes a variant's name, and a user passing one anyway is told so in one line
    from yacht.strategy import prepare, ready
    from yacht.strategy.advisor import advise, advise_card, card_text, hint, parse_card
    from yacht.strategy.champion import rank_to_win
    from yacht.strategy.solver import solve
    from yacht.strategy.solver.dist import distributions
    from yacht.strategy.solver.target import target_table

    rs = get("tommys-crag")
    name: Any = "yatzy"  # (what mypy would refuse: the point is what a program gets)
    game: Any = "game"
    takes_a_ruleset: list[Callable[[], object]] = [
        lambda: solve(name), lambda: ready("expert", name),
        lambda: prepare("expert", name), lambda: target_table(name, 150),
        lambda: distributions(name), lambda: parse_card(name, "ones=1"),
        lambda: advise_card(name, rs.new_card(), 0, (6, 2, 1), 1)]
    for call in takes_a_ruleset:
        with pytest.raises(yacht.YachtError, match=r"the ruleset is a Ruleset \(yacht.rules"
                                                   r".get\(name\); only yacht.solve takes a "
                                                   r"name\), not 'yatzy'") as e:
            call()
        assert isinstance(e.value, TypeError)
    takes_a_game: list[Callable[[], object]] = [
        lambda: advise(game), lambda: hint(game), lambda: rank_to_win(game)]
    for call in takes_a_game:
        with pytest.raises(yacht.YachtError, match=r"takes a game of the engine \(yacht"
                                                   r".engine.State\), not 'game'"):
            call()
    with pytest.raises(yacht.YachtError, match="the card is a Scorecard"):
        advise_card(rs, "ones=1", 0, (6, 2, 1), 1)  # type: ignore[arg-type]
    with pytest.raises(yacht.YachtError, match="the card is a Scorecard"):
        card_text(rs, "ones=1")  # type: ignore[arg-type]
    with pytest.raises(yacht.YachtError, match="the card is a Scorecard"):
        solve(rs).value("ones=1", 0)  # type: ignore[arg-type]
    with pytest.raises(yacht.YachtError, match="the card is text"):
        parse_card(rs, 5)  # type: ignore[arg-type]


def test_solved_variant_calls_refuse_what_they_cannot_take(crag: Any) -> None:
    o = crag.best("621 r1")
    with pytest.raises(yacht.YachtError, match="Option.actions.state. takes a game"):
        o.actions("game")  # (AttributeError before)
    with pytest.raises(yacht.YachtError, match="a batch is a list of situations .* not int"):
        crag.situations(5)  # (TypeError: 'int' object is not iterable before)
    with pytest.raises(yacht.YachtError, match="workers must be a whole number, not 'x'"):
        crag.simulate(10, workers="x")  # (ValueError: invalid literal for int() before)
    with pytest.raises(yacht.YachtError, match="workers must be a whole number, not 'x'"):
        crag.batch(["621 r1"], workers="x")
    with pytest.raises(yacht.YachtError, match="export writes to a path .* not int"):
        crag.export(5, 10)  # (TypeError from open() before)


def test_analyse_checks_its_keywords() -> None:
    # win_games='x' was a TypeError deep in the sampling (or taken, where exact), 1.5
    # and -1 were taken, progress=5  'int' object is not callable, solution='x' an
    # AttributeError
    record = Record.from_state(finished_game())
    bad: Any
    for kw, bad, words in [("win_games", "x", "win_games must be a whole number"),
                           ("win_games", 1.5, "win_games must be a whole number"),
                           ("win_games", -1, "win_games must be at least 0, not -1"),
                           ("seed", "x", "seed must be a whole number"),
                           ("progress", 5, "progress is a function of"),
                           ("solution", "x", "must be a Solution")]:
        with pytest.raises(yacht.YachtError, match=words):
            analyse(record, **{kw: bad})


def test_the_solver_tables_reprs_are_one_line() -> None:
    # Solution, TargetTable and Distributions (API.md's sol, tt, dd) wrote out their Spec,
    # Ruleset and arrays: some 19,000 characters each for Tommy's Crag
    from yacht.strategy.solver import solve
    from yacht.strategy.solver.dist import distributions
    from yacht.strategy.solver.target import target_table

    rs = get("tommys-crag")
    sol = solve(rs)
    assert repr(sol) == (f"<Solution tommys-crag: expected score {sol.expected_score:.4f} "
                         f"(exact), {sol.states} states>")
    tt = target_table(rs, 150)
    assert repr(tt).startswith("<TargetTable tommys-crag, target 150: chance 0.")
    dd = distributions(rs)
    assert repr(dd).startswith("<Distributions tommys-crag: ")
    for obj in (sol, tt, dd):
        assert len(repr(obj)) < 120


def test_the_engine_says_what_its_dice_and_records_take(tmp_path: Any) -> None:
    rs = get("tommys-crag")
    seed: Any = "x" * 32
    with pytest.raises(yacht.YachtError, match="a seed is 32 bytes .* not str"):
        State(rs, [Player("Ann")], seed=seed)  # ('string argument without an encoding')
    rng: Any = 5
    with pytest.raises(yacht.YachtError, match=r"rng is a generator with randint"):
        State(rs, [Player("Ann")], rng=rng)  # (taken; an AttributeError at the first roll)
    record: Any = "game.json"
    with pytest.raises(yacht.YachtError, match="verify checks a game's record"):
        verify(record)  # (AttributeError before)
    r = Record.from_state(State(rs, [Player("Ann")]))
    missing = tmp_path / "no" / "game.json"
    with pytest.raises(FileNotFoundError, match="the folder .* does not exist") as e:
        r.save(missing)  # (named the temporary file, '.game.json.1234.tmp')
    assert e.value.filename == str(missing)
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "game.json").mkdir()  # a folder where the file would go
    with pytest.raises(OSError) as e2:
        r.save(tmp_path / "ro" / "game.json")
    assert ".tmp" not in str(e2.value)
    r.save(tmp_path / "game.json")
    assert Record.load(tmp_path / "game.json").players == r.players


def test_export_takes_a_path_object(crag: Any, tmp_path: Any) -> None:
    # the hint said str: mypy --strict refused a pathlib.Path, which export always took
    from pathlib import Path

    y: SolvedVariant = crag
    out: Path = tmp_path / "rows.jsonl"
    assert y.export(out, situations=3, seed=1) == 3
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3


def test_situations_from_arrays_are_whole_numbers(crag: Any) -> None:
    # Situations.of cut 0.5 down to 0 (and 'a' was int()'s ValueError): API.md says
    # numbers are never cut down
    from yacht.strategy.bulk import Situations

    good = crag.situations(["621 r1"])
    again = Situations.of(good.mask.astype(float), good.aux, good.outcome, good.rolls_left)
    assert crag.batch(again, final=False).best_action() == ["keep 6"]
    for bad, words in [([0.5], "mask must hold whole numbers"),
                       ([float("nan")], "mask must hold whole numbers"),
                       (["a"], "mask must hold whole numbers, not <U1 values")]:
        with pytest.raises(yacht.YachtError, match=words):
            Situations.of(bad, [0], [5], [1])
    with pytest.raises(yacht.YachtError, match="card_total must hold numbers"):
        Situations.of([0], [0], [5], [1], card_total=["x"])


def test_simulate_says_its_order_and_its_result_is_one_line() -> None:
    from yacht.strategy.simulate import simulate

    rs = get("tommys-crag")
    games: Any = 20
    level: Any = "beginner"
    with pytest.raises(yacht.YachtError, match=r"a level is one of .* not 20 \(simulate\("
                                               r"ruleset, level, games, seed\)\)"):
        simulate(rs, games, level, 1, workers=1)  # ('int' has no attribute 'strip')
    r = simulate(rs, "beginner", 20, 1, workers=1)
    assert repr(r) == (f"<SimulationResult tommys-crag, beginner: 20 games, "
                       f"mean {r.mean:.2f}, std {r.std:.2f}>")  # (the Ruleset's pages)


def test_final_is_true_or_false(crag: Any, tmp_path: Any) -> None:
    """``final="no"`` was a text, so true: the final total came back where the points
    still to come were asked for."""
    s = "336 r1"
    calls = [lambda f: crag.value(s, final=f), lambda f: crag.best(s, final=f),
             lambda f: crag.options(s, final=f), lambda f: crag.batch([s], final=f),
             lambda f: crag.export(tmp_path / "x.jsonl", 1, final=f)]
    for call in calls:
        for bad in ("no", "False", 0, None):
            with pytest.raises(yacht.YachtError, match=f"final is True or False, not {bad!r}"):
                call(bad)
    s = "336 r1 sixes=18"
    assert crag.value(s, final=np.bool_(False)) == crag.value(s, final=False)
    assert crag.value(s, final=False) == pytest.approx(crag.value(s) - 18)
