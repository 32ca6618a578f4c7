"""Batches for Python users (``SolvedVariant.situations``/``batch``), final totals or points
to come, cards with extra points, games with their decisions, labelled data out."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import yacht
from yacht.cli import main
from yacht.engine import Player, State
from yacht.engine.randomplay import random_turn
from yacht.rules import Ruleset
from yacht.strategy.advisor import AdviceError
from yacht.strategy.api import Situation, SolvedVariant
from yacht.strategy.bulk import MissingExtra, Situations, check_format

VARIANTS = [("yatzy", {}), ("yahtzee", {"joker": "forced"}), ("yahtzee", {"joker": "free"}),
            ("yahtzee", {"joker": "none", "bonus": "off"}), ("tommys-crag", {}),
            ("tommys-yacht", {}), ("ancient-yacht-10", {"rolls": "3"}),
            ("ancient-yacht-10-double", {"rolls": "3"})]


def _situations(rs: Ruleset, n: int, seed: int) -> Iterator[Situation]:
    """Situations of engine games (random play), a yacht one time in four: not the
    forced first turn, not a full card."""
    sol = yacht.solve(rs).solution
    rng = random.Random(seed)
    made = game = 0
    while made < n:
        s = State(rs, [Player("A")], rng=random.Random(seed * 1000 + game))
        game += 1
        while not s.is_terminal() and made < n:
            card, turn = s.card(0), s.turns_taken(0)
            if not sol.forced_turn(card, turn):
                most = rs.max_rolls(rs.context(card, turn, 1))
                dice = tuple(rng.randint(1, rs.faces) for _ in range(rs.dice))
                if rng.random() < 0.25:
                    dice = (dice[0],) * rs.dice
                yield Situation.of(rs, card, dice, rng.randrange(most), turn)
                made += 1
            random_turn(s, random.Random(rng.random()))


def _solved(variant: str, options: dict[str, str]) -> SolvedVariant:
    return yacht.solve(variant, options)


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_a_batch_gives_what_single_calls_give(variant: str, options: dict[str, str]) -> None:
    y = _solved(variant, options)
    sits = list(_situations(y.ruleset, 150 if y.ruleset.dice <= 5 else 30, 5))
    texts = [s.text() for s in sits]
    # texts (read in C), objects, and both mixed: the same numbers
    a, b = y.situations(texts), y.situations(sits)
    c = y.situations([t if i % 2 else s for i, (t, s) in enumerate(zip(texts, sits,
                                                                       strict=True))])
    for x in (b, c):
        for field in ("mask", "aux", "outcome", "rolls_left", "card_total"):
            assert np.array_equal(getattr(a, field), getattr(x, field)), field
    final, to_come = y.batch(texts), y.batch(sits, final=False, workers=2)
    acts = final.best_action()
    for i, s in enumerate(sits):
        opts = y.options(s)
        total = float(y.ruleset.totals(s.card).grand)
        assert a.card_total[i] == total
        got = dict(final.options(i))
        assert len(got) == len(opts)
        for o in opts:
            assert got[str(o)] == pytest.approx(o.value, abs=1e-9)
        assert dict(to_come.options(i))[str(opts[0])] == pytest.approx(opts[0].value - total,
                                                                        abs=1e-9)
        assert final.best_value()[i] == pytest.approx(opts[0].value, abs=1e-9)
        # the best action in notation: the single call's, or a tie with it
        assert got[acts[i]] == pytest.approx(opts[0].value, abs=1e-9)
        assert acts[i] == str(y.best(texts[i])) or opts[0].loss == opts[1].loss


def test_arrays_in_and_the_points_to_come() -> None:
    y = _solved("yatzy", {})
    sits = list(_situations(y.ruleset, 40, 2))
    rows = y.situations(sits)
    plain = Situations.of(rows.mask, rows.aux, rows.outcome, rows.rolls_left)
    assert y.situations(plain) is plain
    with pytest.raises(AdviceError, match="final totals need the points on each card"):
        y.batch(plain)
    to_come = y.batch(plain, final=False)
    again = y.batch(Situations.of(rows.mask, rows.aux, rows.outcome, rows.rolls_left,
                                  rows.card_total))
    assert np.allclose(to_come.best_value() + rows.card_total, again.best_value(), atol=1e-9)
    with pytest.raises(ValueError, match="one length"):
        Situations.of([0, 1], [0], [0, 0], [0, 0])
    with pytest.raises(AdviceError, match="out of range"):
        y.batch(Situations.of([0], [0], [10**6], [0]), final=False)


def test_single_calls_take_the_same_flag() -> None:
    y = _solved("yahtzee", {})
    for where in ["13356 r2 ones=3,fours=12", "1,3,3,5,6 r1 t2 ones=3 fours=12",
                  "66666 r0 yahtzee=50,sixes=24,extra=200"]:
        s = y.situation(where)
        total = float(y.ruleset.totals(s.card).grand)
        assert total > 0
        for w in (where, s):
            assert y.value(w, final=False) == pytest.approx(y.value(w) - total, abs=1e-9)
            assert y.best(w, final=False).value == pytest.approx(y.best(w).value - total,
                                                                 abs=1e-9)
            fin, come = y.options(w), y.options(w, final=False)
            assert [str(o) for o in fin] == [str(o) for o in come]
            assert all(a.value - b.value == pytest.approx(total, abs=1e-9)
                       for a, b in zip(fin, come, strict=True))
    assert y.value(None, final=False) == y.value(None) == y.expected_score
    assert y.value("- ones=3", final=False) == pytest.approx(y.value("- ones=3") - 3)


def test_bad_situations_in_a_batch_are_named() -> None:
    y = _solved("yahtzee", {})
    cases = [("situation 2: dice", ["13356 r2", "1x356 r2"]),
             ("situation 1: no dice showing", ["- ones=3"]),
             ("situation 3: .*full", ["11111 r0", "11111 r0", "11111 r0 " + ",".join(
                 f"{c.id}=0" for c in y.ruleset.categories)]),
             ("situation 1: int is not a situation", [3]),
             ("situation 1: .*extra", ["13356 r2 ones=3,extra=100"]),
             ("situation 1: .*extra", ["13356 r2 yahtzee=50,extra=150"]),
             ("a batch is a list", "13356 r2")]
    for message, items in cases:
        with pytest.raises(AdviceError, match=message):
            y.batch(items)  # type: ignore[arg-type]
    other = yacht.solve("yatzy").situation("13356 r2")
    with pytest.raises(AdviceError, match="situation 1: a situation of yatzy"):
        y.batch([other])
    with pytest.raises(AdviceError, match="forced first turn"):
        yacht.solve("tommys-yacht").batch(["11111 r2"])
    with pytest.raises(AdviceError, match="repeat box"):
        yacht.solve("tommys-yahtzee").batch(["11111 r2"])
    assert len(y.batch([])) == 0


def test_the_python_reader_gives_what_the_c_reader_gives() -> None:
    y = _solved("yahtzee", {"joker": "free"})
    sits = list(_situations(y.ruleset, 200, 9))
    sits += [y.situation(t) for t in ["66666 r1 yahtzee=50,extra=300", "12345 r0 ones=1,chance=17",
                                      "66666 r0 yahtzee=50,sixes=30,chance=30,extra=100"]]
    texts = [s.text() for s in sits]
    assert sum(s.card.extra > 0 for s in sits) >= 2
    slow_y = SolvedVariant(y.ruleset)
    slow_y._native = slow_y._module = None  # as without the C extension
    for items in (texts, sits):
        fast, slow = y.situations(items), slow_y.situations(items)
        for field in ("mask", "aux", "outcome", "rolls_left", "card_total"):
            assert np.array_equal(getattr(fast, field), getattr(slow, field)), field


def test_cards_with_extra_points_take_the_c_path() -> None:
    y = _solved("yahtzee", {})
    rs = y.ruleset
    text = "13356 r1 ones=3,yahtzee=50,extra=200"
    s = y.situation(text)
    assert s.card.extra == 200
    assert y._text_extra(text, 0) is not None  # the C extension answers it
    assert y.options(text) == y.options(s)
    assert y.best(text) == y.options(s)[0]
    assert y.options(text)[0].value == pytest.approx(y.options("13356 r1 ones=3,yahtzee=50")[
        0].value + 200, abs=1e-9)
    # what the card parser refuses, the C path declines (the same error follows)
    for bad in ["13356 r1 ones=3,yahtzee=50,extra=150", "13356 r1 ones=3,extra=100",
                "13356 r1 ones=3,yahtzee=0,extra=100",
                f"13356 r1 yahtzee=50,extra={100 * rs.turns}"]:
        assert y._text_extra(bad, 1) is None
        with pytest.raises(AdviceError, match="extra"):
            y.best(bad)
    assert y._text_extra("13356 r1 ones=3,yahtzee=50,extra=0", 1) == y.best(
        "13356 r1 ones=3,yahtzee=50")
    # no extra points in the rules: declined, and the parser says why
    yz = _solved("yatzy", {})
    assert yz._text_extra("13356 r1 ones=3,extra=100", 1) is None
    with pytest.raises(AdviceError, match="no points outside the boxes"):
        yz.best("13356 r1 ones=3,extra=100")


def test_games_with_their_decisions() -> None:
    y = _solved("yatzy", {})
    d = y.simulate(4, seed=3, decisions=True)
    assert d == d and len(d.log) == 4 and d.games == 4
    again = y.simulate(4, seed=3, decisions=True)
    assert [g.steps for g in d.log] == [g.steps for g in again.log]
    assert [g.steps for g in y.simulate(4, seed=4, decisions=True).log] != [
        g.steps for g in d.log]
    for game, total in zip(d.log, d.totals, strict=True):
        assert game.total == total
        scores = [st for st in game.steps if st.action.startswith("score ")]
        assert len(scores) == len(y.ruleset.categories)
        for step in game.steps:
            assert step.best
            assert str(y.best(step.situation)) == step.action or y.options(
                step.situation)[1].loss == 0
            assert y.best(step.situation).value == pytest.approx(step.value, abs=1e-9)
        # the last decision's value is the final total
        assert game.steps[-1].value == pytest.approx(total, abs=1e-9)


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_export_jsonl_and_parquet(tmp_path: Path) -> None:
    import pyarrow.parquet as pq  # the test extra has it (and the parquet extra)

    y = _solved("yahtzee", {})
    a, b = tmp_path / "a.jsonl", tmp_path / "b.parquet"
    assert y.export(str(a), 300, seed=2) == 300
    assert y.export(str(b), 300, seed=2, format="parquet", final=False) == 300
    rows = _rows(a)
    table = pq.read_table(b).to_pylist()
    assert len(rows) == len(table) == 300
    assert [r["situation"] for r in rows] == [r["situation"] for r in table]
    assert len({r["situation"] for r in rows}) > 250  # random situations, not one game's
    assert any(r["card_total"] > 0 for r in rows) and any(r["card_total"] == 0 for r in rows)
    for r, t in zip(rows[::7], table[::7], strict=True):
        opts = y.options(r["situation"])
        assert r["actions"] == t["actions"] == [str(o) for o in opts]
        assert r["values"] == pytest.approx([o.value for o in opts], abs=1e-9)
        assert t["values"] == pytest.approx([o.value - r["card_total"] for o in opts],
                                            abs=1e-9)
        assert (r["best"], r["value"], r["final"], t["final"]) == (
            r["actions"][0], r["values"][0], True, False)
        assert r["variant"] == y.ruleset.key
    # the same seed, the same rows; another seed, others
    c = tmp_path / "c.jsonl"
    y.export(str(c), 300, seed=2)
    assert c.read_bytes() == a.read_bytes()
    y.export(str(c), 300, seed=3)
    assert c.read_bytes() != a.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.parquet", "c.jsonl"]


@pytest.mark.parametrize("format", ["jsonl", "parquet"])
def test_export_to_a_folder_that_does_not_exist_names_the_path(tmp_path: Path,
                                                               format: str) -> None:
    """The error named a temporary file (``.rows.jsonl.k3j2.123.tmp``) the user never gave:
    now the user's path, and that its folder does not exist."""
    y = yacht.solve("tommys-crag")
    path = tmp_path / "missing" / f"rows.{format}"
    with pytest.raises(FileNotFoundError) as got:
        y.export(str(path), 5, format=format)
    assert got.value.filename == str(path)
    assert f"the folder {tmp_path / 'missing'} does not exist" in str(got.value)
    assert ".tmp" not in str(got.value)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError, match="is not a folder") as not_dir:
        y.export(tmp_path / "file" / "rows.jsonl", 5)  # type: ignore[arg-type]
    assert not_dir.value.filename == str(tmp_path / "file" / "rows.jsonl")


def test_export_refused_by_the_folder_names_the_path(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    def refused(*args: Any, **kwargs: Any) -> Any:  # (a folder we may not write to)
        raise PermissionError(13, "Permission denied", str(tmp_path / ".rows.jsonl.x.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)
    with pytest.raises(PermissionError) as got:
        yacht.solve("tommys-crag").export(str(tmp_path / "rows.jsonl"), 5)
    assert got.value.filename == str(tmp_path / "rows.jsonl") and ".tmp" not in str(got.value)


@pytest.mark.parametrize("variant", ["yatzy", "tommys-yacht", "tommys-yahtzee"])
def test_export_rows_are_the_options(tmp_path: Path, variant: str) -> None:
    """Every row as options() gives it (batches where they cover the turn; the forced
    first turn and the repeat box one by one)."""
    y = _solved(variant, {})
    out = tmp_path / "x.jsonl"
    y.export(str(out), 400, seed=1, final=False)
    rows = _rows(out)
    forced = sum(y.solution.forced_turn(y.situation(r["situation"]).card,
                                        y.situation(r["situation"]).turn) for r in rows)
    assert (forced > 0) == (variant == "tommys-yacht")
    for r in rows:
        opts = y.options(r["situation"], final=False)
        assert r["actions"] == [str(o) for o in opts]
        assert r["values"] == pytest.approx([o.value for o in opts], abs=1e-9)
        assert r["card_total"] == y.ruleset.totals(y.situation(r["situation"]).card).grand


def test_export_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["export", "yatzy", "--situations", "50", "--seed", "4"]) == 0
    rows = _rows(tmp_path / "yatzy-50-4.jsonl")
    assert len(rows) == 50 and all(r["final"] for r in rows)
    assert "50 situations (seed 4) -> yatzy-50-4.jsonl" in capsys.readouterr().out
    assert main(["export", "yatzy", "--situations", "20", "--to-come", "--out", "x.jsonl",
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["rows"], got["final"], got["out"]) == (20, False, "x.jsonl")
    assert not any(r["final"] for r in _rows(tmp_path / "x.jsonl"))
    for argv, message in [
            (["--situations", "0"], "situations 0 is out of range"),
            (["--situations", "ten"], "situations"),
            (["--seed", "-1"], "seed"),
            (["--format", "csv"], "invalid choice: 'csv'"),
            (["--out", str(tmp_path)], "is a folder"),
            (["--out", str(tmp_path / "no" / "x.jsonl")], "cannot write"),
            # (JSON Lines were written into a file called .csv)
            (["--out", "x.csv"], "a .csv file is not written here (accepted: JSON Lines"),
            (["-o", "rolls=9"], "rolls")]:
        assert _run(["export", "yatzy", *argv]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.jsonl", "yatzy-50-4.jsonl"]


def _run(argv: list[str]) -> int:
    """The exit status of ``yacht ARGV`` (argparse's errors exit)."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


def test_parquet_without_pyarrow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(MissingExtra, match=r"pip install 'yacht-dice\[parquet\]'"):
        check_format("parquet")
    assert check_format("jsonl") == (None, None)
    with pytest.raises(ValueError, match="format must be one of jsonl, parquet"):
        check_format("csv")
    monkeypatch.chdir(tmp_path)
    assert main(["export", "yatzy", "--situations", "5", "--format", "parquet"]) == 2
    err = capsys.readouterr().err
    assert err == ("yacht: error: Parquet needs pyarrow: pip install 'yacht-dice[parquet]' "
                   "(or write JSON Lines: --format jsonl)\n")
    assert list(tmp_path.iterdir()) == []


def test_the_api_docs_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import doctest

    import yacht.strategy.solver as pkg

    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path / "cache"))
    doc = Path(pkg.__file__).parent / "API.md"
    result = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20
    assert result.failed == 0
