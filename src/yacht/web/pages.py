"""The page: ``index.html`` for the home page and every table, its files, the API's own
page. Everything served comes from this package (no CDN, no build step)."""

from __future__ import annotations

import re
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from .errors import WebError

__all__ = ["STATIC", "manifest", "router"]

STATIC = Path(str(resources.files("yacht.web").joinpath("static")))
#: what a static file's path may be made of (no "..", no NUL, no back-slash, no query)
_PATH = re.compile(r"^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*$")
#: the longest such path (ours are far shorter; a longer one is no file of ours)
_PATH_MOST = 200

router = APIRouter(include_in_schema=False)


def _page(status: int = 200) -> FileResponse:
    """The page (``status`` 404: at an address of no table; the page says so)."""
    return FileResponse(STATIC / "index.html", media_type="text/html", status_code=status,
                        headers={"Cache-Control": "no-cache"})


@router.get("/")
async def home() -> FileResponse:
    return _page()


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> FileResponse:
    return _page(200 if _TABLE.match(table_id) else 404)


@router.get("/d/{group_id}")
async def group_page(group_id: str) -> FileResponse:
    return _page(200 if _TABLE.match(group_id) else 404)


# --- an installable page: the web app manifest, the service worker --------------------
#: a table's id in a manifest's address (the page's router takes the same)
_TABLE = re.compile(r"^[0-9a-f]{1,32}$")
_ICONS = [{"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
          {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
          {"src": "/static/icons/icon-maskable-512.png", "sizes": "512x512",
           "type": "image/png", "purpose": "maskable"}]


def manifest(table_id: str | None = None) -> dict[str, Any]:
    """The web app manifest: the home page's, or a table's (put on a phone's home screen
    from a table, it opens that table)."""
    start = "/" if table_id is None else f"/t/{table_id}"
    return {"id": start, "name": "Yacht" if table_id is None else f"Yacht: table {table_id}",
            "short_name": "Yacht", "description": "The Yacht family of dice games, with friends "
            "and computer players", "start_url": start, "scope": "/", "display": "standalone",
            "background_color": "#134a2f", "theme_color": "#216b45", "icons": _ICONS}


def _manifest_response(table_id: str | None) -> JSONResponse:
    return JSONResponse(manifest(table_id), media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
async def home_manifest() -> JSONResponse:
    return _manifest_response(None)


@router.get("/t/{table_id}/manifest.webmanifest")
async def table_manifest(table_id: str) -> JSONResponse:
    if not _TABLE.match(table_id):
        raise WebError(f"no table {table_id[:40]!r}", "not_found")
    return _manifest_response(table_id)


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """At the site's root: its scope is every page (it handles no request)."""
    return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})


@router.get("/static/{path:path}")
async def static(path: str) -> FileResponse:
    target = _static_file(path)
    if target is None:
        raise WebError(f"no file {path[:80]!r}", "not_found")
    return FileResponse(target, headers={"Cache-Control": "no-cache"})


def _static_file(path: str) -> Path | None:
    """The file of the package's static folder a request's path names, if there is one: a
    name the folder could not hold (too long: the system refuses to look) is none."""
    if len(path) > _PATH_MOST or not _PATH.match(path) or ".." in path:
        return None
    target = STATIC / path
    try:
        return target if target.is_file() else None
    except OSError:  # (a part longer than the system's names, ...: not a file of ours)
        return None


@router.get("/api/docs")
async def docs(request: Request) -> HTMLResponse:
    return HTMLResponse(_docs_page(request.app.openapi()))


def _docs_page(spec: dict[str, Any]) -> str:
    """The API described from its OpenAPI document, as plain HTML (no scripts)."""
    rows = []
    for path, ops in sorted(spec.get("paths", {}).items()):
        for method, op in ops.items():
            params = ", ".join(escape(p["name"]) for p in op.get("parameters", []))
            body = " (JSON body)" if "requestBody" in op else ""
            rows.append(f"<tr><td><code>{escape(method.upper())} {escape(path)}</code></td>"
                        f"<td>{escape(op.get('summary', ''))}</td>"
                        f"<td>{params}{body}</td></tr>")
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<title>yacht API</title><link rel='stylesheet' href='/static/style.css'></head>"
            "<body class='docs'><main><h1>yacht: the JSON API</h1>"
            f"<p>{escape(spec.get('info', {}).get('description', ''))}</p>"
            "<p>The full description: <a href='/api/openapi.json'>/api/openapi.json</a>. "
            "Tables are played over a WebSocket, <code>/ws/TABLE</code>: see "
            "PROTOCOL.md in the package, and the messages' JSON Schema, "
            "protocol.schema.json.</p>"
            "<table><thead><tr><th>endpoint</th><th>what</th><th>parameters</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></main></body></html>")
