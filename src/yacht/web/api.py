"""The JSON API beside the page: variants, rules, scoring, top tens, statistics, tables,
analyses. The same shapes as the command line's ``--json``; bodies are the declared
types of :mod:`yacht.web.protocol`; every error is ``{"error", "code"}``."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response

from yacht.engine import Record
from yacht.parsing import ID_LENGTH, InputError, parse_day, parse_game_id, parse_table_id
from yacht.render import variant_title
from yacht.rules import OptionError, UnknownVariant, get
from yacht.shapes import ruleset_json, score_json, score_tables_json, stats_json, variants_json
from yacht.store import Store, StoreError

from .analyses import Analyses, AnalysisRefused
from .errors import WebError
from .hub import Hub
from .limits import address_key
from .protocol import (
    FIELD_HELP,
    MAX_OPTIONS,
    OPTION_LENGTH,
    VARIANT_LENGTH,
    ClaimRequest,
    DailyRequest,
    ErrorBody,
    ErrorCode,
    MyGamesRequest,
    ScoreQuestion,
    TableRequest,
)

__all__ = ["LOBBY_LISTED", "router"]

log = logging.getLogger("yacht.web")


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


def _settings(request: Request) -> dict[str, float]:
    settings: dict[str, float] = request.app.state.settings
    return settings


HubDep = Annotated[Hub, Depends(_hub)]
AnalysesDep = Annotated[Analyses, Depends(_analyses)]
SettingsDep = Annotated[dict[str, float], Depends(_settings)]

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "a request the server does not take"},
    404: {"model": ErrorBody, "description": "no such thing"},
    503: {"model": ErrorBody, "description": "the database does not answer"}}

router = APIRouter(responses=ERRORS)


def _ruleset(variant: str, options: dict[str, str], *, in_path: bool = False) -> Any:
    """The ruleset a request names. A variant that is not one of ours is ``not_found``
    (404) when the path names it (``/api/variants/ID/rules``: no such page), and
    ``bad_request`` (400) when a body or a query does, in the same words (a body's
    variant is read here too: ``POST /api/score``, ``POST /api/daily``, and in the hub
    ``POST /api/tables``). A path's or a query's variant and options are bounded as a
    body's are, in a body's words: an error's line never repeats kilobytes of the
    request."""
    code: ErrorCode = "not_found" if in_path else "bad_request"
    if len(variant) > VARIANT_LENGTH:
        raise WebError(f"variant: {FIELD_HELP['variant']}", code)
    if len(options) > MAX_OPTIONS or any(len(k) > OPTION_LENGTH or len(v) > OPTION_LENGTH
                                         for k, v in options.items()):
        raise WebError(f"options: {FIELD_HELP['options']}")
    try:
        return get(variant, options)
    except UnknownVariant as e:
        raise WebError(str(e), code) from None
    except OptionError as e:
        raise WebError(str(e)) from None


def _game_id(raw: str, *, in_path: bool = True) -> str:
    """A game id as a path (``not_found``: no such game) or a query (``bad_request``)
    names it."""
    try:
        gid = parse_game_id(raw)
        if len(gid) != ID_LENGTH:
            raise InputError(f"a game id is {ID_LENGTH} hex digits")
    except InputError as e:
        raise WebError(str(e), "not_found" if in_path else "bad_request") from None
    return gid


@router.get("/healthz", summary="Whether the server, its database and Redis answer")
async def healthz(hub: HubDep) -> JSONResponse:
    store: Store = hub.store
    db_ok, db = await hub.store_health()
    news_ok, news = await hub.news.healthy()
    body = {"ok": db_ok and news_ok, "store": db, "database": store.dialect, "news": news,
            **hub.status(), "process": hub.news.me or "single"}
    return JSONResponse(body, status_code=200 if body["ok"] else 503)


@router.get("/api/variants", summary="Every variant, with its options (yacht variants --json)")
async def variants() -> list[dict[str, Any]]:
    return variants_json()


@router.get("/api/variants/{variant}/rules",
            summary="A variant's rules as data and text (yacht rules --json, its text for "
                    "the page: without the commands' box ids and option syntax); options "
                    "as query parameters, e.g. ?joker=free")
async def rules(variant: str, request: Request) -> Any:
    return ruleset_json(_ruleset(variant, dict(request.query_params), in_path=True),
                        commands=False)


@router.post("/api/score", summary="What every box scores for some dice (yacht score --json)")
async def score(q: ScoreQuestion) -> Any:
    rs = _ruleset(q.variant, q.options)
    if len(q.dice) != rs.dice or not all(1 <= d <= rs.faces for d in q.dice):
        raise WebError(f"{rs.id} scores {rs.dice} dice, each 1-{rs.faces}")
    return score_json(rs, q.dice)


@router.get("/api/scores", summary="The top tens (yacht scores --json)")
async def scores(request: Request, hub: HubDep, variant: str | None = None,
                 assisted: bool = False) -> Any:
    opts = {k: v for k, v in request.query_params.items() if k not in ("variant", "assisted")}
    rs = _ruleset(variant, opts) if variant else None
    return await hub.io_call(score_tables_json, hub.store, rs, assisted)


@router.get("/api/stats", summary="Per player and variant (yacht stats --json)")
async def stats(hub: HubDep, player: str | None = None, computers: bool = False) -> Any:
    from .lobby import clean_name  # (a player's name as every interface takes it)

    name = clean_name(player) if player is not None else None
    return await hub.io_call(stats_json, hub.store, name, computers)


@router.post("/api/my/games",
             summary="The unfinished games this browser holds seats at: give the tokens it "
                     "keeps, table id -> token (each as yacht resume --json, with its table)")
async def my_games(req: MyGamesRequest, hub: HubDep) -> list[dict[str, Any]]:
    return await hub.my_games(dict(req.tables))


async def _check_day_over(hub: Hub, gid: str) -> Record:
    """The game's record; WebError ``private`` for a daily challenge's game before its
    day is over (its dice are every player's of the day: a finished game's analysis or
    dice would show them to those still to play)."""
    from yacht.engine.dice import daily_of, seed_kept
    from yacht.session.daily import today

    record: Record = await hub.io_call(hub.store.load_record, gid)
    if seed_kept(daily_of(record.meta), today()):
        raise WebError("a game of today's daily challenge is analysed and checked once the "
                       "day is over (UTC): its dice are every player's of the day",
                       "private")
    return record


@router.get("/api/games/{game_id}/analysis",
            summary="A finished game's analysis: every decision against the expert, luck, "
                    "skill, accuracy, expected scores and chances of winning (yacht analyse "
                    "--json); a duplicate table's game also has same_dice, its table's "
                    "games compared (SameDiceView)")
async def game_analysis(game_id: str, hub: HubDep, analyses: AnalysesDep,
                        settings: SettingsDep) -> Response:
    gid = _game_id(game_id)
    info = await hub.io_call(hub.store.game_info, gid)
    if info.finished is None:
        return AnalysisRefused(409, "not_finished",
                               "the analysis is for finished games (during a game it "
                               "would be a hint)").response()

    async def record() -> Record:
        return await hub.io_call(hub.store.load_record, gid)

    await _check_day_over(hub, gid)
    try:
        found = await analyses.get(gid, info.actions, record, settings["analysis_wait"],
                                   settings["quick_after"] if len(info.players) >= 2 else None)
    except AnalysisRefused as e:
        return e.response()
    except StoreError:
        raise
    except Exception:  # a fault of ours: logged, and still a one-line JSON answer
        log.exception("analysis of game %s", gid)
        return JSONResponse({"error": "the analysis failed (it is logged)", "code": "server"},
                            status_code=500)
    if found is None:  # a first analysis of a variant builds its tables: it goes on
        return JSONResponse({"status": "working", "retry": 2}, status_code=202,
                            headers={"Cache-Control": "no-store", "Retry-After": "2"})
    body, whole = found
    same = await hub.duplicates.same_dice(gid)
    if same is not None:  # a duplicate table's game: its games compared, beside it
        body = body[:-1] + b',"same_dice":' + orjson.dumps(same) + b"}"
    return Response(body, media_type="application/json",
                    headers={"Cache-Control": "no-cache" if whole else "no-store"})


@router.get("/api/games/{game_id}/verify",
            summary="Whether every die of a finished game came from the seed it committed to "
                    "at its start (yacht verify ID --json): ok, code, line, the seed revealed")
async def game_verify(game_id: str, hub: HubDep) -> dict[str, Any]:
    from yacht.engine import verify

    gid = _game_id(game_id)
    info = await hub.io_call(hub.store.game_info, gid)
    if info.finished is None:
        raise WebError("the dice are checked once the game is finished (its seed is secret "
                       "until then)", "not_finished")
    record = await _check_day_over(hub, gid)
    group_id = record.meta.get("duplicate")
    if isinstance(group_id, str) and not await hub.duplicates.seed_shown(group_id):
        raise WebError("a duplicate table's game is checked once every card of its table is "
                       "finished: its seed tells the dice still to come of the others",
                       "private")
    verdict = await hub.io_call(verify, record)
    proof = record.dice_seed
    return {**verdict.to_json(), "game": gid,
            "seed": proof.seed if proof is not None else None}


#: a table waiting for players is listed while it changes, at most this long after
LOBBY_LISTED = timedelta(hours=1)


@router.get("/api/tables", summary="Tables to join or watch, most recent first")
async def tables(hub: HubDep) -> list[dict[str, Any]]:
    since = datetime.now(UTC) - LOBBY_LISTED
    rows = await hub.io_call(lambda: hub.store.open_tables(lobby_since=since))
    return hub.tables_json(rows)


def _address(request: Request) -> str:
    """Whose limit of new tables a request spends (an IPv6 address's /64 as one, as the
    sockets and messages of an address: ``limits.address_key``)."""
    return address_key(request.client.host if request.client is not None else "?")


@router.post("/api/tables", summary="A new table; the token of this browser's seats "
                                    "(at most 30 an address in 10 minutes: flood, 429)")
async def create_table(req: TableRequest, hub: HubDep, request: Request) -> dict[str, str]:
    request.app.state.new_tables.take(_address(request), "tables")
    live, token = await hub.create(req)
    out = {"id": live.id, "token": token, "url": f"/t/{live.id}"}
    group = live.row.settings.get("group")
    if isinstance(group, str):  # a duplicate table: this browser's card, and the group
        out |= {"group": group, "group_url": f"/d/{group}"}
    return out


@router.get("/api/tables/{table_id}", summary="A table as a watcher sees it (a player's "
                                         "own card of a duplicate table: refused, 403)")
async def table_state(table_id: str, hub: HubDep) -> Any:
    live = await hub.get(table_id)
    hub.duplicates.check_watch(live, None)
    return hub.fanout.watched(live)


# --- duplicate tables -------------------------------------------------------------------
@router.get("/api/groups/{group_id}",
            summary="A duplicate table's field as a watcher sees it: every card up to the "
                    "slowest player's finished turn (all of it at the end, with the ranking "
                    "and the expert's total on the same dice)")
async def group_field(group_id: str, hub: HubDep) -> Any:
    try:
        gid = parse_table_id(group_id, "group id")
    except InputError as e:
        raise WebError(str(e), "not_found") from None
    return await hub.duplicates.field(gid, None)


@router.post("/api/tables/{table_id}/claim",
             summary="Take the seats of a saved game handed to a browser by a one-time link "
                     "(yacht resume ID --web): the link's key for this browser's token")
async def claim(table_id: str, req: ClaimRequest, hub: HubDep) -> dict[str, Any]:
    live, token = await hub.claim(table_id, req.key)
    return {"id": live.id, "token": token, "url": f"/t/{live.id}",
            "seats": sorted(live.seats_of(_hash(token)))}


# --- the daily challenge --------------------------------------------------------------
@router.get("/api/daily",
            summary="A day's challenge of a variant: its commitment, the expert's total on "
                    "its dice and the standings (the seed once the day is over)")
async def daily(hub: HubDep, variant: str = "yahtzee", date: str | None = None,
                game: str | None = None) -> dict[str, Any]:
    from yacht.session.daily import DayRefused, NoChallenge, share_line, standings

    rs = _ruleset(variant, {})
    try:
        day = parse_day(date, "date") if date is not None else None
        st = await hub.io_call(partial(standings, hub.store, rs.id, day, expert=False))
    except (InputError, DayRefused) as e:
        raise WebError(str(e)) from None
    except NoChallenge as e:
        raise WebError(str(e), "not_found") from None
    except StoreError as e:
        raise hub.public(e) from None
    if st.expert is None:  # (worked out once, in the background: None meanwhile)
        st = replace(st, expert=await hub.daily_expert(rs.id, st.day))
    out = st.to_json()
    try:  # the first day asked for may be (the page asks for no day before it)
        out["first"] = await hub.io_call(hub.store.first_daily)
    except StoreError as e:
        raise hub.public(e) from None
    if game is not None:
        gid = _game_id(game, in_path=False)
        entry = st.place_of(gid)
        out["mine"] = None if entry is None else {
            **entry.to_json(), "share": share_line(st, gid, variant_title(rs))}
    return out


@router.post("/api/daily", summary="Play today's challenge of a variant: a table for one, "
                                   "and the token of its seat (the name's game under way "
                                   "at a table of this browser's: that one; under way "
                                   "elsewhere: 409 conflict)")
async def play_daily(req: DailyRequest, hub: HubDep, request: Request) -> dict[str, Any]:
    request.app.state.new_tables.take(_address(request), "tables")
    await _unlike_the_days_names(req, hub)
    made = await hub.create_daily(req)
    return {"id": made.live.id, "token": made.token, "url": f"/t/{made.live.id}",
            "resumed": made.resumed, "ranked": made.ranked}


async def _unlike_the_days_names(req: DailyRequest, hub: Any) -> None:
    """A name that reads as another of the day's players (``lobby.name_key``: "Аnn" with
    a Cyrillic A beside Ann) is refused: in the standings no one can tell them apart.
    The same name is the hub's to answer (one game of the day at a time)."""
    from yacht.session.daily import today

    from .lobby import check_unlike, clean_name

    rs = _ruleset(req.variant, {})
    name = clean_name(req.name)
    try:
        games = await hub.io_call(hub.store.daily_games, today(), rs.id)
    except StoreError as e:
        raise hub.public(e) from None
    check_unlike(name, {g.name for g in games if g.name.casefold() != name.casefold()},
                 f"in today's {rs.name} challenge")


def _hash(token: str) -> str:
    from .claims import hash_token

    return hash_token(token)
