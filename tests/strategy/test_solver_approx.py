"""The strategy for games too big to solve exactly, and its proven upper bound."""

from __future__ import annotations

from dataclasses import replace

from yacht.rules import get
from yacht.strategy.solver import solve
from yacht.strategy.solver.approx import one_column, skip_upper_bound, solve_approx


def small_double() -> object:
    rs = get("ancient-yacht-double")
    keep = ("fives", "sixes", "choice", "yacht")
    cats = tuple(c for c in rs.categories if c.id in keep)
    return replace(rs, id="small-double", categories=cats)


def test_bound_is_above_the_exact_optimum() -> None:
    rs = small_double()
    exact = solve(rs, cache=False).expected_score  # type: ignore[arg-type]
    bound = skip_upper_bound(rs)  # type: ignore[arg-type]
    single = solve(one_column(rs), cache=False).expected_score  # type: ignore[arg-type]
    assert bound >= exact
    # and not absurdly loose: below 3 x (one column with twice the turns' worth)
    assert bound < 3 * single * 1.4


def test_bound_with_one_column_is_tight() -> None:
    # one column: as many turns as boxes, so the relaxation can only gain by giving up
    # a box; the bound is at or just above the exact optimum
    rs = replace(get("ancient-yacht"), id="small-single",
                 categories=get("ancient-yacht").categories[4:8])
    exact = solve(rs, cache=False).expected_score
    bound = skip_upper_bound(rs)
    assert exact - 1e-9 <= bound <= exact * 1.02


def test_decomposition_strategy_is_close_to_optimal() -> None:
    rs = small_double()
    exact = solve(rs, cache=False).expected_score  # type: ignore[arg-type]
    sol = solve_approx(rs, cache=False)  # type: ignore[arg-type]
    assert not sol.exact
    assert sol.upper_bound is not None and sol.upper_bound >= exact
    # a simulated policy value: within noise of (and not above) the optimum
    assert sol.expected_score < exact + 3
    assert sol.expected_score > exact - 10
    assert "simulated games" in sol.note


def test_ten_dice_double_uses_the_strategy() -> None:
    from yacht.strategy.solver.spec import compile_ruleset

    spec = compile_ruleset(get("ancient-yacht-10-double"))
    assert spec.nbox == 24 and spec.dice.n == 10
