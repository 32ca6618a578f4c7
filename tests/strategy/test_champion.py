"""The champion against an exact brute force of the share of first place, on small rulesets.

The brute force plays the engine itself (every chance outcome, every legal
``Choose`` and ``Score``) and maximises, in exact fractions, the champion's
share of first place once the game is over (1 for a win, 1/k for a k-way tie,
0 for a loss) when the other players have finished. It shares no code with
the chance tables.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from test_bruteforce import cat, face, reduced
from test_target import BruteTarget, _joker_rs

from yacht.engine import Choose, Player, Roll, Score, State
from yacht.rules import RepeatBox, Ruleset, UpperBonus, get
from yacht.strategy.base import LEVELS, PLAYER_LEVELS, RandomStrategy, make_player, play_turn
from yacht.strategy.champion import ChampionStrategy, rank_to_win, win_worth
from yacht.strategy.solver.local import local_table
from yacht.strategy.solver.target import target_table


class BruteWin:
    """The best share of first place of player ``me``, through the engine."""

    def __init__(self, me: int):
        self.me = me
        self.memo: dict[Any, Fraction] = {}

    def share(self, s: State) -> Fraction:
        r = s.returns()
        best = max(r)
        if r[self.me] < best:
            return Fraction(0)
        return Fraction(1, sum(1 for v in r if v == best))

    def value(self, s: State) -> Fraction:
        if s.is_terminal():
            return self.share(s)
        assert s.current == self.me
        r = s.returns()
        if r[self.me] > max(v for p, v in enumerate(r) if p != self.me):
            return Fraction(1)   # (no box scores below 0: a lead over finished players stays)
        k = (s.card(self.me), tuple(sorted(s.dice)), s.rolls, s.turns_taken(self.me))
        if k in self.memo:
            return self.memo[k]
        if not s.dice:
            best = self.roll(s)
        else:
            best = Fraction(-1)
            for act in s.legal_actions():
                if isinstance(act, (Score, Choose)):
                    best = max(best, self.after(s, act))
        self.memo[k] = best
        return best

    def after(self, s: State, act: Score | Choose) -> Fraction:
        t = _then(s, act)
        return self.value(t) if isinstance(act, Score) else self.roll(t)

    def roll(self, s: State) -> Fraction:
        tot = Fraction(0)
        for outcome, p in s.chance_outcomes(exact=True):
            tot += p * self.value(_then(s, Roll(outcome)))
        return tot


def _then(s: State, act: Any) -> State:
    """A copy of ``s`` after ``act``, without the Oops history (it does not change values,
    and a repeat box's turns would chain it too deep to copy)."""
    t = s.clone(rng=False)
    t._p.undo = None
    t.apply(act)
    t._p.undo = None
    return t


def _action(r: Any) -> Score | Choose:
    d = r.decision()
    return d.score if d.score is not None else Choose(d.reroll)


def _play_to(rs: Ruleset, players: int, me: int, left: int, seed: int) -> State | None:
    """A game where every other player has finished and player ``me`` has ``left`` turns
    to go, on turn (seeded random moves before); None when this seed's game does not get
    there (with a repeatable box a card may still be open after all its turns)."""
    rng = random.Random(seed)
    s = State(rs, [Player(f"P{i}", "computer", "random") for i in range(players)], rng=rng)
    rnd = RandomStrategy(rs, seed)
    n = len(rs.categories) * len(rs.columns)
    while not (s.current == me and s.turns_taken(me) == n - left and not s.dice):
        if s.is_terminal():
            return None
        play_turn(s, rnd)
    if not all(s.card(p).complete for p in range(players) if p != me):
        return None
    return s


def _check_every_decision(s: State, champ: ChampionStrategy, brute: BruteWin,
                          exact: bool = True) -> int:
    """Walk every situation of the champion's remaining turns: each option's chance is
    the brute force's value of that action, and the champion's choice is a best one."""
    r = s.returns()
    if s.is_terminal() or r[s.current] > max(v for p, v in enumerate(r) if p != s.current):
        return 0   # (over, or won: a repeat box could go on for ever)
    if not s.dice:
        n = 0
        for outcome, _ in s.chance_outcomes(exact=True):
            n += _check_every_decision(_then(s, Roll(outcome)), champ, brute, exact)
        return n
    ranking = champ.rank(s)
    assert ranking is not None and ranking.exact == exact
    best = brute.value(s)
    for o in ranking.options:
        assert o.chance == pytest.approx(float(brute.after(s, _action(o.ranked))), abs=1e-12)
    chosen = champ.decide(s)
    act = chosen.score if chosen.score is not None else Choose(chosen.reroll)
    assert float(brute.after(s, act)) == pytest.approx(float(best), abs=1e-12)
    n = 1
    if chosen.score is None:   # go on down every roll of the chosen keep (and others')
        for o in ranking.options[:3]:
            if o.ranked.kind == "keep":
                t = _then(s, Choose(o.ranked.reroll))
                for outcome, _ in t.chance_outcomes(exact=True):
                    n += _check_every_decision(_then(t, Roll(outcome)), champ, brute, exact)
    return n   # (after a scoring: the game is over, or a repeat box gave another turn)


SMALL = [
    reduced(2, (face(1), cat("k2", "of_a_kind", n=2, points=20), cat("chance", "sum"))),
    reduced(2, (face(1), face(2), cat("chance", "sum")),
            bonus=UpperBonus(4, ">=", 10)),  # type: ignore[arg-type]
    _joker_rs("forced", "on"),
    _joker_rs("free", "on"),
    reduced(2, (face(2), cat("yahtzee", "of_a_kind", n=2, points=50), cat("chance", "sum")),
            special=(RepeatBox("yahtzee", 50),)),
]


@pytest.mark.parametrize("rs", SMALL, ids=["plain", "bonus", "joker-forced", "joker-free",
                                           "repeat"])
def test_last_turn_against_a_finished_opponent_is_exact(rs: Ruleset) -> None:
    games = 0
    for seed in range(30):   # two games where the last turn decides something
        s = _play_to(rs, 2, 1, 1, seed)
        if s is None:
            continue
        games += _check_every_decision(s, ChampionStrategy(rs), BruteWin(1)) > 0
        if games == 2:
            break
    assert games == 2


def test_three_players_ties_share_first_place() -> None:
    rs = SMALL[0]
    games = 0
    for seed in range(30):
        s = _play_to(rs, 3, 2, 1, seed)
        if s is None:
            continue
        games += _check_every_decision(s, ChampionStrategy(rs), BruteWin(2)) > 0
        if games == 3:
            break
    assert games == 3


def test_solitaire_target_is_exact() -> None:
    """Alone the champion plays the target table: every option's chance is the brute
    force's chance of reaching the target after it."""
    rs = SMALL[1]
    target = 14
    brute = BruteTarget(rs, target)
    champ = ChampionStrategy(rs, target=target)
    rng = random.Random(5)
    for _ in range(5):
        s = State(rs, [Player("C", "computer", "champion")], rng=rng)
        while not s.is_terminal():
            if not s.dice:
                s.apply(Roll())
                continue
            ranking = champ.rank(s)
            assert ranking is not None and ranking.goal == "target" and ranking.exact
            for o in ranking.options:
                t = s.clone(rng=False)
                act = _action(o.ranked)
                t.apply(act)
                want = brute.value(t) if isinstance(act, Score) else brute.roll(t)
                assert o.chance == pytest.approx(float(want), abs=1e-12)
            for a in champ.decide(s).actions():
                s.apply(a)


def test_local_table_agrees_with_the_target_table() -> None:
    rs = get("tommys-crag")
    tt = target_table(rs, 150)
    s = State(rs, [Player("C", "computer", "expert")], rng=random.Random(2))
    expert = make_player(rs, "expert")
    while s.turns_taken(0) < 9:
        play_turn(s, expert)
    card = s.card(0)
    local = local_table(rs, card, 150, np.zeros(0))
    assert local is not None
    assert local.chance(card) == pytest.approx(tt.chance(card, 9), abs=1e-12)


def test_worth_is_a_share_of_first_place() -> None:
    lo, w = win_worth([np.array([30]), np.array([30])])
    assert lo == 30 and w.tolist() == [pytest.approx(1 / 3)]
    lo, w = win_worth([np.array([10, 20, 20, 30])])
    assert lo == 10 and w[0] == pytest.approx(0.125) and w[-1] == pytest.approx(0.875)


def test_unfinished_opponents_play_on_as_the_expert() -> None:
    rs = get("tommys-crag")
    s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
              rng=random.Random(3))
    expert = make_player(rs, "expert")
    while s.turns_taken(0) < 11:
        play_turn(s, expert)
    s.apply(Roll())
    r = rank_to_win(s, samples=300)
    assert r is not None and r.exact and r.goal == "win"
    assert "play on as the expert" in r.how
    assert 0 <= r.options[-1].chance <= r.options[0].chance <= 1
    # from the first turn on the champion plays to win
    s2 = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
               rng=random.Random(3))
    s2.apply(Roll())
    r2 = rank_to_win(s2)
    assert r2 is not None and 0.3 < r2.options[0].chance < 0.7


def test_level_is_offered_everywhere() -> None:
    from yacht.parsing import parse_players
    from yacht.session import KINDS

    assert "champion" in LEVELS and PLAYER_LEVELS[-1] == "champion"
    assert "champion" in KINDS   # the setup screen's kinds; the web lobby checks PLAYER_LEVELS
    assert parse_players("Ann,cpu:champion") == [("Ann", "person"), ("Champion", "champion")]
    assert make_player(get("yatzy"), "champion", target=200).target == 200  # type: ignore[attr-defined]


def test_champion_plays_whole_games() -> None:
    two_columns = reduced(2, (face(1), face(6), cat("chance", "sum")), columns=(1, 2))
    for rs in (get("tommys-yacht"), two_columns):   # a forced first turn; two columns
        s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
                  rng=random.Random(1))
        champ, expert = make_player(rs, "champion"), make_player(rs, "expert")
        while not s.is_terminal():
            play_turn(s, champ if s.current == 0 else expert)
        assert s.is_terminal()


def test_alone_the_target_is_the_best_in_the_top_ten_plus_one() -> None:
    from types import SimpleNamespace

    from yacht.session.game import Session

    class Store:
        def top_ten(self, rs: Ruleset, assisted: bool = False) -> list[Any]:
            return [SimpleNamespace(name="Bo", score=170),
                    SimpleNamespace(name="Champion", score=150)]

        def __getattr__(self, name: str) -> Any:
            return lambda *a, **k: None

    rs = get("tommys-crag")

    def target(*players: Player) -> Any:
        return Session(rs, list(players), store=Store()).make_strategy(0).target  # type: ignore[arg-type]

    assert target(Player("Champion", "computer", "champion")) == 151   # its own best
    assert target(Player("Max", "computer", "champion")) == 171        # the top ten's best
    assert target(Player("Max", "computer", "champion"), Player("Ann")) is None


def test_simulate_counts_the_target() -> None:
    from yacht.strategy.simulate import simulate

    r = simulate(get("tommys-crag"), "champion", 30, seed=1, workers=1, target=150)
    assert r.target == 150 and r.reached == np.mean(r.scores >= 150)


def test_the_session_hint_carries_the_ranking_to_win() -> None:
    from yacht.session.advice import rank_moves

    rs = get("tommys-crag")
    s = State(rs, [Player("E", "computer", "expert"), Player("Ann")], rng=random.Random(4))
    expert = make_player(rs, "expert")
    while s.turns_taken(0) < 13:   # Ann's last turn: E has finished
        play_turn(s, expert)
    s.apply(Roll())
    moves = rank_moves(s)
    win = moves.to_win  # type: ignore[attr-defined]
    assert win is not None and win.exact and win.title == "Best to win"
    assert 0 <= win.moves[-1][1] <= win.moves[0][1] <= 1
    assert win.differ == (win.moves[0][0] != moves[0])
    # early in a game with opponents too: the chance if all play on as the expert (once
    # the distributions are built: the hint never builds them itself)
    from yacht.strategy.solver.dist import distributions

    distributions(rs)
    s2 = State(rs, [Player("Ann"), Player("E", "computer", "expert")], rng=random.Random(4))
    s2.apply(Roll())
    early = rank_moves(s2).to_win  # type: ignore[attr-defined]
    assert early is not None and "play on as the expert" in early.how
    assert 0.3 < early.moves[0][1] < 0.7


@pytest.mark.slow
def test_forced_first_turn_alone_adds_up_to_the_tables_start() -> None:
    """Tommy's Yacht alone: over the first roll, the champion's best chance averages to the
    target table's chance from the empty card (a yacht on roll 1 scores 50, not the
    penalty of the last roll)."""
    from yacht.strategy.advisor import advise

    rs = get("tommys-yacht")
    target = 120
    champ = ChampionStrategy(rs, target=target)
    s = State(rs, [Player("C", "computer", "champion")])
    total = 0.0
    for outcome, p in s.chance_outcomes(exact=True):
        u = _then(s, Roll(outcome))
        ranking = champ.rank(u)
        assert ranking is not None and ranking.exact
        total += float(p) * ranking.options[0].chance
        if len(set(outcome)) == 1:
            assert advise(u)[0].points == 50
    assert total == pytest.approx(target_table(rs, target).start, abs=1e-9)


@pytest.mark.parametrize("seed", [3, 8])
def test_planning_the_rest_of_its_game_wins_at_least_as_often(seed: int) -> None:
    """With ``plan`` open boxes or fewer left the champion plays its whole rest of game to
    win against the opponent's exact final total (a chance table from its card). The
    expert's play after this turn is one way of playing that rest, so no action's chance
    may come out lower than the one-turn look-ahead gives it (up to the worth's trim)."""
    from yacht.strategy.champion import PLAN, TRIM, rank_situation

    assert PLAN >= 4

    rs = get("tommys-crag")
    s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
              rng=random.Random(seed))
    expert = make_player(rs, "expert")
    while s.turns_taken(0) < 9:   # four boxes open for C, E still playing
        play_turn(s, expert)
    s.apply(Roll())
    args = (rs, s.card(0), s.turns_taken(0), s.dice, s.rolls_left,
            [(s.card(1), s.turns_taken(1))])
    ahead = rank_situation(*args, plan=0)
    planned = rank_situation(*args)   # (the default: PLAN)
    assert ahead is not None and planned is not None
    assert "planned" in planned.how and "planned" not in ahead.how
    assert planned.exact and planned.goal == "win"
    one = {o.ranked.decision(): o.chance for o in ahead.options}
    two = {o.ranked.decision(): o.chance for o in planned.options}
    assert one.keys() == two.keys()
    assert all(two[d] >= one[d] - TRIM for d in one)
    assert planned.options[0].chance >= ahead.options[0].chance - TRIM
    # more boxes open than ``plan``: the one-turn look-ahead, as without it
    assert "planned" not in (rank_situation(*args, plan=3) or ahead).how


def test_a_planning_champion_plays_whole_games() -> None:
    rs = get("tommys-crag")
    champ = ChampionStrategy(rs)
    assert champ.plan > 0
    expert = make_player(rs, "expert")
    for seed in range(3):
        s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
                  rng=random.Random(seed))
        while not s.is_terminal():
            play_turn(s, champ if s.current == 0 else expert)
        assert s.card(0).complete and s.card(1).complete


@pytest.mark.parametrize("seed", [2, 5])
def test_optimism_weighs_the_reach_table_in(seed: int) -> None:
    """Read with the reach table (the best chance of each final total on its own), the
    worth of the champion's future is an upper bound of any one way of playing on: no
    action's chance comes out lower than with the expert's play after the turn, and a
    weight between gives chances between (the turn's max and sums keep the order)."""
    from yacht.strategy.champion import rank_situation

    rs = get("tommys-crag")
    s = State(rs, [Player("C", "computer", "champion"), Player("E", "computer", "expert")],
              rng=random.Random(seed))
    expert = make_player(rs, "expert")
    while s.turns_taken(0) < 4:
        play_turn(s, expert)
    s.apply(Roll())
    args = (rs, s.card(0), s.turns_taken(0), s.dice, s.rolls_left,
            [(s.card(1), s.turns_taken(1))])
    runs = {w: rank_situation(*args, plan=0, optimism=w) for w in (0.0, 0.5, 1.0)}
    chances = {}
    for w, r in runs.items():
        assert r is not None and r.goal == "win"
        chances[w] = {o.ranked.decision(): o.chance for o in r.options}
    assert chances[0.0].keys() == chances[1.0].keys() == chances[0.5].keys()
    for d in chances[0.0]:
        assert chances[0.0][d] <= chances[0.5][d] + 1e-12
        assert chances[0.5][d] <= chances[1.0][d] + 1e-12
    assert any(chances[1.0][d] > chances[0.0][d] + 1e-6 for d in chances[0.0])
    assert "its best chance of each total" in runs[1.0].how  # type: ignore[union-attr]
    assert runs[0.0].exact and not runs[1.0].exact  # type: ignore[union-attr]
    assert "its best chance" not in runs[0.0].how  # type: ignore[union-attr]
