"""The end line compares a score with what means something: the expert's expected score
for the variant, the player's own earlier games, and (with the analysis) how much was
luck - never with a maximum nobody reaches (issue 22, item 17)."""

from __future__ import annotations

from typing import Any

import pytest

from yacht.engine import Player, Roll, Score, State
from yacht.rules import get
from yacht.session import score_comment
from yacht.session.comment import Past, past_games
from yacht.store import open_store
from yacht.strategy.expected import expert_expected


def test_the_score_is_compared_with_the_experts_average() -> None:
    text = score_comment(get("yahtzee"), 126)
    assert "possible" not in text and "1575" not in text, text
    assert "126 is 128.6 below the expert's average of 254.6." in text, text
    high = score_comment(get("yahtzee"), 301)
    assert "301 is 46.4 above the expert's average of 254.6." in high, high
    assert high.split(".")[0] != text.split(".")[0]  # judged otherwise, in words too
    # every variant, with its options: the expert's own figure
    crag = score_comment(get("tommys-crag"), 150)
    assert "expert's average of 149.8" in crag, crag
    free = expert_expected(get("yahtzee", {"joker": "none", "bonus": "off"}))
    assert free is not None and round(free.score, 1) == 245.9
    # a variant too big to solve exactly: the strategy's average, said as such
    big = score_comment(get("ancient-yacht-10-double"), 1000)
    assert "expert's average (about 11" in big, big
    # its difference as round as that figure: never "942.3 below ... about 1185"
    average = expert_expected(get("ancient-yacht-10-double"))
    assert average is not None and not average.exact
    low = score_comment(get("ancient-yacht-10-double"), 243)
    assert f"243 is about {round(average.score) - 243} below the expert's average " \
        f"(about {average.score:.0f})." in low, low
    near = score_comment(get("ancient-yacht-10-double"), round(average.score))
    assert f"is near the expert's average (about {average.score:.0f})." in near, near


def test_the_players_earlier_games() -> None:
    rs = get("yatzy")
    first = score_comment(rs, 200, name="You", past=Past(0, 0.0, None))
    assert "Your first game of Yatzy." in first, first
    better = score_comment(rs, 260, name="Ann", past=Past(11, 210.54, None))
    assert "Ann's best game of Yatzy so far (the 11 before it averaged 210.5)." in better
    usual = score_comment(rs, 200, name="You", past=Past(4, 190.0, 251))
    assert "Your 4 earlier games of Yatzy: best 251, average 190.0." in usual, usual


def test_with_the_analysis_it_says_how_much_was_luck() -> None:
    text = score_comment(get("yahtzee"), 231, name="You", luck=3.84, loss=27.43)
    assert ("Luck: the dice gave you 3.8 points more than the expert expects; your "
            "decisions lost 27.4.") in text, text
    bad = score_comment(get("yahtzee"), 200, name="Ann", luck=-30.0, loss=24.6)
    assert "the dice gave Ann 30.0 points fewer than the expert expects; Ann's" in bad


def test_past_games_come_from_the_store_without_this_one(tmp_path: Any) -> None:
    rs = get("tommys-crag")
    with open_store(str(tmp_path / "y.sqlite3")) as store:
        assert past_games(store, "Ann", rs, 10) is None  # nothing stored: nothing said
        scores = []
        for first in (6, 5, 4):
            st = State(rs, [Player("Ann")])
            while not st.is_terminal():
                st.apply(Roll((first, 6, 1)))
                st.apply(Score(st.placements()[0].category))
            gid = store.start_game(__import__("yacht.engine", fromlist=["Record"])
                                   .Record.from_state(st))
            store.finish_game(gid, st)
            scores.append(st.returns()[0])
        last = scores[-1]
        past = past_games(store, "ann", rs, last)  # (names in any case, as stats)
        assert past is not None and past.games == 2
        assert past.average == pytest.approx(sum(scores[:2]) / 2)
        earlier_best = max(scores[:2])
        assert past.best == (earlier_best if earlier_best > last else None)
        assert past_games(store, "Ann", get("yatzy"), 10) is None  # another kind of game


def test_every_interface_has_the_earlier_games_from_the_table(tmp_path: Any) -> None:
    """The table reads them once, at the game's end: the snapshot's comments (the
    browser's end line) and the view (the terminal's and the line game's) say them."""
    import random

    from yacht.session.commands import GoOn, ScoreBox
    from yacht.session.table import LOCAL, Table

    with open_store(str(tmp_path / "y.sqlite3")) as store:
        totals = []
        for seed in (1, 2):
            t = Table.new(get("tommys-crag"), [Player("Ann")], store=store,
                          rng=random.Random(seed), speed="instant")
            while not t.view().finished:
                if t.view().pause is not None:
                    t.act(LOCAL, GoOn())
                else:
                    t.act(LOCAL, Roll())
                    t.act(LOCAL, ScoreBox(t.view().state.placements()[0].category))
            totals.append(t.view().state.returns()[0])
        view = t.view()
        assert view.past == (past_games(store, "Ann", get("tommys-crag"), totals[1]),)
        text = t.snapshot(LOCAL)["comments"][0]["text"]
        if totals[1] >= totals[0]:
            assert f"best game of Tommy's Crag so far (the 1 before it averaged " \
                   f"{totals[0]}.0)" in text, text
        else:
            assert f"Ann's 1 earlier game of Tommy's Crag: best {totals[0]}" in text, text


def test_a_computers_score_gets_its_figures_without_praise() -> None:
    """A game of computers judged its winner as a person ('Excellent! A score to be proud
    of.'); a computer's end line says the figures alone, a person's the words too."""
    from yacht.session.comment import end_line

    st = State(get("tommys-crag"), [Player("Cpu", "computer", "expert"), Player("Ann")])
    for dice, box in (((6, 6, 1), "crag"), ((6, 6, 1), "crag")):
        st.apply(Roll(dice))
        st.apply(Score(box))
    while not st.is_terminal():
        st.apply(Roll((1, 2, 4)))
        st.apply(Score(st.placements()[0].category))
    cpu, ann = end_line(st, 0), end_line(st, 1)
    assert cpu == f"{st.returns()[0]} is {cpu.split(' is ', 1)[1]}", cpu
    assert "expert's average" in cpu and not any(
        w in cpu for w in ("game", "Excellent", "dice can do", "Oh dear")), cpu
    assert ann.split(". ")[0] != cpu.split(". ")[0] and "expert's average" in ann, ann
    yatcy = score_comment(get("yatcy"), 300, praise=False)
    assert yatcy.startswith("300 is 35 short of the author's 335."), yatcy
