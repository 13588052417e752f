"""The browser pages (/scout, /feed) and their static assets.

The pages are plain HTML and ES modules that speak only the public REST API.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from html import escape
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from gateway.api_error import ApiError
from gateway.bodies import StrictJsonRoute

router = APIRouter(include_in_schema=False, route_class=StrictJsonRoute)

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"
ASSETS_DIR = PAGES_DIR / "assets"
SIGN_IN_PATH = "/dev/sign-in"
# Pages load scripts and styles from this origin only; avatars and logos may come from https hosts.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' https: data:; object-src 'none'; "
                               "base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-cache",
}
mimetypes.add_type("text/javascript", ".js")


def page(request: Request, name: str, fill: Mapping[str, str] | None = None) -> HTMLResponse:
    """A page of the pages folder, its markers (`<!--name-->`) replaced by `fill`'s escaped values."""
    html = (PAGES_DIR / name).read_text(encoding="utf-8")
    for marker, value in (fill or {}).items():
        html = html.replace(f"<!--{marker}-->", escape(value))
    settings = request.app.state.settings
    sign_in = settings.sign_in_url or (SIGN_IN_PATH if settings.is_dev else None)
    if sign_in:
        html = html.replace("<!--sign-in-->", f'<meta name="feeds-sign-in" content="{escape(sign_in)}">')
    return HTMLResponse(html, headers=SECURITY_HEADERS)


@router.get("/", response_class=RedirectResponse)
async def root() -> RedirectResponse:
    return RedirectResponse("/feed", status_code=307)


@router.get("/scout", response_class=HTMLResponse)
async def scout_page(request: Request) -> HTMLResponse:
    return page(request, "scout.html")


@router.get("/feed", response_class=HTMLResponse)
async def feed_page(request: Request) -> HTMLResponse:
    return page(request, "feed.html")


# The shipped assets, listed once: a request names one of them or nothing, so no path a client sends
# (a NUL byte, "..", a name longer than the file system allows) ever reaches the file system.
ASSETS = {path.relative_to(ASSETS_DIR).as_posix(): path for path in ASSETS_DIR.rglob("*") if path.is_file()}


@router.get("/pages/assets/{asset_path:path}")
async def asset(asset_path: str) -> FileResponse:
    path = ASSETS.get(asset_path)
    if path is None:
        raise ApiError(404, "not_found", "no such asset")
    return FileResponse(path, headers=SECURITY_HEADERS)
