"""Structured logs for the server: one JSON object per line (or readable text at a terminal).

>>> import logging
>>> rec = logging.LogRecord("yacht.web", logging.INFO, __file__, 1, "table %s", ("ab12",), None)
>>> rec.table = "ab12"
>>> sorted(json.loads(JsonLines().format(rec)))
['level', 'logger', 'msg', 'table', 'time']
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

__all__ = ["JsonLines", "setup_logging"]

_PLAIN = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message", "asctime", "color_message"}


class JsonLines(logging.Formatter):
    """A log record as one JSON line: time, level, logger, message and its extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                    + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name,
            "msg": record.getMessage()}
        for key, value in vars(record).items():
            if key not in _PLAIN and not key.startswith("_"):
                out[key] = value if isinstance(value, int | float | str | bool) or value is None \
                    else repr(value)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(level: str = "info", style: str | None = None) -> None:
    """Log ``yacht`` and the server's access lines to stderr; ``style`` json or text
    (default: text at a terminal, json otherwise)."""
    if style is None:
        style = "text" if sys.stderr.isatty() else "json"
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if style == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers[:] = []
        lg.propagate = True
