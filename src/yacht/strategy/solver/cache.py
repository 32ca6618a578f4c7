"""Solver tables on disk: one file per ruleset key, checked on load, written atomically.

File layout: ``YACHTSOL`` magic, a 4-byte little-endian header length, a JSON
header (format version, ruleset key, rules fingerprint, arrays with dtype,
shape and offset, SHA-256 of the payload, scalar facts), then the payload.
Anything that does not match is reported as missing, so the caller rebuilds.

The facts of a table (its expected score, states, build time) can be read
without numpy and without computing the rules' fingerprint
(:func:`stored_facts`): the facts carry a :func:`rules_digest`, a digest of
the ruleset's data and of the code that turns it into the solver's tables,
which is cheap to compute. ``yacht solve`` with the table cached reads that.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt

    from yacht.rules import Ruleset

__all__ = ["DEFAULT_LIMIT", "FORMAT_VERSION", "LIMIT_ENV", "cache_dir", "cache_limit",
           "cache_path", "load", "probe", "rules_digest", "save", "stored_facts", "trim", "used"]

FORMAT_VERSION = 1
MAGIC = b"YACHTSOL"


def cache_dir() -> Path:
    """``$YACHT_CACHE_DIR`` if set, else the platform's user cache directory for yacht-dice."""
    env = os.environ.get("YACHT_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("yacht-dice"))


#: how much the cache may hold: bytes, or with a K, M or G suffix; 0 or ``none``: no limit
LIMIT_ENV = "YACHT_CACHE_LIMIT"
#: ... when it is not set: some twenty variants' distributions (a web server's players
#: may ask for every variant with every option: the least recently used go first)
DEFAULT_LIMIT = 8 << 30

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def cache_limit() -> int | None:
    """The most the cache may hold, in bytes (:data:`LIMIT_ENV`; None: no limit). A value
    that is not a size is said in one line, and the default used ("1.5G": 1.5 GiB)."""
    raw = os.environ.get(LIMIT_ENV, "").strip().upper().removesuffix("B")
    if not raw:
        return DEFAULT_LIMIT
    if raw in ("0", "NONE"):
        return None
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)I?", raw)
    if m is None:
        print(f"yacht: warning: {LIMIT_ENV}={os.environ[LIMIT_ENV]!r} is not a size "
              f"(accepted: bytes, or with K, M, G or T; none: no limit): "
              f"{DEFAULT_LIMIT >> 30}G is used", file=sys.stderr)
        return DEFAULT_LIMIT
    return int(float(m.group(1)) * _UNITS[m.group(2)])


def used(path: Path) -> None:
    """Mark the table ``path`` as just used (its time), so :func:`trim` keeps it longest."""
    try:
        os.utime(path)
    except OSError:
        pass


def trim(keep: Path | None = None) -> list[Path]:
    """Remove the least recently used tables from the cache until it holds at most
    :func:`cache_limit` (never ``keep``, the table just written); the removed ones.
    A removed table is built again when asked for."""
    limit = cache_limit()
    if limit is None:
        return []
    files: list[tuple[float, int, Path]] = []
    try:
        for entry in os.scandir(cache_dir()):
            if entry.name.endswith(".bin") and entry.is_file(follow_symlinks=False):
                st = entry.stat(follow_symlinks=False)
                files.append((st.st_mtime, st.st_size, Path(entry.path)))
    except OSError:
        return []
    total = sum(size for _, size, _ in files)
    removed: list[Path] = []
    for _, size, path in sorted(files, key=lambda f: f[0]):
        if total <= limit:
            break
        if keep is not None and path == keep:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed


def cache_path(key: str, kind: str = "table") -> Path:
    """The file for a ruleset key: readable name plus a digest of the exact key."""
    safe = re.sub(r"[^A-Za-z0-9_.=-]+", "_", key)[:80]
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache_dir() / f"{kind}-{safe}-{digest}-v{FORMAT_VERSION}.bin"


def save(path: Path, key: str, fingerprint: str, arrays: dict[str, npt.NDArray[Any]],
         facts: dict[str, Any], quiet: bool = False) -> bool:
    """Write atomically; on any OS error warn in one line (unless ``quiet``) and return
    False."""
    import tempfile

    import numpy as np

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = []
        offset = 0
        h = hashlib.sha256()
        blobs = []
        for name, arr in arrays.items():
            a = np.ascontiguousarray(arr)
            blob = a.data.cast("B")
            entries.append({"name": name, "dtype": a.dtype.str, "shape": list(a.shape),
                            "offset": offset, "nbytes": a.nbytes})
            offset += a.nbytes
            h.update(blob)
            blobs.append(blob)
        header = json.dumps({"format": FORMAT_VERSION, "key": key, "fingerprint": fingerprint,
                             "arrays": entries, "sha256": h.hexdigest(),
                             "facts": facts}).encode()
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(MAGIC)
                f.write(len(header).to_bytes(4, "little"))
                f.write(header)
                for blob in blobs:
                    f.write(blob)
            os.replace(tmp, path)
            trim(keep=path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return True
    except OSError as e:
        if not quiet:
            print(f"yacht: warning: cannot save the solver table in {path.parent} "
                  f"({e.strerror or e}); it stays in memory only", file=sys.stderr)
        return False


def probe(path: Path, key: str, fingerprint: str) -> bool:
    """Whether ``path`` looks like the table of ``key`` (its header only: cheap).

    :func:`load` still checks the whole file; a damaged one is then rebuilt.
    """
    try:
        with open(path, "rb") as f:
            head = f.read(12)
            if len(head) < 12 or head[:8] != MAGIC:
                return False
            hlen = int.from_bytes(head[8:12], "little")
            header = json.loads(f.read(hlen).decode())
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return bool(isinstance(header, dict) and header.get("format") == FORMAT_VERSION
                and header.get("key") == key and header.get("fingerprint") == fingerprint)


def load(path: Path, key: str, fingerprint: str
         ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]] | None:
    """The arrays and facts stored for ``key``, or None if missing, stale or damaged."""
    import mmap

    import numpy as np

    try:
        with open(path, "rb") as f:
            data: Any = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # (an empty file cannot be mapped)
        return None
    with data:
        view = memoryview(data)
        try:
            out = _load(view, key, fingerprint, np)
        finally:
            view.release()
    if out is not None:
        used(path)
    return out


def _load(data: memoryview, key: str, fingerprint: str, np: Any
          ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]] | None:
    try:
        if bytes(data[:8]) != MAGIC:
            return None
        hlen = int.from_bytes(data[8:12], "little")
        header = json.loads(bytes(data[12:12 + hlen]).decode())
        if (header.get("format") != FORMAT_VERSION or header.get("key") != key
                or header.get("fingerprint") != fingerprint):
            return None
        payload = data[12 + hlen:]
        if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
            return None
        arrays: dict[str, npt.NDArray[Any]] = {}
        for e in header["arrays"]:
            dt = np.dtype(e["dtype"])
            shape = tuple(int(s) for s in e["shape"])
            start, nbytes = int(e["offset"]), int(e["nbytes"])
            if start + nbytes > len(payload) or int(np.prod(shape)) * dt.itemsize != nbytes:
                return None
            arrays[e["name"]] = np.frombuffer(payload[start:start + nbytes], dtype=dt
                                              ).reshape(shape).copy()
        facts = header.get("facts", {})
        if not isinstance(facts, dict):
            return None
        return arrays, facts
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


# --- the facts alone -------------------------------------------------------------

# what turns a ruleset into the solver's tables, besides the ruleset's own data
_CODE = (("yacht.rules", ("model.py", "scoring.py", "hooks.py")),
         ("yacht.strategy.solver", ("spec.py", "dice.py")))
_CODE_DIGEST: list[str] = []


def _code_digest() -> str:
    """A digest of the source of :data:`_CODE` ("" when a file cannot be read)."""
    if not _CODE_DIGEST:
        h = hashlib.sha256()
        try:
            for package, names in _CODE:
                here = Path(sys.modules[package].__file__ or "").parent
                for name in names:
                    h.update((here / name).read_bytes())
            _CODE_DIGEST.append(h.hexdigest())
        except (OSError, KeyError):
            _CODE_DIGEST.append("")
    return _CODE_DIGEST[0]


def rules_digest(ruleset: Ruleset) -> str:
    """A digest of everything the table of ``ruleset`` depends on, cheap to compute: the
    ruleset's data (its repr) and the source of the code that compiles it. A change to
    either changes it ("" when the source cannot be read: no shortcut then).

    >>> from yacht.rules import get
    >>> rules_digest(get("yatzy")) == rules_digest(get("yatzy")) != rules_digest(get("yahtzee"))
    True
    """
    code = _code_digest()
    if not code:
        return ""
    return hashlib.sha256((code + repr(ruleset)).encode()).hexdigest()


def stored_facts(ruleset: Ruleset) -> dict[str, Any] | None:
    """The facts saved with the cached table of ``ruleset`` (``expected_score``,
    ``states``, ``seconds``, ``peak_memory``) when the file is that table, for these rules
    (by :func:`rules_digest`) and whole (its size and the payload's SHA-256); else None.
    Reads the file (mapped, not copied) but needs neither numpy nor the kernels."""
    import mmap

    digest = rules_digest(ruleset)
    if not digest:
        return None
    try:
        with open(cache_path(ruleset.key), "rb") as f:
            head = f.read(12)
            if len(head) < 12 or head[:8] != MAGIC:
                return None
            hlen = int.from_bytes(head[8:12], "little")
            header = json.loads(f.read(hlen).decode())
            facts = header.get("facts")
            if (header.get("format") != FORMAT_VERSION or header.get("key") != ruleset.key
                    or not isinstance(facts, dict) or facts.get("rules_digest") != digest
                    or not {"expected_score", "states", "seconds"} <= facts.keys()):
                return None
            size = sum(int(e["nbytes"]) for e in header["arrays"])
            if os.fstat(f.fileno()).st_size != 12 + hlen + size:
                return None
            with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
                view = memoryview(data)
                try:
                    whole = hashlib.sha256(view[12 + hlen:]).hexdigest() == header["sha256"]
                finally:
                    view.release()
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    return facts if whole else None
