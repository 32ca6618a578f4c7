"""The `yacht` command. Each module in :mod:`yacht.cli.commands` adds its sub-commands.

A module there defines ``ORDER`` (its place in the help) and
``register(subparsers)``; handlers take the parsed arguments and return an
exit status. Input problems raise :class:`CliError`: one line, exit 2.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from yacht import __version__

from . import commands
from .common import CliError, HelpText

__all__ = ["CliError", "main", "make_parser"]


class _Parser(argparse.ArgumentParser):
    """A parser whose errors are one printable line, and whose help fits the width: a
    sub-command that asks for argparse's plain formatters gets :class:`HelpText` (its
    paragraphs filled, the lines it means kept)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("formatter_class") in (None, argparse.HelpFormatter,
                                             argparse.RawDescriptionHelpFormatter):
            kwargs["formatter_class"] = HelpText
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        from yacht.parsing import printable

        # one printable line, whatever was typed (argparse quotes some input raw)
        self.exit(2, f"{self.prog}: error: {printable(message)} (see `{self.prog} --help`)\n")


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="yacht",
        description="The Yacht dice family: play, inspect rules, score, replay and analyse.",
    )
    parser.add_argument("--version", action="version", version=f"yacht-dice {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    modules = [importlib.import_module(f"{commands.__name__}.{m.name}")
               for m in pkgutil.iter_modules(commands.__path__)]
    for mod in sorted(modules, key=lambda m: getattr(m, "ORDER", 100)):
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # also while the commands are still being loaded
        print("yacht: interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = make_parser()
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list:
        args_list = ["play"] if "play" in _command_names(parser) else ["--help"]
    elif not args_list[0].startswith("-") and args_list[0] not in (
            names := _command_names(parser)):
        if "play" not in names or not _is_variant(args_list[0]):
            parser.error(f"{args_list[0]!r} is neither a command nor a variant (commands: "
                         f"{', '.join(names)}; `yacht variants` lists the variants)")
        args_list = ["play", *args_list]  # `yacht kismet`: play is the default command
    args, extra = parser.parse_known_args(args_list)
    command = getattr(args, "command", None)
    if extra and command is not None and args_list[0] == command:
        # an optional positional after an option ('yacht advise generala --top 3 "44444
        # r2"'): argparse gave it nothing at the first positional and left the words over
        sub = _subparser(parser, command)
        try:
            again, extra = sub.parse_known_intermixed_args(
                args_list[1:], namespace=argparse.Namespace(command=command))
        except TypeError:  # (a parser the intermixed reading does not take)
            pass
        else:
            args = again
    if extra:  # named by the sub-command that was given them, with its own help
        _subparser(parser, getattr(args, "command", None)).error(
            f"unrecognized arguments: {' '.join(extra)}")
    from yacht.session.opening import carry_options

    # (a command printed for the user to type next finds the same games: `yacht daily
    # --db FILE` said "`yacht resume ID` goes on with it", which looked in another file)
    carry_options({"--db": getattr(args, "db", None)}, {"--db": _commands_taking(parser, "--db")})
    func: Any = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        return _run(func, args)
    finally:  # (the run's own: a caller's next run, in this process, carries its own)
        carry_options({}, {})


def _run(func: Any, args: argparse.Namespace) -> int:
    from yacht.parsing import InputError, printable

    try:
        return int(func(args) or 0)
    except (CliError, InputError) as e:
        print(f"yacht: error: {printable(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:  # a full disk: one line, no traceback
        if e.errno not in _WRITE_ERRORS:
            raise
        _settle_stdout()
        where = f" {printable(str(e.filename))}" if e.filename else ""
        print(f"yacht: error: writing{where} failed: {e.strerror or e}", file=sys.stderr)
        return 1


#: what writing the output, a record or a table can fail with: no room, a file too big
_WRITE_ERRORS = frozenset(getattr(errno, n) for n in ("ENOSPC", "EDQUOT", "EFBIG", "EIO")
                          if hasattr(errno, n))


def _settle_stdout() -> None:
    """Standard output flushed; when it cannot take what is left in it (a full disk), it
    is pointed at the null device, so that the interpreter's last flush does not fail
    again with a traceback."""
    try:
        sys.stdout.flush()
        return
    except OSError:
        pass
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # (no descriptor of its own: a stream in a test)
        pass


def _subparser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            sub: argparse.ArgumentParser = action.choices[name]
            return sub
    return parser


def _commands_taking(parser: argparse.ArgumentParser, option: str) -> list[str]:
    """The sub-commands (and their aliases) that take ``option``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return [name for name, sub in action.choices.items()
                    if option in sub._option_string_actions]
    return []


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    """The sub-commands' names (aliases too), in the help's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def _is_variant(word: str) -> bool:
    """Whether ``word`` names a variant (its id or an alias, as `yacht play` takes it)."""
    if word.startswith("-"):
        return False
    from yacht.rules import UnknownVariant, get

    try:
        get(word)
    except UnknownVariant:
        return False
    return True
