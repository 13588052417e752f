"""A local stand-in for the search providers the scout `threads` and `serp` sources call, for tests
and the quality evaluation: one HTTP server answering in both providers' shapes, and refusing what
the providers refuse.

- `GET /v1.0/keyword_search` like Meta's Threads keyword search: `access_token` (a Graph error 190
  when missing or not the expected one), `q`, `search_type` (TOP or RECENT), `search_mode`
  (KEYWORD or TAG), `limit` (1..100), `since` (a unix time), paging by `after`
  (`paging.cursors.after` while more remain); any other value is a Graph error 100.
- `GET /v1.0/debug_token` (`input_token`, `access_token`) with `token_scopes` and
  `token_expires_at`, and `GET /refresh_access_token` (`grant_type=th_refresh_token`), which
  issues a new accepted token, as Meta's token endpoints do.
- `GET /search.json` like SerpApi's Google engine: `api_key` (401 when missing or wrong), `engine`
  google, `q` (the site filter the source appends is an operator, not words to match), `start`;
  Google gives `serp_page_size` results a page whatever `num` says;
  `organic_results[].{link,title,snippet,date}`, `serpapi_pagination.next` while more remain, and a
  200 with a top-level `error` when nothing is left.

Posts are held in the Threads shape {id, text, username, shortcode, permalink, timestamp}. What a
query finds is `found(query)`: the posts registered for it with `add`, unless a subclass decides.
"""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

# A held request answers after this long at the latest, so a test that never releases it cannot hang the server.
HOLD_SECONDS = 60.0
# Search operators Google reads in `q`: site:/inurl: filters, OR between them, their parentheses.
_OPERATOR = re.compile(r"\(?\b(?:site|inurl):\S+|\bOR\b|[()]")


def search_words(q: str) -> str:
    """A SerpApi query without its search operators: what a post's text is matched against."""
    return " ".join(_OPERATOR.sub(" ", q).split())


def serp_date(timestamp: object) -> str | None:
    """Google shows a result's day as "Jul 1, 2026"; a Threads timestamp is 2026-07-01T10:00:00+0000."""
    if not isinstance(timestamp, str):
        return None
    try:
        moment = datetime.strptime(timestamp, "%Y-%m-%dT%H:%M:%S%z")
    except ValueError:
        return None
    return f"{moment:%b} {moment.day}, {moment.year}"


def graph_error(code: int, message: str, subcode: int | None = None) -> dict:
    """A Graph API error body."""
    error = {"message": message, "type": "OAuthException" if code == 190 else "GraphMethodException",
             "code": code, "fbtrace_id": "AbCdEfGhIjK"}
    if subcode is not None:
        error["error_subcode"] = subcode
    return {"error": error}


class SearchApi:
    """The server, its registered posts, failing and slow queries, and a log of every request."""

    def __init__(self, max_page: int = 100, *, threads_token: str | None = None, serp_key: str | None = None,
                 serp_page_size: int = 10) -> None:
        """`threads_token` / `serp_key`: the credentials accepted (None: any non-empty one)."""
        self.max_page = max_page
        self.threads_token = threads_token
        self.serp_key = serp_key
        self.serp_page_size = serp_page_size
        # What debug_token says of the Threads token, and the tokens refresh_access_token issued.
        self.token_scopes = ["threads_basic", "threads_keyword_search"]
        self.token_expires_at = int(time.time()) + 50 * 86400
        self.refreshed: list[str] = []
        # Provider → (status, body) answered to every query instead of results.
        self.errors: dict[str, tuple[int, dict]] = {}
        self.posts: dict[str, list[dict]] = {}
        self.failing: set[str] = set()
        # Providers ("threads", "serp") answering 500 to every query.
        self.failing_providers: set[str] = set()
        # Query → (how many of its requests answer at once, the event the later ones wait for): `hold`.
        self.holds: dict[str, tuple[int, threading.Event]] = {}
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urlsplit(self.path)
                params = {key: values[0] for key, values in parse_qs(url.query).items()}
                if url.path.endswith("/debug_token") or url.path == "/refresh_access_token":
                    self._send(*api.token_endpoint(url.path, params))
                elif url.path.endswith("/keyword_search"):
                    refused = api.refuse_threads(params)
                    if refused:
                        self._send(*refused)
                        return
                    self._answer("threads", params, params.get("q", ""), params.get("after"), params.get("limit"))
                elif url.path == "/search.json":
                    refused = api.refuse_serp(params)
                    if refused:
                        self._send(*refused)
                        return
                    self._answer("serp", params, search_words(params.get("q", "")), params.get("start"),
                                 str(api.serp_page_size))
                else:
                    self._send(404, {"error": {"message": "unknown path"}})

            def _answer(self, provider: str, params: dict, q: str, cursor: str | None, limit: str | None) -> None:
                credential = "access_token" if provider == "threads" else "api_key"
                with api.lock:
                    api.requests.append({"provider": provider, "q": q, "after": cursor,
                                         "params": {k: v for k, v in params.items() if k != credential}})
                    seen = sum(1 for r in api.requests if r["q"] == q)
                    hold = api.holds.get(q)
                if hold is not None and seen > hold[0]:
                    hold[1].wait(HOLD_SECONDS)
                if provider in api.errors:
                    self._send(*api.errors[provider])
                    return
                if q in api.failing:
                    self._send(503, {"error": {"message": "unavailable", "code": 2}})
                    return
                if provider in api.failing_providers:
                    self._send(500, {"error": "Internal server error"})
                    return
                start = int(cursor) if cursor and cursor.isdigit() else 0
                size = min(int(limit) if limit and limit.isdigit() else 20, api.max_page)
                items = api.found(q)
                page, more = items[start:start + size], start + size < len(items)
                self._send(200, api.threads_body(page, start + size, more) if provider == "threads"
                           else api.serp_body(q, page, start, start + size, more))

            def _send(self, status: int, body: dict) -> None:
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def threads_token_valid(self, token: str) -> bool:
        return bool(token) and (self.threads_token is None or token == self.threads_token or token in self.refreshed)

    def token_endpoint(self, path: str, params: dict) -> tuple[int, dict]:
        token = params.get("access_token", "")
        if not self.threads_token_valid(token):
            return 400, graph_error(190, "Invalid OAuth access token - Cannot parse access token")
        if path == "/refresh_access_token":
            if params.get("grant_type") != "th_refresh_token":
                return 400, graph_error(100, "Invalid parameter")
            with self.lock:
                self.refreshed.append(f"refreshed-{len(self.refreshed) + 1}-{token[-6:]}")
                self.token_expires_at = int(time.time()) + 60 * 86400
            return 200, {"access_token": self.refreshed[-1], "token_type": "bearer", "expires_in": 60 * 86400}
        inspected = params.get("input_token", "")
        return 200, {"data": {"type": "USER", "application": "feeds scout", "is_valid": self.threads_token_valid(inspected),
                              "issued_at": int(time.time()) - 86400, "expires_at": self.token_expires_at,
                              "data_access_expires_at": self.token_expires_at, "scopes": list(self.token_scopes),
                              "user_id": "17841400000000000"}}

    def refuse_threads(self, params: dict) -> tuple[int, dict] | None:
        """Meta's answer to a keyword search it would not run: a Graph error body."""
        if not self.threads_token_valid(params.get("access_token", "")):
            return 400, graph_error(190, "Invalid OAuth access token - Cannot parse access token")
        problems = [
            not params.get("q"),
            params.get("search_type", "TOP") not in ("TOP", "RECENT"),
            params.get("search_mode", "KEYWORD") not in ("KEYWORD", "TAG"),
            not (params.get("limit", "25").isdigit() and 1 <= int(params.get("limit", "25")) <= 100),
            "since" in params and not params["since"].isdigit(),
        ]
        return (400, graph_error(100, "Invalid parameter")) if any(problems) else None

    def refuse_serp(self, params: dict) -> tuple[int, dict] | None:
        key = params.get("api_key", "")
        if not key or (self.serp_key is not None and key != self.serp_key):
            return 401, {"error": "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key"}
        if params.get("engine") != "google" or not params.get("q") or not params.get("start", "0").isdigit():
            return 400, {"error": "Missing or invalid parameter."}
        return None

    def found(self, query: str) -> list[dict]:
        """Everything the query finds, in the engine's order; requests page through it."""
        return self.posts.get(query, [])

    @staticmethod
    def threads_body(page: list[dict], after: int, more: bool) -> dict:
        body: dict = {"data": page}
        if more:
            body["paging"] = {"cursors": {"after": str(after)}}
        return body

    def serp_body(self, q: str, page: list[dict], start: int, after: int, more: bool) -> dict:
        if not page:
            return {"search_metadata": {"status": "Success"},
                    "error": "Google hasn't returned any results for this query."}
        results = []
        for position, post in enumerate(page, start + 1):
            result = {"position": position, "link": post.get("permalink", ""),
                      "title": f"{post.get('username', '')} on Threads", "snippet": post.get("text", "")}
            if date := serp_date(post.get("timestamp")):
                result["date"] = date
            results.append(result)
        body: dict = {"search_metadata": {"status": "Success"}, "organic_results": results}
        if more:
            body["serpapi_pagination"] = {"next": f"{self.url}/search.json?{urlencode({'q': q, 'start': after})}"}
        return body

    def reset(self) -> None:
        with self.lock:
            for _, released in self.holds.values():
                released.set()
            self.posts, self.failing, self.requests, self.holds = {}, set(), [], {}
            self.failing_providers, self.errors = set(), {}
            self.token_scopes = ["threads_basic", "threads_keyword_search"]
            self.token_expires_at = int(time.time()) + 50 * 86400

    def add(self, query: str, posts: list[dict]) -> None:
        self.posts[query] = posts

    def hold(self, query: str, *, answered: int = 0) -> None:
        """The requests for `query` after its first `answered` wait until `release(query)` (at most
        HOLD_SECONDS), so a test sees a scan between two of its searches whatever the machine's speed."""
        with self.lock:
            self.holds[query] = (answered, threading.Event())

    def release(self, query: str) -> None:
        with self.lock:
            hold = self.holds.pop(query, None)
        if hold is not None:
            hold[1].set()

    def requests_for(self, query: str) -> int:
        with self.lock:
            return sum(1 for r in self.requests if r["q"] == query)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
