"""What a newcomer met playing Kismet, Generala and Maxi Yatzy against the expert at
80x24 (issue 25): each found thing, kept found."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_helpers import game, play_out, run, settle

from yacht.session import Launch, PlayerSpec
from yacht.tui import YachtApp
from yacht.tui.screens.end import EndScreen

App = Callable[..., YachtApp]


def screen_text(app: Any) -> list[str]:
    strips = app.screen._compositor.render_strips()
    return ["".join(seg.text for seg in strip) for strip in strips]


@run
async def test_a_served_generala_ends_the_game_and_the_end_says_so_whole(new_app: App
                                                                          ) -> None:
    """Dice 1085: Ann's first roll is five sixes, a served Generala: the game is over at
    once, Ann wins; the end screen's result is wrapped (not cut at the column's edge) and
    her comment is about the win, not about 0 points against the expert's average."""
    app = new_app(Launch(variant="generala", players=[PlayerSpec("Ann"),
                                                      PlayerSpec("Cpu", "intermediate")]),
                  seed=1085)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r")
        await settle(pilot)
        st = g.table._game.state
        assert st.dice == (6, 6, 6, 6, 6) and st.is_terminal() and st.ended_by == 0
        await pilot.press("r")  # See results
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = " ".join(" ".join(line[:46].split()) for line in screen_text(app))
        assert "Ann wins at once with a served Generala (five of a kind on the first " \
               "roll)." in text
        assert "Won at once with a served Generala" in text
        assert "below the expert's average" not in text


@run
async def test_an_assisted_games_new_entry_says_which_list_it_went_to(new_app: App) -> None:
    """After a hint the score goes to the list apart from the top ten: the end screen
    said "A new entry in the top ten" and t then showed the other list."""

    app = new_app(Launch(variant="tommys-crag", players=[PlayerSpec("Ann")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        await pilot.press("r", "h")
        await settle(pilot)
        await pilot.press("1")  # show the hint: the game is now assisted
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert g.table.view().apart
        play_out(g)  # the rest quickly, from here, to the end screen
        await pilot.press("r")  # See results
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        said = str(app.screen.query_one("#new-entry").render())
        assert "apart from the top ten" in said


@run
async def test_maxi_yatzys_saved_rolls_are_shown_whole_beside_a_crowded_card(new_app: App
                                                                             ) -> None:
    """Maxi Yatzy with two players at 80x24 has the small left side: the rolls left read
    "Rolls left 3 + 2" there, the word "saved" cut off; now "Rolls 3 + 2 saved"."""
    from yacht.session import category_keys

    app = new_app(Launch(variant="maxi-yatzy", players=[PlayerSpec("Ann"),
                                                        PlayerSpec("Cpu", "intermediate")]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        g = game(pilot)
        assert g.layout_name == "small"
        await pilot.press("r")
        await settle(pilot)
        st = g.table._game.state
        cat = st.placements()[0].category
        await pilot.press(category_keys(st.ruleset)[cat])  # after one roll: two saved
        await settle(pilot)
        for _ in range(50):  # the pause before the computer, its turn
            if st.current == 0 and st.turns_taken(0) == 1:
                break
            await pilot.press("enter")
            await settle(pilot)
        assert st.current == 0
        rolls = g.query_one("#rolls")
        for _ in range(300):  # (the turn's news reaches the screen a moment after the state)
            if str(rolls.render()) == "Rolls 3 + 2 saved":
                break
            await pilot.pause(0.01)
        assert str(rolls.render()) == "Rolls 3 + 2 saved"
        assert rolls.content_size.width >= len("Rolls 3 + 2 saved")


def test_the_analysis_screen_says_a_served_generala_ended_the_game() -> None:
    """The analysis of a game a served Generala ended failed ("the game is over"); now
    it is shown, and says why the cards are not full."""
    import random

    from yacht.engine import Player, Record, Roll, Score, State
    from yacht.rules import get
    from yacht.strategy.analysis import analyse
    from yacht.tui.screens.analysis import analysis_text

    s = State(get("generala"), [Player("Ann"), Player("Bob")], rng=random.Random(3))
    s.apply(Roll((1, 2, 2, 3, 6)))
    s.apply(Score("twos"))
    s.apply(Roll((5, 5, 5, 5, 5)))           # Bob's served Generala
    text = analysis_text(analyse(Record.from_state(s), win_games=0), 78)
    assert "The game ended at once: Bob won with a served Generala" in " ".join(text.split())
    assert "not finished" not in text
