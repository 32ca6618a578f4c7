"""Builds the solver's optional C extension; the project's metadata is in pyproject.toml.

``pip install .`` and ``pip install -e .`` compile ``yacht.strategy.solver._native``
from the project's own C sources with the machine's C compiler, for the
machine's processor (``-march=native``; if the compiler refuses a flag, it
retries with fewer). If no compiler works, the install still succeeds with
a warning, without the exact solver: the expert, the champion, the hint and the
analysis then say so in one line (see ``yacht/strategy/solver/backend.py``). Set
``YACHT_BUILD_NATIVE=0`` to skip the extension, ``YACHT_NATIVE_PORTABLE=1``
to build it without processor-specific flags (for a wheel used elsewhere).
"""

from __future__ import annotations

import hashlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["src/yacht/strategy/solver/_native.c"]
DEPENDS = ["src/yacht/strategy/solver/_native_tile.h",
           "src/yacht/strategy/solver/_native_advice.h",
           "src/yacht/strategy/solver/_native_bulk.h",
           "src/yacht/strategy/solver/_native_dist.h"]

# tried in order; the first set the compiler accepts is used
FLAG_SETS = [
    ["-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math"],
    ["-O3", "-fno-math-errno", "-fno-trapping-math"],
    ["-O2"],
]


def source_hash() -> str:
    """A digest of the C sources, compiled into the extension (a stale build is noticed)."""
    h = hashlib.sha256()
    for path in [*SOURCES, *DEPENDS]:
        with open(os.path.join(HERE, path), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


class OptionalBuildExt(build_ext):
    """Compile with the best flags the compiler takes; never fail the install."""

    def build_extension(self, ext: Extension) -> None:
        if sys.platform == "win32" or os.environ.get("YACHT_BUILD_NATIVE", "1") == "0":
            print("yacht: not building the native solver (the exact solver will not be "
                  "available)", file=sys.stderr)
            return
        sets = FLAG_SETS[1:] if os.environ.get("YACHT_NATIVE_PORTABLE") == "1" else FLAG_SETS
        last: Exception | None = None
        for flags in sets:
            ext.extra_compile_args = [*flags, "-std=gnu11", "-pthread"]
            ext.define_macros = [("YACHT_SOURCE_HASH", f'"{source_hash()}"')]
            ext.extra_link_args = ["-pthread"]
            try:
                super().build_extension(ext)
                return
            except Exception as e:  # a flag the compiler does not know, or no compiler
                last = e
                print(f"yacht: compiling the native solver with {' '.join(flags)} failed; "
                      "trying simpler flags", file=sys.stderr)
        print(f"yacht: warning: the native solver could not be compiled ({last}); the game "
              "installs without the exact solver (the expert, the champion, the hint and the "
              "analysis need it)", file=sys.stderr)


setup(
    ext_modules=[Extension("yacht.strategy.solver._native", SOURCES, depends=DEPENDS,
                           optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
