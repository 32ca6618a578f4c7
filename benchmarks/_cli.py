"""What every benchmark script's command line shares: its docstring as the help, and a
variant name checked before any work starts (an unknown one is a one-line error, exit 2,
with the names accepted)."""

from __future__ import annotations

import argparse


def parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser whose ``--help`` is the script's docstring, laid out as written."""
    return argparse.ArgumentParser(description=doc,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def variant(name: str) -> str:
    """An argparse type: a variant id or alias, as the registry knows it."""
    from yacht.rules import get
    from yacht.rules.registry import UnknownVariant

    try:
        get(name)
    except UnknownVariant as e:
        raise argparse.ArgumentTypeError(str(e).strip("'\"")) from None
    return name
