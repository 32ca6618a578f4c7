"""The hint's "Best to win" against opponents: the chances when they can be worked out
(said in one line when the best move is the same as for the score), the build of their
distributions while it runs, and otherwise why there are none - never nothing (QA s18
TUI item 12: "being prepared (0 %)... ask again later", then the line was gone).

Each test has a cache of its own (the distributions missing at first) and says when a
build runs (a runner the test holds), as tests/strategy/test_champion_background.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tests.strategy import background_builds as builds
from tests.strategy.background_builds import RS, mid_game

from yacht.engine import Player, Roll, State
from yacht.rules import get
from yacht.session.advice import WinAdvice, rank_moves
from yacht.strategy import champion
from yacht.strategy.solver import background, dist

#: the shared fixtures (a fresh cache, a held runner), found by pytest by these names
fresh, held = builds.fresh, builds.held


def situation() -> State:
    """A person on turn in the middle of a game of Tommy's Crag, dice showing."""
    return mid_game(Player("Ann"))


def to_win(state: State) -> WinAdvice:
    win = getattr(rank_moves(state), "to_win", None)
    assert win is not None  # (against opponents: always something to say)
    return win


def test_the_chances_once_built_and_the_same_move_is_said_too(
        fresh: None, held: list[Callable[[], None]]) -> None:
    state = situation()
    win = to_win(state)
    assert win.preparing == 0.0 and win.line.startswith("Best to win: being prepared (0%)")
    held[0]()  # the build ran
    win = to_win(state)
    assert win.moves and win.preparing is None and win.exact
    # the first roll of a game: the same best move for the score and to win, in a line
    s = State(RS, [Player("Ann"), Player("E", "computer", "expert")], rng=random.Random(0))
    s.apply(Roll())
    win = to_win(s)
    assert not win.differ and win.moves
    assert win.line == (f"Best to win: the same move, chance {100 * win.moves[0][1]:.1f}%; "
                        f"{win.how}")


def test_a_build_that_ended_meanwhile_gives_the_chances(
        fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ranking found no distributions, which were ready by the time the hint asked
    for their build: the ranking after all (the line was silently gone)."""
    state = situation()
    dist.distributions(RS)  # built (here: by another job, ended just now)
    real = champion.rank_to_win
    calls: list[int] = []

    def late(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return None if len(calls) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(champion, "rank_to_win", late)
    win = to_win(state)
    assert win.moves and win.exact and len(calls) == 2


def test_a_build_that_failed_says_so(fresh: None, held: list[Callable[[], None]],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def no_room(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no room on the disk")

    monkeypatch.setattr(dist, "build", no_room)
    state = situation()
    assert to_win(state).preparing == 0.0
    held[0]()  # the build ran, and failed
    win = to_win(state)
    assert win.unavailable and not win.moves
    assert win.line == ("Best to win: not available: the distributions of the scores to "
                        "come could not be built (no room on the disk)")


def test_a_build_refused_for_now_says_to_ask_again(
        fresh: None, held: list[Callable[[], None]]) -> None:
    others = [background.request(("other", i), lambda progress: None)
              for i in range(background.WAITING + 1)]
    state = situation()
    win = to_win(state)
    assert win.line == ("Best to win: not yet: other tables are being built first; ask "
                        "for a hint again later")
    for work in list(held):  # the others end: asked again, it is built
        work()
    assert all(j.finished.is_set() for j in others)
    assert to_win(state).preparing == 0.0


def test_where_nothing_is_built_behind_the_game(fresh: None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(background.ENV, "wait")  # (tests, matches)
    win = to_win(situation())
    assert win.line == ("Best to win: not ready: the distributions of the scores to come "
                        "are not built")


def test_a_variant_without_distributions_says_so(fresh: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "supported", lambda rs: False)
    win = to_win(situation())
    assert win.line == ("Best to win: worked out in the last turns only (Tommy's Crag has "
                        "no exact distributions of the scores to come)")


def test_alone_without_a_target_table_nothing_is_said(fresh: None) -> None:
    s = State(RS, [Player("Ann")], rng=random.Random(3))
    s.apply(Roll())
    moves = rank_moves(s)
    assert moves and getattr(moves, "to_win", None) is None


def test_the_hint_says_once_that_it_marked_the_game() -> None:
    from yacht.session.table import LOCAL, Table

    t = Table.new(RS, [Player("Ann"), Player("E", "computer", "expert")],
                  rng=random.Random(1))
    t.act(LOCAL, Roll())
    first, second = t.hint(LOCAL), t.hint(LOCAL)
    assert getattr(first, "marked", None) is True and getattr(second, "marked", None) is False
    assert t.view().assisted


def test_generala_says_the_best_to_win_all_game_long() -> None:
    """Generala's served boxes are beyond the turn kernel, but its turns are worked out
    in numpy on its distributions: the hint gives the chances on every turn (it said
    'not worked out in Generala')."""
    from yacht.strategy.base import make_player, play_turn

    rs = get("generala")
    dist.distributions(rs, table=True)   # (the suite builds nothing behind a game)
    s = State(rs, [Player("Ann"), Player("Bob", "computer", "expert")],
              rng=random.Random(1))
    expert = make_player(rs, "expert")
    lines = []
    while not s.is_terminal() and len(lines) < 11:
        if s.current == 0:
            s.apply(Roll())
            if s.is_terminal():
                break
            win = to_win(s)
            assert win.moves and win.exact
            assert win.how.endswith("; the chance of a served Generala, which ends the "
                                    "game, counted")
            lines.append(win.line)
        play_turn(s, expert)
    assert len(lines) >= 5 and all(line.startswith("Best to win:") for line in lines)


@pytest.mark.parametrize("variant", ["kismet", "ancient-yacht-double"])
def test_a_variant_the_tables_of_chances_do_not_know_never_says_the_last_turns(
        variant: str) -> None:
    """Kismet's bonus by steps and two columns are beyond the champion's tables of
    chances: the hint said 'worked out in the last turns only', and gave no chances in
    the last turns either (the line with three boxes open, and one)."""
    from yacht.strategy.base import RandomStrategy, play_turn

    rs = get(variant)
    s = State(rs, [Player("Ann"), Player("Bob", "computer", "expert")],
              rng=random.Random(1))
    # (the turns on the way are played at random: the expert's turns of two columns took
    # most of the suite's longest test, and only the cards' open boxes matter here)
    expert = RandomStrategy(rs, 1)
    seen = []
    while len(seen) < 2:
        if s.current == 1:
            play_turn(s, expert)
            continue
        open_boxes = sum(b is None for col in s.card(0).boxes for b in col)
        if open_boxes in (3, 1):
            s.apply(Roll())
            win = to_win(s)
            assert not win.moves
            seen.append(win.line)
        play_turn(s, expert)
    assert seen == [f"Best to win: not worked out in {rs.name} (the tables of chances do "
                    "not know its rules)"] * 2
