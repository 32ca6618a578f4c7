"""The page's name fields count a name as the server does (dom.js ``nameLength``: code
points, an emoji one), up to the server's own limit: the one number the page keeps
for it is the engine's NAME_LENGTH, and every field is made by ``nameField`` (no
``maxlength``, which counts UTF-16 units: an emoji two)."""

from __future__ import annotations

import re
from pathlib import Path

import yacht.web
from yacht.engine import NAME_LENGTH

JS = Path(yacht.web.__file__).parent / "static" / "js"


def test_the_page_keeps_the_servers_limit_in_one_place() -> None:
    dom = (JS / "dom.js").read_text()
    limit = re.search(r"export const NAME_LENGTH = (\d+);", dom)
    assert limit and int(limit.group(1)) == NAME_LENGTH
    for path in JS.glob("*.js"):
        text = path.read_text()
        assert not re.search(r"maxlength\s*:", text, re.I), path.name  # (an attribute)
    fields = "".join(p.read_text() for p in JS.glob("*.js")).count("nameField({")
    assert fields == 3  # the home page's players, the daily box, the lobby's join
