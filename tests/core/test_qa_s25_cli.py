"""The `yacht` commands as a new user meets them (session 25)."""

from __future__ import annotations

import inspect

import pytest

from yacht.cli import main


def test_every_public_name_of_the_clis_common_module_is_exported() -> None:
    # (say_building, used by the commands that build an expert's table, was missing)
    from yacht.cli import common

    own = {name for name, obj in vars(common).items()
           if not name.startswith("_") and (inspect.isfunction(obj) or inspect.isclass(obj))
           and obj.__module__ == common.__name__}
    assert "say_building" in own
    assert own <= set(common.__all__), own - set(common.__all__)


def test_advise_refuses_a_target_the_card_can_no_longer_reach(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The target was checked against the variant's highest total (Tommy's Crag: 244)
    only: with seven boxes at 0 the card can end with 131 at most, and 200 was ranked at
    a chance of 0.00% for every action."""
    card = "135 r1 ones=0,twos=0,threes=0,fours=0,fives=0,sixes=0,crag=0"
    assert main(["advise", "tommys-crag", card, "--target", "132"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "target 132 cannot be reached from this card: its game ends with at most 131 " \
           "(accepted: 0-131)" in err
    # the highest itself is a target with a chance, ranked as before
    assert main(["advise", "tommys-crag", card, "--target", "131"]) == 0
    out, _ = capsys.readouterr()
    assert "best to reach 131: score Odd Straight for 20" in " ".join(out.split())


def test_the_bound_of_a_card_is_never_below_what_a_game_from_it_can_score() -> None:
    # every box left at its best, from a card of boxes at 0 and at their best
    from yacht.cli.commands.advise import most_from
    from yacht.parsing import parse_card
    from yacht.rules import get

    rs = get("yatzy")
    assert most_from(rs, rs.new_card()) == 374
    # the upper bonus out of reach (50 less), and Ones to Fours at 0, not at 5+10+15+20
    assert most_from(rs, parse_card(rs, "ones=0,twos=0,threes=0,fours=0")) == 374 - 50 - 50
    assert most_from(rs, parse_card(rs, "yatzy=50,chance=30")) == 374
    assert most_from(get("tommys-yahtzee"), get("tommys-yahtzee").new_card()) is None
