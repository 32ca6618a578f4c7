"""Solver tables on disk: one file per ruleset key, checked on load, written atomically.

File layout: ``YACHTSOL`` magic, a 4-byte little-endian header length, a JSON
header (format version, ruleset key, rules fingerprint, arrays with dtype,
shape and offset, SHA-256 of the payload, scalar facts), then the payload.
Anything that does not match is reported as missing, so the caller rebuilds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["FORMAT_VERSION", "cache_dir", "cache_path", "load", "probe", "save"]

FORMAT_VERSION = 1
MAGIC = b"YACHTSOL"


def cache_dir() -> Path:
    """``$YACHT_CACHE_DIR`` if set, else the platform's user cache directory for yacht-dice."""
    env = os.environ.get("YACHT_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("yacht-dice"))


def cache_path(key: str, kind: str = "table") -> Path:
    """The file for a ruleset key: readable name plus a digest of the exact key."""
    safe = re.sub(r"[^A-Za-z0-9_.=-]+", "_", key)[:80]
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache_dir() / f"{kind}-{safe}-{digest}-v{FORMAT_VERSION}.bin"


def save(path: Path, key: str, fingerprint: str, arrays: dict[str, npt.NDArray[Any]],
         facts: dict[str, Any]) -> bool:
    """Write atomically; on any OS error warn in one line and return False."""
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
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return True
    except OSError as e:
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
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        if data[:8] != MAGIC:
            return None
        hlen = int.from_bytes(data[8:12], "little")
        header = json.loads(data[12:12 + hlen].decode())
        if (header.get("format") != FORMAT_VERSION or header.get("key") != key
                or header.get("fingerprint") != fingerprint):
            return None
        payload = memoryview(data)[12 + hlen:]
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
