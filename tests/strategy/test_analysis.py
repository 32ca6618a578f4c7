"""Game analysis: losses against the advisor, luck + skill, win probabilities, charts."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from reduced_games import reduced_ancient_yacht_double

from yacht.engine import Choose, GiveBack, Player, Record, Roll, Score, State, TakeBack, records
from yacht.rules import Ruleset, UpperBonus, all_variants, get
from yacht.strategy.advisor import advise, advise_card
from yacht.strategy.analysis import analyse, fitted_chart, text_chart, win_chances
from yacht.strategy.base import RandomStrategy, make_player, play_turn

EXPERT_VARIANTS = ["yahtzee", "yatzy", "tommys-yacht", "tommys-yahtzee", "tommys-crag",
                   "ancient-yacht-10", "sackson-yacht"]


def _game(name: str, levels: list[str], seed: int, opts: dict[str, str] | None = None) -> State:
    return _game_of(get(name, opts), levels, seed)


def _game_of(rs: Ruleset, levels: list[str], seed: int) -> State:
    players = [make_player(rs, lv) if lv != "random" else RandomStrategy(rs, seed + i)
               for i, lv in enumerate(levels)]
    s = State(rs, [Player(f"P{i}", "computer", lv) for i, lv in enumerate(levels)],
              rng=random.Random(seed))
    while not s.is_terminal():
        play_turn(s, players[s.current])
    return s


@pytest.mark.parametrize("name", EXPERT_VARIANTS)
def test_expert_game_has_no_loss_anywhere(name: str) -> None:
    s = _game(name, ["expert", "expert"], seed=11)
    a = analyse(Record.from_state(s), win_games=0)
    assert a.decisions, "an analysed game has decisions"
    for d in a.decisions:
        assert d.loss == 0.0, d
        assert d.played == d.best
    for p in a.players:
        assert p.loss == 0.0 and p.accuracy == 100.0 and p.mistakes == 0
        assert p.costliest == ()
        assert p.result == s.returns()[p.index]
    # every keep and every scoring of both players is there
    scorings = sum(1 for x in s.log if isinstance(x, Score))
    rerolls = sum(1 for i, x in enumerate(s.log) if isinstance(x, Roll) and i and not
                  isinstance(s.log[i - 1], Score))
    assert sum(1 for d in a.decisions if d.kind == "score") == scorings
    assert len(a.decisions) >= scorings + 1
    assert len(a.turns) == scorings
    del rerolls


def test_wrong_box_shows_the_advisors_loss() -> None:
    rs = get("yahtzee")
    s = State(rs, [Player("Ann")], rng=random.Random(2))
    s.apply(Roll((6, 6, 6, 6, 6)))
    s.apply(Choose((0,)))
    s.apply(Roll((6,)))                      # still a yahtzee after a silly re-roll
    s.apply(Choose((0, 1)))
    s.apply(Roll((6, 6)))
    ranking = advise(s)
    wrong = next(r for r in ranking if r.kind == "score" and r.category == "chance")
    keep_loss = advise_card(rs, rs.new_card(), 0, (6, 6, 6, 6, 6), 2)
    s.apply(Score("chance"))                 # 30 points instead of 50
    a = analyse(Record.from_state(s), win_games=0)
    first, second, box = a.decisions
    assert (first.kind, second.kind, box.kind) == ("keep", "keep", "score")
    assert box.played.box == "chance" and box.best.box == "yahtzee"
    assert box.loss == pytest.approx(wrong.loss, abs=1e-9) and box.loss > 10
    assert box.situation == "66666 r0"
    want = next(r.loss for r in keep_loss if r.kind == "keep" and r.keep == (6, 6, 6, 6))
    assert first.loss == pytest.approx(want, abs=1e-9) and first.loss > 0
    p = a.players[0]
    assert p.loss == pytest.approx(first.loss + second.loss + box.loss)
    assert p.costliest[0] is box and p.mistakes == 3
    assert not a.finished and a.win is None


def _reduced_maxi_yatzy() -> Ruleset:
    """Maxi Yatzy on six of its twenty boxes: its six dice, its saved rolls (the same
    hook, on by the same option) and its bonus option, with a bonus the two upper boxes
    can reach. Its strategy is made as the full game's (turns solved for the rolls they
    have on the exact table without saved rolls), whose table takes ~100 s and 1.7 GB."""
    rs = get("maxi-yatzy")
    keep = ("fives", "sixes", "three_pairs", "villa", "chance", "maxi_yatzy")
    cats = tuple(c for c in rs.categories if c.id in keep)
    bonus = UpperBonus(40, ">=", 50)
    return replace(rs, id="reduced-maxi-yatzy", categories=cats, catalogue=cats,
                   upper_bonus=bonus, base_bonus=bonus)


#: variants analysed on a reduced game of the same rules: their own tables take
#: a minute or more in a fresh cache, and the analysis's walk is the same code
STAND_INS = {"maxi-yatzy": _reduced_maxi_yatzy,
             "ancient-yacht-double": reduced_ancient_yacht_double}


@pytest.mark.parametrize("rs", all_variants(), ids=lambda r: r.id)
@pytest.mark.slow
def test_luck_and_skill_add_up_to_the_result(rs: Ruleset,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    name = rs.id
    if name in STAND_INS:
        small = STAND_INS[name]()
        real = records.get
        # the record names its variant: the reduced one is found by its id
        monkeypatch.setattr(records, "get", lambda n, o=None: small if n == small.id
                            else real(n, o))
        rs = small
    s = _game_of(rs, ["random", "intermediate"], seed=5)
    if rs.special and any(r.name == "saved_rolls" for r in rs.special):
        # the game analysed took rolls saved from earlier turns
        assert any(st.rolls > rs.rolls for st in Record.from_state(s).replay())
    a = analyse(Record.from_state(s), win_games=0)
    assert a.exact == (name not in ("ancient-yacht-10-double", "maxi-yatzy"))
    for p in a.players:
        assert p.result == s.returns()[p.index]
        assert p.expected_start + p.luck - p.loss == pytest.approx(p.result, abs=1e-6)
        # luck is the sum of what each turn's rolls changed
        luck = sum(t.luck for t in a.turns if t.player == p.index)
        assert luck == pytest.approx(p.luck, abs=1e-6)
        assert 0 <= p.accuracy <= 100
        assert len(p.expected) == s.turns_taken(p.index) + 1
        assert p.expected[-1] == pytest.approx(p.result, abs=1e-6)
    assert a.players[0].loss > 0   # random play loses points
    assert a.players[0].accuracy < 100


def test_random_player_accuracy_is_below_the_intermediate() -> None:
    acc = {"random": [], "intermediate": []}  # type: dict[str, list[float]]
    for seed in range(3):
        s = _game("yatzy", ["random", "intermediate"], seed=seed)
        a = analyse(Record.from_state(s), win_games=0)
        acc["random"].append(a.players[0].accuracy)
        acc["intermediate"].append(a.players[1].accuracy)
    assert max(acc["random"]) < min(acc["intermediate"])


def test_oops_take_back_analyses_the_decisions_that_stand() -> None:
    rs = get("yatzy")
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(1))
    s.apply(Roll((1, 2, 3, 4, 6)))
    s.apply(Choose((4,)))
    s.apply(GiveBack())                      # not a decision
    s.apply(Choose((0,)))
    s.apply(Roll((5,)))                      # keep 2 3 4 6: a decision
    s.apply(Score("ones"))                   # taken back below
    s.apply(TakeBack())
    s.apply(Score("small_straight"))         # 2 3 4 5 6 is not small: 0 points
    s.apply(TakeBack())
    s.apply(Score("large_straight"))
    a = analyse(Record.from_state(s), win_games=0)
    kinds = [(d.player, d.kind, d.played.box) for d in a.decisions]
    assert kinds == [(0, "keep", None), (0, "score", "large_straight")]
    assert len(a.turns) == 1 and a.turns[0].box == "large_straight" and a.turns[0].points == 20
    assert a.decisions[0].played.keep == (2, 3, 4, 6)
    p = a.players[0]
    assert p.expected_start + p.luck - p.loss == pytest.approx(p.result, abs=1e-9)


def test_game_in_progress_counts_to_the_expected_total_now() -> None:
    rs = get("ancient-yacht")
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(3))
    expert = make_player(rs, "expert")
    for _ in range(3):
        play_turn(s, expert)
    s.apply(Roll())
    s.apply(Choose((0, 1)))
    s.apply(Roll())                          # Bob's second turn, one keep made
    a = analyse(Record.from_state(s), win_games=100)
    assert not a.finished
    bob = a.players[1]
    assert bob.result == pytest.approx(advise(s)[0].expected)
    assert bob.expected_start + bob.luck - bob.loss == pytest.approx(bob.result)
    assert a.decisions[-1].player == 1 and a.decisions[-1].kind == "keep"
    assert a.win is not None and len(a.win) == 1 + len(a.turns)


def test_win_probabilities_of_a_finished_game_are_0_or_1() -> None:
    s = _game("ancient-yacht", ["intermediate", "expert", "beginner"], seed=2)
    a = analyse(Record.from_state(s))
    assert a.win is not None and a.win_exact and a.win_games == 0
    assert a.to_json()["win"]["how"] == "exact if all play on as the expert"
    last = a.win[-1]
    winners = set(s.winners())
    assert last.chances == tuple(1.0 if i in winners else 0.0 for i in range(3))
    first = a.win[0]
    assert first.game_turn == 0 and first.player is None
    # at the start everyone is the same: equal chances, a third each and the ties
    assert max(first.chances) - min(first.chances) < 1e-12
    assert 1 / 3 <= first.chances[0] < 1 / 3 + 0.02
    for m in a.win:
        assert all(0.0 <= c <= 1.0 for c in m.chances)
        assert sum(m.chances) >= 1.0 - 1e-6
    # the same record gives the same figures
    again = analyse(Record.from_state(s))
    assert again.win == a.win


def test_exact_chances_agree_with_sampled_games() -> None:
    """The exact chances against the self-play's sampled totals, within their error."""
    from yacht.strategy.analysis import _final_totals
    from yacht.strategy.solver import solve
    from yacht.strategy.solver.dist import distributions

    s = _game("tommys-crag", ["beginner", "expert"], seed=4)
    a = analyse(Record.from_state(s))
    assert a.win is not None and a.win_exact
    rs = s.ruleset
    sol = solve(rs)
    dd = distributions(rs)
    now = [(rs.new_card(), 0), (rs.new_card(), 0)]
    replay = Record.from_state(s).new_state()
    games = 20_000
    moments = iter(a.win[1:])
    for action in s.log:
        who = replay.current
        replay.apply(action)
        if not isinstance(action, Score):
            continue
        now[who] = (replay.card(who), replay.turns_taken(who))
        m = next(moments)
        if m.game_turn > 8:
            break
        sampled = win_chances([_final_totals(sol, rs, c, t, games, 7 + p)
                               for p, (c, t) in enumerate(now)])
        for p in range(2):
            assert abs(m.chances[p] - sampled[p]) < 4 * 0.5 / games ** 0.5 + 1e-3
            assert dd.final(*now[p])[0] >= rs.totals(now[p][0]).grand


def test_win_chances_count_a_shared_first_place_for_each() -> None:
    assert win_chances([np.array([5]), np.array([5]), np.array([3])]) == [1.0, 1.0, 0.0]
    got = win_chances([np.array([1, 2, 3, 4]), np.array([2, 3])])
    # P(X >= Y): X in 1..4 against Y in 2..3
    assert got[0] == pytest.approx((0 + 0.5 + 1 + 1) / 4)
    assert got[1] == pytest.approx(0.5 * 0.5 + 0.5 * 0.75)   # P(Y >= X)


def test_json_shape() -> None:
    s = _game("tommys-crag", ["intermediate", "expert"], seed=9)
    j = analyse(Record.from_state(s), win_games=50).to_json()
    assert j["format"] == "yacht-analysis" and j["version"] == 1
    assert set(j) >= {"variant", "name", "options", "key", "exact", "reference", "finished",
                      "dice_entered", "expected_start", "players", "turns", "decisions", "win"}
    p = j["players"][0]
    assert set(p) >= {"name", "score", "result", "loss", "skill", "luck", "accuracy",
                      "costliest", "expected", "mistakes", "decisions"}
    for d in p["costliest"]:
        assert set(d) >= {"situation", "played", "best", "loss", "turn", "dice", "card"}
        assert d["played"]["text"] and d["best"]["text"]
    assert len(j["win"]["moments"]) == len(j["turns"]) + 1
    import json

    json.dumps(j)  # plain JSON


def test_a_game_with_dice_entered_says_so() -> None:
    s = State(get("tommys-crag"), [Player("Ann")], rng=random.Random(2))
    s.apply(Roll((6, 6, 1), entered=True))
    s.apply(Score("crag"))
    s.apply(Roll())
    entered = analyse(Record.from_state(s), win_games=0)
    assert entered.dice_entered and entered.to_json()["dice_entered"] is True
    assert "Dice entered: some dice were entered by hand" in entered.text()
    honest = analyse(Record.from_state(_game("tommys-crag", ["expert"], seed=3)), win_games=0)
    assert honest.to_json()["dice_entered"] is False and "Dice entered" not in honest.text()


def test_approximate_variant_says_its_reference() -> None:
    s = _game("ancient-yacht-10-double", ["expert", "beginner"], seed=1)
    a = analyse(Record.from_state(s), win_games=0)
    assert not a.exact
    assert "not the proven optimum" in a.reference
    assert "not the proven optimum" in a.text()
    assert all(d.loss == 0 for d in a.decisions if d.player == 0)


def test_text_chart() -> None:
    lines = text_chart([[0, 50, 100], [100, 50, 0]], height=3)
    assert lines[0].startswith("100 |2") and lines[0].endswith("1")
    assert "*" in lines[1]
    assert lines[-1].strip() == "012"
    assert text_chart([]) == []


def test_text_charts_of_many_turns_fit_the_width() -> None:
    """8 players of Crag: 104 turns of the game, more than 80 columns; the charts show
    every other turn and say so, each row whole (a row wrapped was a broken chart)."""
    a = analyse(Record.from_state(_game("tommys-crag", ["random"] * 8, seed=5)))
    assert a.win is not None and len(a.win) > 80
    lines = a.text(width=80).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Chance of winning"))
    assert "a column per 2 turns" in " ".join((lines[start] + lines[start + 1]).split())
    rows = lines[start + 2:start + 2 + 9]   # 8 rows and the x axis
    assert rows[0].startswith("  100 |") and rows[7].startswith("    0 |")
    assert all(len(r) <= 80 for r in rows) and rows[8].strip().startswith("0123456789")
    n = len(a.win)  # every other point, and the last
    assert len(rows[8].strip()) == len(range(0, n, 2)) + (n - 1) % 2
    assert fitted_chart([[1.0, 2.0]], 80)[1] == 1  # what fits is not thinned


def test_text_shows_each_costly_situation_whole_as_advise_reads_it() -> None:
    from yacht.strategy.api import solve

    s = _game("yatzy", ["random"], seed=3)
    a = analyse(Record.from_state(s), win_games=0)
    text = a.text(width=40)  # narrower than the situations of a late turn
    lines = text.splitlines()
    situations = [d.situation for p in a.players for d in p.costliest]
    assert situations and max(len(x) for x in situations) > 40
    y = solve("yatzy")
    # a situation too long for the width goes on under its turn, broken after commas:
    # the lines fit, and read back as they are printed (a line break is a blank)
    joined = text.replace(",\n    ", ",").replace(":\n    ", ": ")
    for sit in situations:
        assert ": " + sit in joined, sit
        start = next(i for i, line in enumerate(lines) if line.startswith("    ")
                     and sit.startswith(line.strip())) if len(sit) > 30 else None
        if start is not None:
            block = [lines[start]]
            while "".join(x.strip() for x in block) != sit:
                block.append(lines[start + len(block)])
            assert all(len(x) <= 40 for x in block)
            assert y.options("\n".join(block)) == y.options(sit)
        y.options(sit)  # the notation reads back
    # other long lines are wrapped, not cut: every word of the played moves is there
    for d in a.players[0].costliest:
        assert d.best.text.split()[-1] in text


def test_a_game_ended_by_a_served_generala_is_analysed_as_it_stood() -> None:
    """A served Generala ends the game at once (servida=win): the analysis takes the
    cards as they stood, and the last chance of winning is the winner's, whole."""
    rs = get("generala")
    s = State(rs, [Player("Ann"), Player("Bob")], rng=random.Random(1))
    s.apply(Roll((2, 2, 3, 3, 3)))
    s.apply(Score("full"))                   # served: 35
    s.apply(Roll((1, 2, 4, 5, 6)))
    s.apply(Score("ones"))
    s.apply(Roll((4, 4, 4, 4, 4)))           # Ann's served Generala: the game is over
    assert s.is_terminal() and s.ended_by == 0
    a = analyse(Record.from_state(s), win_games=20)
    assert a.finished and a.ended_by == 0
    assert "Ann won with a served Generala" in a.ended_text
    assert "Ann won with a served Generala" in a.text()
    assert [p.result for p in a.players] == [35.0, 1.0]
    assert all(p.finished for p in a.players)
    assert a.win is not None and a.win[-1].chances == (1.0, 0.0)
    assert a.to_json()["ended_by"] == 0
    # what the chances count, said where they are shown (the browser's chart too)
    how = "the chance of a served Generala, which ends the game, counted"
    assert a.win_exact and a.win_how.endswith(how) and a.to_json()["win"]["how"] == a.win_how
    assert how in " ".join(a.text().split())


def _maxi_yatzy_twelve() -> Ruleset:
    """Maxi Yatzy on twelve of its twenty boxes (its dice, saved rolls and price): a
    player saving two rolls a turn has 22 in the pool at the end, far beyond the 9 the
    strategy's price pays for; its table takes a second."""
    rs = get("maxi-yatzy")
    keep = ("fours", "fives", "sixes", "one_pair", "two_pairs", "three_of_a_kind",
            "full_house", "three_pairs", "villa", "chance", "maxi_yatzy", "small_straight")
    cats = tuple(c for c in rs.categories if c.id in keep)
    bonus = UpperBonus(60, ">=", 50)
    return replace(rs, id="twelve-maxi-yatzy", categories=cats, catalogue=cats,
                   upper_bonus=bonus, base_bonus=bonus)


def _hasty_game(rs: Ruleset, seed: int, monkeypatch: pytest.MonkeyPatch) -> Record:
    """Ann scores the advisor's best box after her first roll every turn (saving the
    rest: her pool only grows); Cpu plays the expert."""
    real = records.get
    monkeypatch.setattr(records, "get", lambda n, o=None: rs if n == rs.id else real(n, o))
    s = State(rs, [Player("Ann"), Player("Cpu", "computer", "expert")],
              rng=random.Random(seed))
    expert = make_player(rs, "expert")
    while not s.is_terminal():
        if s.current == 1:
            play_turn(s, expert)
            continue
        s.apply(Roll())
        best = next(r for r in advise(s) if r.kind == "score")
        s.apply(Score(best.category, best.column))
    assert s.card(0).saved == 0 and s.turns_taken(0) == 12
    return Record.from_state(s)


def test_saved_rolls_a_scoring_is_worth_what_the_next_turn_starts_from(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Maxi Yatzy's values are consistent between turns: every scoring's value is the
    expected total the next turn starts from, with a pool beyond the price's rolls and
    with the pool the last turn takes (both used to drop or add points there that the
    analysis then counted as luck)."""
    rs = _maxi_yatzy_twelve()
    a = analyse(_hasty_game(rs, 1, monkeypatch), win_games=0)
    after = {(t.player, t.turn): t.expected_after for t in a.turns}
    scorings = [d for d in a.decisions if d.kind == "score"]
    assert len(scorings) == 24
    assert max(d.rolls_left for d in scorings) > 9    # Ann's pool outgrows the price
    for d in scorings:
        assert d.played.expected == pytest.approx(after[d.player, d.turn], abs=1e-9), d
    assert a.players[1].loss == 0.0 and a.players[0].loss > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_saved_rolls_a_hasty_players_loss_and_luck_stay_sane(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player who scores after one roll every turn (her pool growing to 22) loses
    less than the expert's whole expected score (her accuracy stays above 0: her loss
    is about 205 of the 240 expected, for results of 84-120), and her luck stays within
    100 points, about the spread of this game's results (the expert's own luck is +14
    to +138 over these seeds: the strategy underrates itself). The full game once gave
    such a player a loss of 600 and luck of +400 for a result of 190 (benchmarks/README.md
    has the numbers before and after)."""
    rs = _maxi_yatzy_twelve()
    a = analyse(_hasty_game(rs, seed, monkeypatch), win_games=0)
    ann = a.players[0]
    assert ann.expected_start + ann.luck - ann.loss == pytest.approx(ann.result, abs=1e-6)
    assert 0 < ann.loss < ann.expected_start and ann.accuracy > 0
    assert abs(ann.luck) < 100


def test_sampled_chances_report_progress_by_the_work_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the chances of winning are sampled (a two-column game: no distributions),
    the progress counts each card's games by the turns they play, so the first card
    (the empty one, the longest games) moves it most and the time left it gives holds
    from the start."""
    small = reduced_ancient_yacht_double()
    real = records.get
    monkeypatch.setattr(records, "get", lambda n, o=None: small if n == small.id
                        else real(n, o))
    from yacht.strategy.solver import dist

    # (the reduced game has distributions: taken away, its chances are sampled as the
    # full games' are)
    monkeypatch.setattr(dist, "available", lambda rs: False)
    s = _game_of(small, ["intermediate", "expert"], seed=4)
    seen: list[tuple[int, int]] = []
    a = analyse(Record.from_state(s), win_games=40, progress=lambda d, t: seen.append((d, t)))
    assert a.win is not None and a.win_games == 40
    fractions = [d / t for d, t in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    reports = [f for f in fractions if f < 1.0]
    boxes = sum(len(col) for col in small.new_card().boxes)
    # the empty card's games: all its boxes of the work, at least twice an even share
    assert reports[0] > 1.8 / len(reports)
    assert seen[0][0] == boxes


def test_a_strategys_own_start_value_is_told_apart_from_its_average_in_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Maxi Yatzy's analysis said 'The expected score at the start is 394.6' while the end
    line said 'the expert's average of about 441': the pool strategy values its start by
    the table without saved rolls. Where the reference is a strategy (not exact) whose
    measured average differs, the analysis says both; an exact one says nothing more."""
    from yacht.strategy import expected
    from yacht.tui.screens.analysis import analysis_text

    a = analyse(Record.from_state(_game("tommys-crag", ["beginner"], seed=3)), win_games=0)
    assert a.exact and a.start_note == "" and a.to_json()["start_note"] == ""
    strategy = replace(a, exact=False, strategy="a test strategy")
    monkeypatch.setattr(expected, "expert_expected",
                        lambda rs: expected.Expected(a.expected_start + 50.4, False))
    note = f"the strategy's own estimate: the expert averages about " \
           f"{a.expected_start + 50.4:.0f} in play"
    assert strategy.start_note == note and strategy.to_json()["start_note"] == note
    text = " ".join(analysis_text(strategy, 200).split())
    assert f"is {a.expected_start:.1f} ({note})." in text
    monkeypatch.setattr(expected, "expert_expected",
                        lambda rs: expected.Expected(a.expected_start + 0.5, False))
    assert strategy.start_note == ""  # (within a point: the same figure)


def test_text_of_wide_names_fits_its_width_in_cells() -> None:
    """Names of wide letters line up in the table and wrap in cells (the text counted
    characters: "山田太郎..." lines ran to 80-86 cells in 78)."""
    from yacht.cells import cell_len

    rs = get("tommys-crag")
    names = ["山田太郎山田太郎山田太", "Ann"]  # (22 cells: the table takes 78)
    s = State(rs, [Player(n, "computer", "random") for n in names], rng=random.Random(4))
    players = [RandomStrategy(rs, 4), RandomStrategy(rs, 5)]
    while not s.is_terminal():
        play_turn(s, players[s.current])
    lines = analyse(Record.from_state(s), win_games=0).text(78).splitlines()
    wide = [line for line in lines if cell_len(line) > 78 and not line.startswith("  turn")]
    assert not wide, wide
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("player"))
    table = lines[head:head + 3]  # (the columns end where the heading's do, in cells)
    assert [cell_len(line) for line in table] == [78] * 3, table
    assert names[0] in table[1] and "Ann" in table[2]
    assert any(line.startswith(f"21 of {names[0]}'s") for line in lines)
