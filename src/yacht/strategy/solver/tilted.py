"""Tilted experts: a small family of risk-seeking and risk-averse ways to play on.

The champion (:mod:`yacht.strategy.champion`) values the end of its turn by how
it will play afterwards. Taking the expert's play there (the distributions of
:mod:`.dist`) leaves it unable to plan a later risk: behind by 30 points with
six turns left, the expert's continuation never goes for the big boxes early.
A *tilted* expert of strength ``theta`` places every roll in the box that
maximises ``points + CE(next)``, where ``CE`` is the certainty equivalent of
the expert's points to come from the next state under the exponential utility
``exp(theta * points)``::

    CE(s) = log E[exp(theta * R_s)] / theta      (R_s: the expert's points to come)

``theta > 0`` prefers spread (more chance of a high total, a lower mean),
``theta < 0`` prefers safety. The points scored add to a certainty equivalent
exactly (``CE(x + R) = x + CE(R)``), so its choice of box is the best for that
utility when the expert plays on after it; its keeps are chosen as the expert's
are, on those values (the solver's turn kernel with the table ``CE`` for ``V``).
Its own points to come then have an exact distribution, built by the same pass
as the expert's (:func:`.dist.build` over the tilted table), and kept in the
disk cache beside it, one file per ``theta``.

The champion plays every action against each member of the family (the expert
and the tilts of :data:`THETAS`) and keeps, for each state and points at the end
of its turn, the best chance of winning among them: a choice of how to play on
that it makes again at its next turn.

>>> from yacht.rules import get
>>> rs = get("tommys-crag")
>>> t = tilted(rs, 0.03)
>>> from yacht.strategy.solver.dist import distributions
>>> e = distributions(rs)
>>> t.mean(0, 0) < e.mean(0, 0)        # spread costs points on average
True
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import Ruleset

from . import cache as diskcache
from .build import Solution, solve
from .dist import STEPS, Distributions, Progress, _check, _fingerprint, _open_mapped, build
from .dist import distributions as expert_distributions
from .dist import is_ready as expert_ready

__all__ = ["THETAS", "certainty_equivalents", "family", "family_ready", "tilted",
           "tilted_ready", "tilted_solution"]

F64 = npt.NDArray[np.float64]

#: the tilts of the champion's family (per point; the spread of a whole Yahtzee game
#: is about 60 points, so 0.01 is worth some 18 points of its certainty equivalent)
THETAS: tuple[float, ...] = (-0.05, -0.02, 0.01, 0.025, 0.05)
#: bump when the tilted tables' meaning changes
VERSION = 1
#: cumulative chances turned into certainty equivalents at a time
CELLS = 4_000_000


def certainty_equivalents(dd: Distributions, theta: float) -> F64:
    """The solver's table (shape of ``V``) with every reachable state's value the
    certainty equivalent, under ``exp(theta * points)``, of the expert's points to come
    (``dd``'s distributions); the states no card reaches keep the solver's value."""
    sol = dd.solution
    spec = sol.spec
    V = np.array(sol.V, dtype=np.float64, copy=True)
    nmask, A = V.shape
    U = spec.U
    off = np.asarray(dd.off)
    lo = np.asarray(dd.lo, dtype=np.int64)
    ln = np.asarray(dd.length, dtype=np.int64)
    # the canonical stored state of every (mask, aux)
    m = np.repeat(np.arange(nmask, dtype=np.int64), A)
    a = np.tile(np.arange(A, dtype=np.int64), nmask)
    u = np.maximum(a % U, np.asarray(dd.ulo, dtype=np.int64)[m])
    j_of = m * A + (a // U) * U + u
    stored = np.nonzero(off >= 0)[0]
    ce = np.zeros(len(off))
    eth = float(np.expm1(theta))
    C = dd.C
    order = stored[np.argsort(ln[stored], kind="stable")]
    i = 0
    ends = np.cumsum(ln[order])
    while i < len(order):
        k = max(i + 1, int(np.searchsorted(ends, ends[i] - ln[order[i]] + CELLS)))
        js = order[i:k]
        n = ln[js]
        total = int(n.sum())
        starts = np.cumsum(n) - n
        seg = np.repeat(np.arange(len(js)), n)
        pos = np.arange(total) - np.repeat(starts, n)      # i within its state
        c = np.asarray(C[np.repeat(off[js], n) + pos], dtype=np.float64) / STEPS
        # E[exp(theta (R - lo))] = exp(theta n) - (e^theta - 1) sum_i c_i exp(theta i)
        s = np.bincount(seg, weights=c * np.exp(theta * pos), minlength=len(js))
        e = np.exp(theta * n) - eth * s
        ce[js] = lo[js] + np.log(np.maximum(e, 1e-300)) / theta
        i = k
    flat = V.reshape(-1)
    full = (nmask - 1) * A
    ok = (off[j_of] >= 0) & (np.arange(len(flat)) < full)
    flat[ok] = ce[j_of[ok]]
    return V


def tilted_solution(sol: Solution, V: F64) -> Solution:
    """``sol`` playing by the table ``V`` (e.g. :func:`certainty_equivalents`): its
    self-play and its distributions follow ``V``'s choices."""
    return dataclasses.replace(sol, V=V, _turns=OrderedDict(), _lock=threading.Lock(),
                               _advisor=[])


def _path_fp(ruleset: Ruleset, theta: float) -> tuple[Any, str]:
    spec = _check(ruleset)
    kind = f"dist-tilt{theta:+.4f}"
    return (diskcache.cache_path(ruleset.key, kind=kind),
            f"{_fingerprint(spec)}:tilt={theta!r}:v={VERSION}")


_MEMORY: dict[tuple[str, float], Distributions] = {}
_LOCK = threading.Lock()
_BUILD = threading.Lock()   # (two threads asking at once build a tilt once)


def tilted_ready(ruleset: Ruleset, theta: float) -> bool:
    """Whether :func:`tilted` would answer without building."""
    with _LOCK:
        if (ruleset.key, theta) in _MEMORY:
            return True
    try:
        path, fp = _path_fp(ruleset, theta)
    except Exception:
        return False
    return diskcache.probe(path, ruleset.key, fp)


def tilted(ruleset: Ruleset, theta: float, *, cache: bool = True,
           progress: Progress | None = None, workers: int = 2) -> Distributions:
    """The distributions of the points to come of the expert tilted by ``theta`` (see the
    module doc): from memory, the disk cache, or built now (the expert's distributions
    first). Raises :class:`~.spec.UnsupportedRuleset` where :func:`.dist.supported` is
    False."""
    key = (ruleset.key, theta)
    with _LOCK:
        hit = _MEMORY.get(key)
    if hit is not None and hit.ruleset == ruleset:
        return hit
    with _BUILD:
        return _tilted(ruleset, theta, cache, progress, workers)


def _tilted(ruleset: Ruleset, theta: float, cache: bool, progress: Progress | None,
            workers: int) -> Distributions:
    key = (ruleset.key, theta)
    with _LOCK:
        hit = _MEMORY.get(key)
    if hit is not None and hit.ruleset == ruleset:
        return hit
    path, fp = _path_fp(ruleset, theta)
    sol = solve(ruleset, estimate=False)
    table = _open_mapped(path, ruleset.key, fp, sol) if cache else None
    if table is None:
        t0 = time.perf_counter()
        dd = expert_distributions(ruleset)
        tsol = tilted_solution(sol, certainty_equivalents(dd, theta))
        table = build(tsol, progress, threads=max(1, workers))
        table.seconds = time.perf_counter() - t0
        table.solution = sol    # (read with the expert's forced first turn, if any)
        if cache:
            diskcache.save(path, ruleset.key, fp, {"off": table.off, "lo": table.lo,
                                                   "length": table.length, "C": table.C},
                           {"seconds": table.seconds, "cells": table.cells,
                            "nbytes": table.nbytes, "theta": theta})
    elif progress is not None:
        progress(1, 1)
    with _LOCK:
        for k in [k for k in _MEMORY if k[0] != ruleset.key]:
            del _MEMORY[k]        # (one variant at a time)
        _MEMORY[key] = table
    return table


def family_ready(ruleset: Ruleset, thetas: tuple[float, ...] = THETAS) -> bool:
    return expert_ready(ruleset) and all(tilted_ready(ruleset, t) for t in thetas)


def family(ruleset: Ruleset, thetas: tuple[float, ...] = THETAS, *,
           progress: Progress | None = None) -> list[Distributions]:
    """The expert's distributions, then those of each tilt of ``thetas``, built where
    missing (``progress`` over all of them)."""
    parts = 1 + len(thetas)
    done = [0]

    def sub(d: int, t: int) -> None:
        if progress is not None:
            progress(done[0] * 1000 + (1000 * d) // max(1, t), parts * 1000)

    out = [expert_distributions(ruleset, progress=sub if progress else None)]
    for th in thetas:
        done[0] += 1
        out.append(tilted(ruleset, th, progress=sub if progress else None))
    if progress is not None:
        progress(parts * 1000, parts * 1000)
    return out
