"""`yacht web`: the browser game, for one person, one screen, or friends online."""

from __future__ import annotations

import argparse
import socket
from typing import TYPE_CHECKING, Any

from yacht.cli.common import CliError, check_db

if TYPE_CHECKING:
    from yacht.store import Store

ORDER = 2

#: yacht.store.core.FLUSH (kept here too: the parser is built without importing the store)
FLUSH = ("each", "interval")
#: the server pings every browser this often (seconds) and drops one silent as long again.
#: Every ping is a write and a read of the process's one loop: at 10 s, 10,000 browsers
#: cost 1,000 of them a second, more than the moves of 5,000 tables at a person's pace;
#: 25 s keeps a socket alive through proxies that close one idle for a minute.
PING_EVERY = 25.0
#: yacht.web.keepalive.WS_PROTOCOL (likewise): pings for browsers gone quiet only
WS_PROTOCOL = "yacht.web.keepalive:QuietPings"
#: yacht.web.protocol.MAX_MESSAGE (likewise)
MAX_MESSAGE = 4096
#: how long the start waits for Redis to answer (seconds): a host that drops the packets
#: is one line after this long, not a server that runs without its news
REDIS_WAIT = 5.0


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
    p.add_argument("--allowed-host", metavar="NAME", action="append", default=[],
                   type=_allowed_host,
                   help="a name browsers reach the server by, as in the address they open "
                        "(again for more; '*' for any). Default: the address it listens on, "
                        "localhost, and with --host 0.0.0.0 this machine's names and "
                        "addresses. Behind a proxy or under a domain name, give that name: "
                        "requests naming another host are refused (a page elsewhere cannot "
                        "reach the server through a name that leads to it)")
    p.add_argument("--proxy", metavar="ADDRESS", action="append", default=[], type=_proxy,
                   help="the address (or network, e.g. 10.0.0.0/8) of a proxy or load "
                        "balancer in front of the server (again for more): the browser's "
                        "address it passes on (X-Forwarded-For) is the one the limits per "
                        "address count (new tables, open sockets). Default: "
                        "$FORWARDED_ALLOW_IPS, else 127.0.0.1 and ::1 (a proxy on this "
                        "machine); any other proxy's browsers would all count as one")
    p.add_argument("--db", metavar="URL", default=None,
                   help="database: an SQLAlchemy URL or a file path (default: $YACHT_DB, "
                        "else the SQLite file in the user data directory)")
    p.add_argument("--redis", metavar="URL", default=None,
                   help="Redis for several server processes sharing one database "
                        "(redis://HOST:PORT; default: $YACHT_REDIS; none: one process)")
    p.add_argument("--workers", type=_workers, default=1,
                   help="server processes on this port (more than 1 needs --redis and a "
                        "database every process reaches, e.g. PostgreSQL)")
    p.add_argument("--flush", choices=FLUSH, default=None,
                   help="when a move reaches the disk: each (the default: before it is "
                        "acknowledged) or interval (within about a second; a busy server "
                        "then never waits for the disk's slow flushes, and a power cut can "
                        "lose the last second of play, never a game). Default: $YACHT_FLUSH, "
                        "else each")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"],
                   help="how much the server logs (default info)")
    p.add_argument("--log-format", choices=["json", "text"], default=None,
                   help="logs as JSON lines or text (default: text at a terminal, else json)")
    p.set_defaults(func=cmd_web)


def _workers(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (accepted: 1-64)")
    return int(text)


def _proxy(text: str) -> str:
    import ipaddress

    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an address or network (accepted: e.g. 10.0.0.5, "
            "10.0.0.0/8, fd00::/8)") from None


def _allowed_host(text: str) -> str:
    """A name (or address) of --allowed-host as a browser's Host header gives it, or '*';
    an empty one (it was left out silently) or a URL (never a Host: no browser reached the
    server by it, and every request was refused) is one line."""
    import ipaddress

    from yacht.web.guard import host_name

    name = text.strip()
    if name == "*" or host_name(name):
        return name
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host name (accepted: a name or address browsers open the "
            "server by, without http:// or a path, e.g. yacht.example.org, 192.168.1.5; "
            "'*' for any)") from None
    return name


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (accepted: 1-65535)")
    return int(text)


def upgrade_note(store: Store) -> str | None:
    """The line a command says when ``store`` was just upgraded for this version, and
    where the file as it was is kept (None: it was not): session.opening.upgrade_note's,
    the games' too, after ``yacht: ``."""
    from yacht.session.opening import upgrade_note as note

    said = note(store)
    return f"yacht: {said}" if said else None


def check_redis(url: str, what: str = "--redis", wait: float | None = None) -> None:
    """Redis answers at ``url`` (else CliError: one line naming it without its password,
    why, and ``what`` set it). A server started on a Redis it cannot reach (a mistyped
    host or port, a database number Redis does not have, a password it refuses) ran
    on, saying only "redis: lost", with its computer players and clocks waiting for
    ever; once running, a Redis that goes away is waited for (the README)."""
    import redis

    timeout = REDIS_WAIT if wait is None else wait
    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout,
                                  retry_on_timeout=False)
    try:
        client.ping()
    except (redis.RedisError, OSError, ValueError) as e:
        why = " ".join(str(e).split()).rstrip(".") or type(e).__name__
        if isinstance(e, redis.AuthenticationError) and "@" not in url:
            # (else Redis's own words, about HELLO or AUTH, which the URL never said)
            why = ("it asks for a password (in the URL: redis://:PASSWORD@HOST:PORT/DB, or "
                   "redis://USER:PASSWORD@... for a user of its own)")
        # (Redis answered, and refused: a database it does not have, a password)
        refused = isinstance(e, (redis.ResponseError, redis.AuthenticationError))
        hint = f"check {what}" if refused else f"is it running there? check {what}"
        raise CliError(f"cannot use Redis at {_without_password(url)}: {why} ({hint})"
                       ) from None
    finally:
        client.close()


def _without_password(url: str) -> str:
    """``url`` as it may be shown: a password in it is ***.

    >>> _without_password("redis://:secret@cache:6379/0"), _without_password("redis://h/1")
    ('redis://:***@cache:6379/0', 'redis://h/1')
    """
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{user}:***@{host}").geturl()


def cmd_web(args: argparse.Namespace) -> int:
    import os

    from yacht.parsing import parse_redis_url
    from yacht.store import StoreError, open_store

    if not args.host.strip():  # (an empty host listens on every network, as 0.0.0.0)
        raise CliError(f"--host {args.host!r}: give an address to listen on (default "
                       "127.0.0.1: this machine only; 0.0.0.0: every network)")
    args.host = args.host.strip()
    # a URL the Redis client cannot read is one line, before the server says more
    if args.redis is not None:
        redis_url: str | None = parse_redis_url(args.redis, "--redis")
        redis_from = "--redis"
    else:
        env = os.environ.get("YACHT_REDIS") or None
        redis_url = parse_redis_url(env, "YACHT_REDIS") if env else None
        redis_from = "YACHT_REDIS"
    flush = args.flush or os.environ.get("YACHT_FLUSH") or "each"
    if flush not in FLUSH:
        raise CliError(f"YACHT_FLUSH={flush!r} is not a flush (accepted: {', '.join(FLUSH)})")
    if args.workers > 1 and not redis_url:
        raise CliError(f"--workers {args.workers} needs --redis (or YACHT_REDIS): the "
                       "processes tell each other about every move through Redis")
    check_db(args.db)
    try:
        store = open_store(args.db)
    except StoreError as e:
        raise CliError(str(e)) from None
    note = upgrade_note(store)
    if note:
        print(note, flush=True)
    try:
        if redis_url:
            check_redis(redis_url, redis_from)
        # a port in use is one line, before the server says more
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((args.host, args.port))
            except OSError as e:
                raise CliError(f"cannot listen on {args.host}:{args.port}: "
                               f"{e.strerror or e}") from None
        import uvicorn

        from yacht.web.guard import allowed_hosts
        from yacht.web.logs import setup_logging
        from yacht.web.server import serve, serve_workers

        hosts = allowed_hosts(args.host, args.allowed_host)
        shown = "localhost" if args.host in ("127.0.0.1", "::1") else args.host
        print(f"yacht: open http://{shown}:{args.port}/ in a browser (Ctrl-C stops the "
              f"server; games are kept in {store.location})", flush=True)
        setup_logging(args.log_level, args.log_format)
        common: dict[str, Any] = dict(
            host=args.host, port=args.port, log_level=args.log_level, log_config=None,
            # a browser that stops reading does not answer pings: dropped within a minute
            # (pinged only when quiet: a browser that sent something lately is there)
            ws=WS_PROTOCOL, ws_max_size=MAX_MESSAGE, ws_ping_interval=PING_EVERY,
            ws_ping_timeout=PING_EVERY,
            # a table's state is a few KB: compressing every frame costs more CPU
            # than it saves on the wire for a server that pushes a state per move
            ws_per_message_deflate=False, timeout_graceful_shutdown=5)
        if args.proxy:
            common["forwarded_allow_ips"] = ",".join(args.proxy)
        if args.workers > 1 or redis_url:
            # every process opens the store and Redis itself (from the environment)
            store.close()
            if args.db:
                os.environ["YACHT_DB"] = args.db
            os.environ["YACHT_REDIS"] = str(redis_url)
            os.environ["YACHT_FLUSH"] = flush
            os.environ["YACHT_ALLOWED_HOSTS"] = "*" if hosts is None else ",".join(sorted(hosts))
            # (a worker is a fresh process: it sets its logging up as this one did)
            os.environ["YACHT_LOG_LEVEL"] = args.log_level
            os.environ["YACHT_LOG_FORMAT"] = args.log_format or ""
            # (each process tells its browsers to reconnect when it stops: web/server.py)
            serve_workers(uvicorn.Config("yacht.web.app:from_environment", factory=True,
                                         workers=args.workers, **common))
            return 0
        from yacht.web import make_app

        store.group_commits(flush=flush)  # many tables: the actions that wait together, one flush
        app = make_app(store, timed_gc=True, allowed_hosts=hosts)
        serve(uvicorn.Config(app, **common))
    finally:
        store.close()
    return 0
