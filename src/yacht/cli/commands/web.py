"""`yacht web`: the browser game, for one person, one screen, or friends online."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from typing import Any

from yacht.cli.common import CliError

ORDER = 2


def register(sub: Any) -> None:
    p = sub.add_parser(
        "web", help="play in a browser (alone, at one screen, or online with friends)",
        description="Start the web server and print the address to open. Everything the "
                    "page needs is served from this package. Games, tables and high scores "
                    "go to the same database as the terminal game (--db or YACHT_DB).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; "
                        "0.0.0.0 for every network)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="URL", default=None,
                   help="database: an SQLAlchemy URL or a file path (default: $YACHT_DB, "
                        "else the SQLite file in the user data directory)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"],
                   help="how much the server logs (default info)")
    p.set_defaults(func=cmd_web)


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (accepted: 1-65535)")
    return int(text)


def cmd_web(args: argparse.Namespace) -> int:
    from yacht.store import StoreError, open_store

    try:
        store = open_store(args.db)
    except StoreError as e:
        raise CliError(str(e)) from None
    try:
        # a port in use is one line, before the server says more
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((args.host, args.port))
            except OSError as e:
                raise CliError(f"cannot listen on {args.host}:{args.port}: "
                               f"{e.strerror or e}") from None
        import uvicorn

        from yacht.web import make_app

        store.group_commits()  # many tables: the actions that wait together, one flush
        app = make_app(store)
        shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
        print(f"yacht: open http://{shown}:{args.port}/ in a browser (Ctrl-C stops the "
              f"server; games are kept in {store.location})", flush=True)
        logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        config = uvicorn.Config(app, host=args.host, port=args.port,
                                log_level=args.log_level, ws_max_size=65536,
                                ws_ping_interval=20, ws_ping_timeout=20,
                                timeout_graceful_shutdown=5)
        uvicorn.Server(config).run()
    finally:
        store.close()
    return 0
