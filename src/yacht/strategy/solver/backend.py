"""The solver's kernels: the C extension ``_native``, and what happens without it.

The kernels are written once, in C (``_native.c`` and its headers), compiled
from the project's sources when the package is installed (``setup.py``); they
load in a millisecond and need no warm-up. :mod:`.reference` writes the same
recurrences in plain Python for the tests to check them against.

An installation without the extension (no C compiler at install time,
``YACHT_BUILD_NATIVE=0``, or an extension built from older sources) has no
exact solver: :func:`current` raises :class:`BackendUnavailable` (an
:class:`~.spec.UnsupportedRuleset`, one line saying so and how to mend it), so
the solver's levels (expert, champion, the hint, the analysis) report that
line where they report a variant they cannot solve; the other levels and the
games themselves do not need it. ``YACHT_SOLVER_BACKEND=native`` (or ``auto``,
the default) is the only backend.

>>> current().name
'native'
"""

from __future__ import annotations

import os
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple, Protocol

import numpy.typing as npt

from .spec import Spec, UnsupportedRuleset
from .tables import kernel_tables, relaxed_tables, tile_width

__all__ = ["ENV", "Backend", "BackendUnavailable", "DistLayer", "DistOut", "current",
           "native_module"]

ENV = "YACHT_SOLVER_BACKEND"
Arr = npt.NDArray[Any]


class BackendUnavailable(UnsupportedRuleset):
    """The solver's kernels cannot be used here (the C extension is not built, or built
    from older sources, or ``YACHT_SOLVER_BACKEND`` names no backend)."""


_NATIVE: list[ModuleType | None] = []
_WHY: list[str] = []   # why not, when _NATIVE holds None


API_VERSION = 4  # of _native.c's entry points


def native_module() -> ModuleType | None:
    """The C extension, or None when it is not built (or built for another processor,
    or from older sources than the ones beside it)."""
    if not _NATIVE:
        try:
            from . import _native

            ok = _current(_native)
            _NATIVE.append(_native if ok else None)
            _WHY.append("" if ok else STALE)
        except ImportError as e:
            _NATIVE.append(None)
            _WHY.append(OTHER if "processor" in str(e) else MISSING)
    return _NATIVE[0]


def _current(mod: ModuleType) -> bool:
    import hashlib
    from pathlib import Path

    here = Path(__file__).parent
    stale = getattr(mod, "API_VERSION", None) != API_VERSION
    sources = [here / "_native.c", here / "_native_tile.h", here / "_native_advice.h",
               here / "_native_bulk.h", here / "_native_dist.h"]
    built = getattr(mod, "SOURCE_HASH", "")
    if not stale and built and all(p.exists() for p in sources):
        h = hashlib.sha256()
        for p in sources:
            h.update(p.read_bytes())
        stale = h.hexdigest()[:16] != built
    return not stale


class Backend(Protocol):
    """What the solver asks of its kernels (all arrays C-contiguous)."""

    name: str

    def build_layer(self, spec: Spec, layer: Arr, Vp: Arr, S: int, plan: Any,
                    threads: int, tables: Any = None) -> None: ...

    def relaxed(self, spec: Spec, layer_rolls: Arr, roll_cost: Any) -> Any: ...

    def build_repeat_layer(self, spec: Spec, layer: Arr, V: Arr, umax: Arr,
                           threads: int) -> None: ...

    def option_values(self, spec: Spec, V: Arr, sm: Arr, sa: Arr, sd: Arr, sr: Arr,
                      keep_out: Arr, box_out: Arr, threads: int) -> None: ...

    def situation(self, spec: Spec, V: Arr, m: int, a: int, d: int, r: int, keep_out: Arr,
                  box_out: Arr) -> None: ...

    def state_turn(self, spec: Spec, V: Arr, m: int, a: int, E0: Arr, Ks: Arr) -> None: ...

    def play(self, spec: Spec, V: Arr, games: int, seed: int, start: tuple[int, ...],
             forced: tuple[int, ...], fkeep: Arr, totals: Arr, bonus: Arr, yachts: Arr,
             lockstep: bool, threads: int) -> None: ...

    def skip_layer(self, spec: Spec, layer: Arr, V: Arr, threads: int) -> None: ...

    def target_layer(self, spec: Spec, sm: Arr, sa: Arr, A: int, off: Arr, wlo: Arr,
                     wlen: Arr, Q: Arr, threads: int) -> None: ...

    def target_turn(self, spec: Spec, m: int, a: int, s: int, A: int, off: Arr, wlo: Arr,
                    wlen: Arr, Q: Arr, E0: Arr, Ks: Arr, B: Arr) -> None: ...

    def dist_chunk(self, spec: Spec, V: Arr, layer: DistLayer, i0: int, i1: int,
                   out: DistOut) -> int: ...

    def dist_quantize(self, P: Arr, pos: Arr, lo: Arr, length: Arr, C: Arr, coff: Arr,
                      first: Arr, kept: Arr, steps: int) -> int: ...


#: chances solved side by side in a target table's turn
TARGET_TILE = 32


def _advise_tile(spec: Spec, n: int, least: int = 8) -> int:
    # a few situations: a narrow tile (less scratch, in cache); 1 (native), 8, 16, 32, 64
    if n <= least:
        return least
    tile = 8
    while tile < n and tile < tile_width(spec):
        tile *= 2
    return tile


class DistLayer(NamedTuple):
    """One layer of the score distributions' build (see :mod:`.dist`): its states, and
    the layer below's float32 distributions (state ``j``'s chances of ``dlo[j]``,
    ``dlo[j] + 1``, ... points are ``P[off[j]:off[j] + dlen[j]]``)."""

    states: Arr     # masks (int64)
    auxs: Arr       # flag * U + upper total (int64)
    ulo: Arr        # per mask: upper totals up to it share a state
    off: Arr
    dlo: Arr
    dlen: Arr
    P: Arr          # float32
    eps: float      # the mass each tail may leave out
    width: int      # the most points to come (+ 1)


class DistOut(NamedTuple):
    """Where :meth:`Backend.dist_chunk` writes: the distributions one after the other in
    ``buf`` (float32), state ``i``'s at ``pos[i]``, from ``lo[i]`` points, ``length[i]``
    long."""

    buf: Arr
    lo: Arr
    length: Arr
    pos: Arr


class NativeBackend:
    name = "native"

    def __init__(self, mod: ModuleType):
        self.mod = mod

    @lru_cache(maxsize=32)  # noqa: B019 - one instance per process, specs are few
    def tables(self, spec: Spec) -> Any:
        return self.mod.Tables(kernel_tables(spec))

    def build_layer(self, spec: Spec, layer: Arr, Vp: Arr, S: int, plan: Any,
                    threads: int, tables: Any = None) -> None:
        chunk = max(1, len(layer) // (threads * 8)) if len(layer) > 64 else max(
            1, -(-len(layer) // threads))
        self.mod.build_layer(self.tables(spec) if tables is None else tables, layer, Vp, S,
                             plan.ulo, plan.usub, plan.uoff, plan.ulist, plan.nflag,
                             tile_width(spec), threads, chunk)

    def relaxed(self, spec: Spec, layer_rolls: Arr, roll_cost: Any) -> Any:
        """The kernels' tables of ``spec``'s relaxed game (see
        :func:`.tables.relaxed_tables`), for ``build_layer(..., tables=)``."""
        return self.mod.Tables(relaxed_tables(spec, layer_rolls, roll_cost))

    def build_repeat_layer(self, spec: Spec, layer: Arr, V: Arr, umax: Arr,
                           threads: int) -> None:
        self.mod.build_repeat_layer(self.tables(spec), layer, V, umax, threads)

    def option_values(self, spec: Spec, V: Arr, sm: Arr, sa: Arr, sd: Arr, sr: Arr,
                      keep_out: Arr, box_out: Arr, threads: int) -> None:
        self.mod.option_values(self.tables(spec), V, sm, sa, sd, sr, keep_out, box_out,
                               _advise_tile(spec, len(sm), 1), threads)

    def situation(self, spec: Spec, V: Arr, m: int, a: int, d: int, r: int, keep_out: Arr,
                  box_out: Arr) -> None:
        self.mod.situation(self.tables(spec), V, m, a, d, r, keep_out, box_out)

    def state_turn(self, spec: Spec, V: Arr, m: int, a: int, E0: Arr, Ks: Arr) -> None:
        self.mod.state_turn(self.tables(spec), V, m, a, E0, Ks)

    def play(self, spec: Spec, V: Arr, games: int, seed: int, start: tuple[int, ...],
             forced: tuple[int, ...], fkeep: Arr, totals: Arr, bonus: Arr, yachts: Arr,
             lockstep: bool, threads: int) -> None:
        self.mod.play(self.tables(spec), V, games, seed, start, forced, fkeep, totals, bonus,
                      yachts, lockstep, tile_width(spec), threads)

    def skip_layer(self, spec: Spec, layer: Arr, V: Arr, threads: int) -> None:
        self.mod.skip_layer(self.tables(spec), layer, V, V.shape[1], tile_width(spec), threads)

    def target_layer(self, spec: Spec, sm: Arr, sa: Arr, A: int, off: Arr, wlo: Arr,
                     wlen: Arr, Q: Arr, threads: int) -> None:
        self.mod.target_layer(self.tables(spec), sm, sa, A, off, wlo, wlen, Q, TARGET_TILE,
                              threads)

    def target_turn(self, spec: Spec, m: int, a: int, s: int, A: int, off: Arr, wlo: Arr,
                    wlen: Arr, Q: Arr, E0: Arr, Ks: Arr, B: Arr) -> None:
        self.mod.target_turn(self.tables(spec), m, a, s, A, off, wlo, wlen, Q, E0, Ks, B)

    def dist_chunk(self, spec: Spec, V: Arr, layer: DistLayer, i0: int, i1: int,
                   out: DistOut) -> int:
        return int(self.mod.dist_chunk(
            tables=self.tables(spec), V=V, states=layer.states, auxs=layer.auxs, start=i0,
            stop=i1, ulo=layer.ulo, off=layer.off, dlo=layer.dlo, dlen=layer.dlen, P=layer.P,
            eps=layer.eps, width=layer.width, buf=out.buf, out_lo=out.lo, out_len=out.length,
            out_pos=out.pos))

    def dist_quantize(self, P: Arr, pos: Arr, lo: Arr, length: Arr, C: Arr, coff: Arr,
                      first: Arr, kept: Arr, steps: int) -> int:
        return int(self.mod.dist_quantize(P, pos, lo, length, C, coff, first, kept,
                                          float(steps)))


_BACKENDS: dict[str, Backend] = {}


_BY_ENV: dict[str, Backend] = {}


def current() -> Backend:
    """The kernels (the C extension); :class:`BackendUnavailable` without them."""
    raw = os.environ.get(ENV, "")
    hit = _BY_ENV.get(raw)
    if hit is None:
        hit = _BY_ENV[raw] = _choose(raw)
    return hit


#: what a solver level says without the extension (one line)
MISSING = ("the exact solver is not available: its C extension was not compiled when yacht "
           "was installed (reinstall with a C compiler: pip install -e .); the beginner and "
           "intermediate levels play without it")
OTHER = ("the exact solver is not available: its C extension was compiled for another "
         "processor (reinstall on this machine: pip install -e .)")
STALE = ("the exact solver is not available: its C extension was compiled from older sources "
         "(reinstall to rebuild it: pip install -e .)")


def _choose(raw: str) -> Backend:
    want = raw.strip().lower() or "auto"
    if want not in ("auto", "native"):
        raise BackendUnavailable(f"{ENV}={want!r} is not a backend (accepted: native, auto)")
    mod = native_module()
    if mod is None:
        raise BackendUnavailable(_WHY[0] if _WHY and _WHY[0] else MISSING)
    if "native" not in _BACKENDS:
        _BACKENDS["native"] = NativeBackend(mod)
    return _BACKENDS["native"]

