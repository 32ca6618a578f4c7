"""The kernels' two implementations, and which one runs.

* ``native``: the C extension ``_native`` (``_native.c``), compiled from the
  project's sources when the package is installed (``setup.py``). It loads in
  a millisecond and needs no warm-up; this path never imports numba.
* ``numba``: the numba kernels of :mod:`.kernels` and :mod:`.wide`, compiled
  on first use and kept in numba's cache; the fallback when the extension
  could not be built.

``YACHT_SOLVER_BACKEND=native|numba`` forces one (``auto``, the default,
prefers ``native``). Both take the same :class:`~.tables.KernelTables`,
give the same values (to rounding) and play the same self-play games.

>>> current().name in ("native", "numba")
True
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from .spec import Spec
from .tables import kernel_tables, tile_width

__all__ = ["ENV", "Backend", "BackendUnavailable", "DistLayer", "DistOut", "current",
           "native_module"]

ENV = "YACHT_SOLVER_BACKEND"
Arr = npt.NDArray[Any]


class BackendUnavailable(RuntimeError):
    """The backend asked for by ``YACHT_SOLVER_BACKEND`` cannot be used."""


_NATIVE: list[ModuleType | None] = []


API_VERSION = 2  # of _native.c's entry points


def native_module() -> ModuleType | None:
    """The C extension, or None when it is not built (or built for another processor,
    or from older sources than the ones beside it: then a one-line warning)."""
    if not _NATIVE:
        try:
            from . import _native

            _NATIVE.append(_native if _current(_native) else None)
        except ImportError:
            _NATIVE.append(None)
    return _NATIVE[0]


def _current(mod: ModuleType) -> bool:
    import hashlib
    import sys
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
    if stale:
        print("yacht: warning: the native solver was built from older sources; using the "
              "numba kernels (reinstall to rebuild it: pip install -e .)", file=sys.stderr)
    return not stale


class Backend(Protocol):
    """What the solver asks of its kernels (all arrays C-contiguous)."""

    name: str

    def build_layer(self, spec: Spec, layer: Arr, Vp: Arr, S: int, plan: Any,
                    threads: int) -> None: ...

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
                    threads: int) -> None:
        chunk = max(1, len(layer) // (threads * 8)) if len(layer) > 64 else max(
            1, -(-len(layer) // threads))
        self.mod.build_layer(self.tables(spec), layer, Vp, S, plan.ulo, plan.usub, plan.uoff,
                             plan.ulist, plan.nflag, tile_width(spec), threads, chunk)

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


def _spread(fn: Callable[[int, int], None], total: int, chunks: int, threads: int) -> None:
    """Run ``fn(lo, hi)`` over ``chunks`` pieces of ``range(total)`` on ``threads`` threads."""
    chunks = max(1, min(chunks, total))
    edges = [total * i // chunks for i in range(chunks + 1)]
    parts = [(edges[i], edges[i + 1]) for i in range(chunks) if edges[i] < edges[i + 1]]
    if threads <= 1 or len(parts) <= 1:
        for lo, hi in parts:
            fn(lo, hi)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(threads) as pool:
        for f in [pool.submit(fn, lo, hi) for lo, hi in parts]:
            f.result()


class NumbaBackend:
    name = "numba"

    def __init__(self) -> None:
        from . import kernels, wide

        self.k: Any = kernels
        self.w: Any = wide

    def build_layer(self, spec: Spec, layer: Arr, Vp: Arr, S: int, plan: Any,
                    threads: int) -> None:
        kt = kernel_tables(spec)
        tile = tile_width(spec)
        kernel = self.w.solve_chunk_wide
        chunks = threads * 8 if len(layer) > 64 else threads
        ulo, umax, nflag = plan.ulo, plan.umax, plan.nflag
        _spread(lambda lo, hi: kernel(kt, layer, lo, hi, Vp, S, ulo, umax, nflag, tile),
                len(layer), chunks, threads)

    def build_repeat_layer(self, spec: Spec, layer: Arr, V: Arr, umax: Arr,
                           threads: int) -> None:
        kt = kernel_tables(spec)
        kernel = self.k.solve_chunk
        chunks = threads * 8 if len(layer) > 64 else threads
        _spread(lambda lo, hi: kernel(kt, layer, lo, hi, V, umax), len(layer), chunks, threads)

    def option_values(self, spec: Spec, V: Arr, sm: Arr, sa: Arr, sd: Arr, sr: Arr,
                      keep_out: Arr, box_out: Arr, threads: int) -> None:
        kt = kernel_tables(spec)
        tile = _advise_tile(spec, len(sm))
        kernel = self.w.advise_chunk
        n = len(sm)
        if n < 256:
            threads = 1
        _spread(lambda lo, hi: kernel(kt, V, lo, hi, sm, sa, sd, sr, tile, keep_out, box_out),
                n, threads, threads)

    def situation(self, spec: Spec, V: Arr, m: int, a: int, d: int, r: int, keep_out: Arr,
                  box_out: Arr) -> None:
        one = np.array([m, a, d, r], dtype=np.int64)
        self.option_values(spec, V, one[0:1], one[1:2], one[2:3], one[3:4],
                           keep_out.reshape(1, -1), box_out.reshape(1, -1), 1)

    def state_turn(self, spec: Spec, V: Arr, m: int, a: int, E0: Arr, Ks: Arr) -> None:
        self.k.state_turn(kernel_tables(spec), V, m, a, E0, Ks)

    def play(self, spec: Spec, V: Arr, games: int, seed: int, start: tuple[int, ...],
             forced: tuple[int, ...], fkeep: Arr, totals: Arr, bonus: Arr, yachts: Arr,
             lockstep: bool, threads: int) -> None:
        kt = kernel_tables(spec)
        st = np.array(start, dtype=np.int64)
        fo = np.array(forced, dtype=np.int64)
        seed64 = np.uint64(int(seed) % (1 << 64))
        if lockstep:
            kernel = self.w.play_wide
            tile = tile_width(spec)

            def run(lo: int, hi: int) -> None:
                kernel(kt, V, lo, hi, seed64, st, fo, fkeep, tile, totals[lo:hi],
                       bonus[lo:hi], yachts[lo:hi])
        else:
            kernel1 = self.k.play_games

            def run(lo: int, hi: int) -> None:
                kernel1(kt, V, lo, hi, seed64, st, fo, fkeep, totals[lo:hi], bonus[lo:hi],
                        yachts[lo:hi])
        if games < 64:
            threads = 1
        _spread(run, games, threads * 4, threads)

    def skip_layer(self, spec: Spec, layer: Arr, V: Arr, threads: int) -> None:
        kt = kernel_tables(spec)
        tile = tile_width(spec)
        kernel = self.w.skip_chunk_wide
        _spread(lambda lo, hi: kernel(kt, layer, lo, hi, V, tile), len(layer), threads * 4,
                threads)

    def _target(self) -> Any:
        from . import target_kernels

        return target_kernels

    def target_layer(self, spec: Spec, sm: Arr, sa: Arr, A: int, off: Arr, wlo: Arr,
                     wlen: Arr, Q: Arr, threads: int) -> None:
        kt = kernel_tables(spec)
        kernel = self._target().target_chunk
        chunks = threads * 8 if len(sm) > 64 else threads
        _spread(lambda lo, hi: kernel(kt, sm, sa, lo, hi, A, off, wlo, wlen, Q, TARGET_TILE),
                len(sm), chunks, threads)

    def target_turn(self, spec: Spec, m: int, a: int, s: int, A: int, off: Arr, wlo: Arr,
                    wlen: Arr, Q: Arr, E0: Arr, Ks: Arr, B: Arr) -> None:
        self._target().target_turn(kernel_tables(spec), m, a, s, A, off, wlo, wlen, Q, E0,
                                   Ks, B)

    def dist_chunk(self, spec: Spec, V: Arr, layer: DistLayer, i0: int, i1: int,
                   out: DistOut) -> int:
        from . import dist_kernels

        return int(dist_kernels.dist_chunk(
            kernel_tables(spec), V, layer.states, layer.auxs, i0, i1, spec.A, layer.ulo,
            layer.off, layer.dlo, layer.dlen, layer.P, layer.eps, layer.width, out.buf, out.lo,
            out.length, out.pos))


_BACKENDS: dict[str, Backend] = {}


_BY_ENV: dict[str, Backend] = {}


def current() -> Backend:
    """The backend to use now (``YACHT_SOLVER_BACKEND``, else native when built)."""
    raw = os.environ.get(ENV, "")
    hit = _BY_ENV.get(raw)
    if hit is None:
        hit = _BY_ENV[raw] = _choose(raw)
    return hit


def _choose(raw: str) -> Backend:
    want = raw.strip().lower() or "auto"
    if want not in ("auto", "native", "numba"):
        raise BackendUnavailable(f"{ENV}={want!r} is not a backend (accepted: native, numba, "
                                 "auto)")
    if want != "numba":
        mod = native_module()
        if mod is not None:
            if "native" not in _BACKENDS:
                _BACKENDS["native"] = NativeBackend(mod)
            return _BACKENDS["native"]
        if want == "native":
            raise BackendUnavailable(
                f"{ENV}=native, but the native solver is not built in this installation "
                "(reinstall with a C compiler: pip install -e .)")
    if "numba" not in _BACKENDS:
        _BACKENDS["numba"] = NumbaBackend()
    return _BACKENDS["numba"]
