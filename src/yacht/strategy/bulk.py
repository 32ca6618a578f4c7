"""Many situations at once for :func:`yacht.solve`: the batch kernel's numbers, the
values of every option, games with their decisions, labelled data in files.

:class:`Situations` is a batch as the kernel reads it (card state, outcome,
rolls left, points on the card); ``SolvedVariant.situations(...)`` makes one from
texts or :class:`~yacht.strategy.api.Situation` objects (read in C, about a
microsecond each) or arrays, and ``SolvedVariant.batch(...)`` gives a :class:`Batch`: the
value of every box and every keep of every situation, the best of each and its
notation. :func:`play` plays seeded games and keeps each decision;
:func:`export` writes random reachable situations with every option's value as
JSON Lines or Parquet (Parquet needs pyarrow: ``pip install 'yacht-dice[parquet]'``).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from yacht.rules import YachtError
from yacht.rules.errors import InvalidValue

from .solver.numbers import whole

if TYPE_CHECKING:
    from .api import Situation, SolvedVariant
    from .ranking import Ranked

__all__ = ["FORMATS", "Batch", "Game", "MissingExtra", "Situations", "Step", "check_format",
           "export", "play", "sample"]

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

#: the file formats of :func:`export`
FORMATS = ("jsonl", "parquet")
#: the chance that a choice in the games :func:`sample` plays is a random legal one
#: instead of the best one (the games then reach cards optimal play seldom makes)
EXPLORE = 0.25


class MissingExtra(YachtError, ImportError):
    """An optional dependency is not installed (the message says how to install it)."""


@dataclass(frozen=True, eq=False)
class Situations:
    """Situations as the batch kernel reads them; row ``i`` is situation ``i``.

    ``mask`` and ``aux`` are the card's state (``Solution.spec.state_of(card)``),
    ``outcome`` the dice's index among the outcomes (``dice.index_of(d) -
    dice.full_start``), ``rolls_left`` 0 to rolls - 1, ``card_total`` the points on the
    card (NaN where not known: then only points to come can be given).
    """

    mask: I64
    aux: I64
    outcome: I64
    rolls_left: I64
    card_total: F64

    @classmethod
    def of(cls, mask: Any, aux: Any, outcome: Any, rolls_left: Any,
           card_total: Any = None) -> Situations:
        """From arrays or sequences of one length (``card_total`` None: not known). The
        first four hold whole numbers (a float that is not whole, a bool or a text is an
        InvalidValue naming the array: never cut down)."""
        m = _whole_array(mask, "mask")
        n = len(m)
        total = (np.full(n, np.nan) if card_total is None
                 else _number_array(card_total, "card_total"))
        parts = (_whole_array(aux, "aux"), _whole_array(outcome, "outcome"),
                 _whole_array(rolls_left, "rolls_left"), total)
        if any(p.ndim != 1 or len(p) != n for p in (m, *parts)):
            raise InvalidValue("mask, aux, outcome, rolls_left and card_total must be "
                               "one-dimensional and of one length")
        return cls(m, *parts)

    @classmethod
    def empty(cls, n: int) -> Situations:
        return cls(np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                   np.empty(n, np.int64), np.empty(n, np.float64))

    def __len__(self) -> int:
        return len(self.mask)


def _number_array(values: Any, name: str) -> F64:
    a = np.asarray(values)
    if a.dtype.kind not in "iuf":
        raise InvalidValue(f"{name} must hold numbers, not {a.dtype} values")
    return np.ascontiguousarray(a, dtype=np.float64)


def _whole_array(values: Any, name: str) -> I64:
    a = np.asarray(values)
    if a.dtype.kind == "f" and not (np.isfinite(a).all() and np.array_equal(a, np.floor(a))):
        raise InvalidValue(f"{name} must hold whole numbers (a float is never cut down)")
    if a.dtype.kind not in "iuf":
        raise InvalidValue(f"{name} must hold whole numbers, not {a.dtype} values")
    return np.ascontiguousarray(a, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Batch:
    """The value of every option of every situation of a batch (row ``i``: situation
    ``i``). Values are expected final totals when ``final`` (the points on the card
    included), else the expected points still to come.

    ``box_value[i, b]`` scores box ``b`` (``boxes[b]`` names it; NaN where the rules do
    not allow it); ``keep_value[i, j]`` keeps the multiset ``keep_index[i, j]`` and
    rolls the rest (-1 and NaN past the situation's keeps, and everywhere with no roll
    left). ``best_action()`` writes each situation's best choice in the notation of
    ``str(Option)``.
    """

    situations: Situations
    final: bool
    box_value: F64
    keep_value: F64
    keep_index: I64
    boxes: tuple[str, ...]             # per box: "score chance", "score chance@2"
    keeps: tuple[str, ...]             # per kept multiset index: "keep 3 3"

    def __len__(self) -> int:
        return len(self.box_value)

    def __repr__(self) -> str:
        # (not the arrays: a batch may hold millions of rows)
        what = "final totals" if self.final else "points to come"
        return f"<Batch of {len(self)} situations ({what}): {len(self.boxes)} boxes, " \
               f"up to {self.keep_value.shape[1]} keeps each>"

    def values(self) -> F64:
        """Every option in one array: the boxes, then the keeps (n, boxes + keeps)."""
        return np.concatenate([self.box_value, self.keep_value], axis=1)

    def best_index(self) -> I64:
        """Each situation's best option as a column of :meth:`values` (the first of a tie:
        boxes in card order, then keeps)."""
        return self._best()[0]

    def best_value(self) -> F64:
        """Each situation's best value."""
        return self._best()[1]

    def _best(self) -> tuple[I64, F64]:
        n = len(self)
        col = np.empty(n, dtype=np.int64)
        val = np.empty(n, dtype=np.float64)
        step = 4096  # rows at a time: the values stay in the cache
        for lo in range(0, n, step):
            hi = min(n, lo + step)
            v = np.concatenate([self.box_value[lo:hi], self.keep_value[lo:hi]], axis=1)
            np.nan_to_num(v, copy=False, nan=-np.inf)
            c = v.argmax(axis=1)
            col[lo:hi] = c
            val[lo:hi] = v[np.arange(hi - lo), c]
        return col, val

    def best_action(self) -> list[str]:
        """Each situation's best option in notation (``"keep 3 3"``, ``"score chance"``)."""
        col = self.best_index()
        nb = self.box_value.shape[1]
        rows = np.arange(len(col))
        kept = self.keep_index[rows, np.maximum(col - nb, 0)]
        code = np.where(col < nb, col, nb + kept)
        names = np.array(self.boxes + self.keeps, dtype=object)
        out: list[str] = names[code].tolist()
        return out

    def options(self, i: int) -> list[tuple[str, float]]:
        """Situation ``i``'s options with their values, best first (ties: boxes in card
        order, then keeps); ``i`` from 0 to ``len(batch) - 1`` (or from the end, as
        a list's index)."""
        n = len(self)
        i = whole(i, "a situation's index")
        if not -n <= i < n:
            raise InvalidValue(f"no situation {i}: the batch holds {n} "
                               f"({'none' if not n else f'0-{n - 1}'})")
        pairs = [(self.boxes[b], float(v)) for b, v in enumerate(self.box_value[i]) if v == v]
        pairs += [(self.keeps[k], float(v))
                  for k, v in zip(self.keep_index[i], self.keep_value[i], strict=True)
                  if k >= 0]
        return sorted(pairs, key=lambda p: -p[1])


# --- games --------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    """One decision of a game: the situation (its notation), the choice (the notation of
    ``str(Option)``) and the choice's expected final total; ``best`` is False for a
    random choice of :func:`sample`'s games."""

    situation: str
    action: str
    value: float
    best: bool = True


@dataclass(frozen=True)
class Game:
    """One game played alone: its seed, final total and every decision in order."""

    seed: int
    total: int
    steps: tuple[Step, ...]


def play(sv: SolvedVariant, games: int, seed: int, explore: float = 0.0) -> Iterator[Game]:
    """``games`` games from an empty card, each choice the best one (or, with chance
    ``explore``, a random one of the legal choices), through the rules engine. Game
    ``g`` rolls its dice from a generator seeded by ``(seed, g)`` alone: the same seed
    gives the same games."""
    from .ranking import Option

    for game_seed, total, steps in _games(sv, games, seed, explore):
        yield Game(game_seed, total, tuple(
            Step(where.text(), str(Option(c.kind, c.keep, c.category, c.column, c.expected,
                                          c.loss)), c.expected, best)
            for where, c, best in steps))


def _games(sv: SolvedVariant, games: int, seed: int, explore: float) -> Iterator[
        tuple[int, int, list[tuple[Situation, Ranked, bool]]]]:
    """:func:`play`'s games: (seed, final total, [(situation, choice, best)])."""
    from yacht.engine import Player, Roll, State

    from .advisor import advise
    from .api import Situation

    rs = sv.ruleset
    sol = sv.solution
    for g in range(games):
        game_seed = _game_seed(seed, g)
        rng = random.Random(game_seed)
        pick = random.Random(game_seed ^ 0x5EED)
        state = State(rs, [Player("Computer", "computer", "expert")], rng=rng)
        steps: list[tuple[Situation, Ranked, bool]] = []
        while not state.is_terminal():
            if not state.dice:
                state.apply(Roll())
                continue
            ranked = advise(state, sol)
            choice = ranked[0]
            if explore and pick.random() < explore:
                choice = pick.choice(ranked)
            where = Situation.from_state(state)
            steps.append((where, choice, choice is ranked[0] or choice.loss == 0))
            for action in choice.decision().actions():
                state.apply(action)
        yield game_seed, state.totals(0).grand, steps


def _game_seed(seed: int, game: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + game) % 2**63


def sample(sv: SolvedVariant, n: int, seed: int) -> list[Situation]:
    """``n`` random reachable situations with dice showing: every decision of games of
    :func:`play` with ``explore`` :data:`EXPLORE`, game after game."""
    out: list[Situation] = []
    for _seed, _total, steps in _games(sv, n, seed, EXPLORE):  # (n games: always enough)
        out += [where for where, _c, _b in steps[:n - len(out)]]
        if len(out) == n:
            break
    return out


# --- labelled data --------------------------------------------------------------------

def export(sv: SolvedVariant, path: str | os.PathLike[str], situations: int, seed: int = 0,
           format: str = "jsonl", final: bool = True) -> int:
    """Write ``situations`` random reachable situations (:func:`sample`) with every
    option's value and the best one, one row each; returns the number of rows.

    A row: ``variant`` (the ruleset's key), ``situation`` (the notation), ``card_total``,
    ``actions`` and ``values`` (every option, best first, in the notation of
    ``str(Option)``), ``best`` and ``value`` (the first of them) and ``final`` (values
    are expected final totals, else points still to come).

    A ``path`` that cannot be written raises the ``OSError`` that ``open`` would, naming
    ``path`` (never the temporary file the rows go to first): a folder that does not
    exist is a ``FileNotFoundError`` that says so, checked before any row is worked out.

    >>> import yacht
    >>> export(yacht.solve("tommys-crag"), "/no/dir/x.jsonl", 3)
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] the folder /no/dir does not exist: '/no/dir/x.jsonl'
    """
    from .advisor import AdviceError

    situations = whole(situations, "situations", lo=1, error=AdviceError)
    seed = whole(seed, "seed", error=AdviceError)
    pa, pq = check_format(format)
    path = os.fspath(path)
    folder, name = os.path.split(os.path.abspath(path))
    _check_folder(path, folder)
    rows = list(_rows(sv, sample(sv, situations, seed), final))
    # (named as the atomic saves' .NAME.PID.tmp: an interrupted command removes it)
    try:
        fd, part = tempfile.mkstemp(prefix=f".{name}.", suffix=f".{os.getpid()}.tmp",
                                    dir=folder)
    except OSError as e:  # (the error of the user's path, not of the temporary file)
        _check_folder(path, folder)
        raise type(e)(e.errno, e.strerror, path) from None
    try:  # written whole, then put in place: never a half-written file at ``path``
        with os.fdopen(fd, "wb") as f:
            if format == "jsonl":
                import orjson

                for row in rows:
                    f.write(orjson.dumps(row))
                    f.write(b"\n")
            else:
                table = pa.Table.from_pylist(rows, schema=pa.schema([
                    ("variant", pa.string()), ("situation", pa.string()),
                    ("card_total", pa.float64()), ("actions", pa.list_(pa.string())),
                    ("values", pa.list_(pa.float64())), ("best", pa.string()),
                    ("value", pa.float64()), ("final", pa.bool_())]))
                pq.write_table(table, f)
        os.replace(part, path)
    except BaseException:
        os.unlink(part)
        raise
    return len(rows)


def _check_folder(path: str, folder: str) -> None:
    """``FileNotFoundError`` (or ``NotADirectoryError``) naming ``path`` when its folder
    does not exist (or is no folder)."""
    import errno

    if not os.path.exists(folder):
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} does not exist", path)
    if not os.path.isdir(folder):
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder", path)


def check_format(format: str) -> tuple[Any, Any]:
    """Raise ValueError for an unknown format, :class:`MissingExtra` for Parquet without
    pyarrow; (pyarrow, pyarrow.parquet) for Parquet, else (None, None)."""
    if format not in FORMATS:
        raise InvalidValue(f"format must be one of {', '.join(FORMATS)}, not {format!r}")
    if format != "parquet":
        return None, None
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingExtra("Parquet needs pyarrow: pip install 'yacht-dice[parquet]' (or "
                           "write JSON Lines: --format jsonl)") from None
    return pa, pq


def _rows(sv: SolvedVariant, situations: Sequence[Situation], final: bool
          ) -> Iterator[dict[str, Any]]:
    key = sv.ruleset.key
    for where, total, actions, values in _labels(sv, situations, final):
        yield {"variant": key, "situation": where.text(), "card_total": total,
               "actions": actions, "values": values, "best": actions[0],
               "value": values[0], "final": final}


def _labels(sv: SolvedVariant, situations: Sequence[Situation], final: bool,
            step: int = 4096) -> Iterator[tuple[Situation, float, list[str], list[float]]]:
    """Each situation with its card's points and its options (notation and value, best
    first, as ``options`` orders them): a batch at a time where the batch kernel covers
    them, else one by one."""
    from .solver.batch import supported

    sol = sv.solution
    whole = supported(sol)
    for lo in range(0, len(situations), step):
        part = situations[lo:lo + step]
        normal = [s for s in part if whole and not sol.forced_turn(s.card, s.turn)]
        rows = iter(_batch_labels(sv, normal, final) if normal else ())
        for where in part:
            if normal and not sol.forced_turn(where.card, where.turn):
                yield (where, *next(rows))
                continue
            total = float(sv.ruleset.totals(where.card).grand)
            opts = sv.options(where, final=final)
            yield where, total, [str(o) for o in opts], [o.value for o in opts]


def _batch_labels(sv: SolvedVariant, situations: Sequence[Situation], final: bool
                  ) -> Iterator[tuple[float, list[str], list[float]]]:
    b = sv.batch(situations, final=False)  # ordered by the points to come, as options()
    values = b.values()
    nb = b.box_value.shape[1]
    listed = ~np.isnan(values)
    # best first, ties in column order (boxes in card order, then keeps): as options()
    order = np.argsort(np.where(listed, -values, np.inf), axis=1, kind="stable")
    code = np.concatenate([np.broadcast_to(np.arange(nb), b.box_value.shape),
                           nb + b.keep_index], axis=1)
    names = np.array(b.boxes + b.keeps, dtype=object)
    counts = listed.sum(axis=1)
    rows = np.arange(len(values))[:, None]
    acts = names[code[rows, order]]
    vals = values[rows, order]
    if final:
        vals = b.situations.card_total[:, None] + vals  # (the sum options() makes)
    totals = b.situations.card_total.tolist()
    for i, k in enumerate(counts.tolist()):
        yield totals[i], acts[i, :k].tolist(), vals[i, :k].tolist()
