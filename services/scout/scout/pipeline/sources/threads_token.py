"""Care of the Threads long-lived token: a self-check and a refresh.

The self-check asks Meta's `debug_token` about the token in use: it must be valid, carry the
`threads_keyword_search` permission (without it Meta silently searches only the token owner's own
posts) and expire more than 7 days from now; otherwise the Threads source reports `permission` or
`auth` without spending a query. The scout server checks at start and then periodically, and shares
the verdict with every worker through Redis.

Long-lived tokens last 60 days and can be refreshed once at least a day old (`refresh_access_token`,
grant `th_refresh_token`). Kubernetes Secrets are read-only to the pods (no API token is mounted), so
the refreshed token is kept in the service's own schema, encrypted with SCOUT_CREDENTIALS_KEY, a key
only the Secret holds; it stands in for the Secret's token until the Secret gets a new one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import redis
from cryptography.fernet import Fernet, InvalidToken
from sqlalchemy.dialects.postgresql import insert

from feeds_runtime.db import Database
from scout.models import SourceCredential
from scout.pipeline.sources.base import FailureKind, SourceUnavailable
from scout.pipeline.sources.http import RetryPolicy, get_json
from scout.pipeline.sources.threads import classify_graph
from scout.settings import ScoutSettings

log = logging.getLogger(__name__)

SOURCE = "threads"
REQUIRED_SCOPE = "threads_keyword_search"
MIN_VALIDITY = timedelta(days=7)
# How long a worker keeps the current token before looking for a refreshed one.
TOKEN_CACHE_SECONDS = 60.0
# How soon a care job that could not finish (Meta, Redis or PostgreSQL away) is tried again.
RETRY_SECONDS = 30.0


@dataclass(frozen=True)
class TokenStatus:
    """The self-check's verdict: `kind` None when the token is fit for keyword search."""

    kind: FailureKind | None
    detail: str
    expires_at: datetime | None

    def to_json(self) -> str:
        return json.dumps({"kind": self.kind, "detail": self.detail,
                           "expires_at": self.expires_at.isoformat() if self.expires_at else None})

    @classmethod
    def from_json(cls, raw: bytes | str) -> TokenStatus:
        data = json.loads(raw)
        return cls(kind=FailureKind(data["kind"]) if data["kind"] else None, detail=data["detail"],
                   expires_at=datetime.fromisoformat(data["expires_at"]) if data["expires_at"] else None)


def _epoch(value: Any) -> datetime | None:
    """Meta's unix seconds; 0 means a token that never expires."""
    return datetime.fromtimestamp(value, UTC) if isinstance(value, int) and value > 0 else None


def inspect_token(base_url: str, token: str, *, timeout: float, now: datetime,
                  transport: httpx.BaseTransport | None = None) -> TokenStatus:
    """What `debug_token` says of `token` (asked with the token itself, which belongs to the app's
    own user). Raises SourceUnavailable when Meta cannot say (throttled, down, unreadable)."""
    try:
        body = get_json(SOURCE, base_url.rstrip("/") + "/debug_token",
                        params={"input_token": token, "access_token": token}, timeout=timeout,
                        classify=classify_graph, retry=RetryPolicy(attempts=2), transport=transport)
    except SourceUnavailable as error:
        if error.kind in (FailureKind.AUTH, FailureKind.PERMISSION):
            return TokenStatus(error.kind, f"debug_token refused the token ({error.detail})", None)
        raise
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise SourceUnavailable(SOURCE, FailureKind.MALFORMED, "debug_token answered no data")
    expires_at = _epoch(data.get("expires_at"))
    if data.get("is_valid") is not True:
        return TokenStatus(FailureKind.AUTH, "the token is not valid (debug_token)", expires_at)
    scopes = data.get("scopes")
    if not isinstance(scopes, list) or REQUIRED_SCOPE not in scopes:
        return TokenStatus(FailureKind.PERMISSION, f"the token lacks {REQUIRED_SCOPE}", expires_at)
    if expires_at is not None and expires_at - now <= MIN_VALIDITY:
        days = max((expires_at - now).days, 0)
        return TokenStatus(FailureKind.AUTH, f"the token expires in {days} day(s)", expires_at)
    return TokenStatus(None, "fit for keyword search", expires_at)


def refresh_token(base_url: str, token: str, *, timeout: float, now: datetime,
                  transport: httpx.BaseTransport | None = None) -> tuple[str, datetime | None]:
    """A new long-lived token for `token` and its expiry (GET /refresh_access_token on the API host)."""
    parts = urlsplit(base_url)
    body = get_json(SOURCE, f"{parts.scheme}://{parts.netloc}/refresh_access_token",
                    params={"grant_type": "th_refresh_token", "access_token": token}, timeout=timeout,
                    classify=classify_graph, retry=RetryPolicy(attempts=2), transport=transport)
    fresh = body.get("access_token") if isinstance(body, dict) else None
    if not isinstance(fresh, str) or not fresh:
        raise SourceUnavailable(SOURCE, FailureKind.MALFORMED, "refresh_access_token answered no token")
    lifetime = body.get("expires_in")
    return fresh, now + timedelta(seconds=lifetime) if isinstance(lifetime, int) and lifetime > 0 else None


def fingerprint(credential: str) -> str:
    return hashlib.sha256(credential.encode()).hexdigest()


class ThreadsToken:
    """The token in use (the refreshed one while it stands for the configured seed), its shared
    self-check verdict, and the care job run by the scout server."""

    def __init__(self, settings: ScoutSettings, database: Database, redis_client: redis.Redis,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.settings = settings
        self.database = database
        self.redis = redis_client
        self.transport = transport
        self.seed = settings.credential("threads")
        key = settings.credentials_key.get_secret_value() if settings.credentials_key else None
        self.cipher = Fernet(key) if key else None
        self.status_key = f"{settings.redis_namespace}:scout:threads-token:{fingerprint(self.seed)[:16]}"
        self._cached: tuple[float, str] | None = None
        self._lock = threading.Lock()

    # What the Threads source uses.

    def current(self) -> str:
        with self._lock:
            if self._cached is None or time.monotonic() - self._cached[0] > TOKEN_CACHE_SECONDS:
                self._cached = (time.monotonic(), self._stored() or self.seed)
            return self._cached[1]

    def raise_if_unfit(self) -> None:
        """The last self-check's failure, if it found one (none yet, or Redis away: go ahead)."""
        try:
            raw = self.redis.get(self.status_key)
        except redis.RedisError:
            return
        if raw:
            status = TokenStatus.from_json(raw)
            if status.kind is not None:
                raise SourceUnavailable(SOURCE, status.kind, f"token self-check: {status.detail}")

    # The care job.

    def care(self, now: datetime | None = None) -> TokenStatus:
        """Check the token; refresh it when it nears its end (and a credentials key allows keeping
        the new one); publish the verdict to the workers."""
        now = now or datetime.now(UTC)
        token = self.current()
        status = inspect_token(self.settings.threads_base_url, token, timeout=self.settings.source_timeout_seconds,
                               now=now, transport=self.transport)
        due = status.expires_at is not None and status.expires_at - now <= self.settings.threads_refresh_before
        cipher = self.cipher
        if due and status.kind in (None, FailureKind.AUTH) and cipher is not None:
            try:
                fresh, expires_at = refresh_token(self.settings.threads_base_url, token,
                                                  timeout=self.settings.source_timeout_seconds, now=now,
                                                  transport=self.transport)
            except SourceUnavailable as error:
                log.warning("threads token refresh failed: %s", error)
            else:
                self._store(cipher, fresh, expires_at)
                log.info("threads token refreshed", extra={"expires_at": expires_at.isoformat() if expires_at else None})
                status = inspect_token(self.settings.threads_base_url, fresh,
                                       timeout=self.settings.source_timeout_seconds, now=now, transport=self.transport)
        elif due and cipher is None:
            log.warning("threads token nears its expiry and SCOUT_CREDENTIALS_KEY is unset: replace the token")
        self.redis.set(self.status_key, status.to_json(), ex=int(self.settings.threads_token_check_seconds * 3))
        if status.kind is not None:
            log.warning("threads token self-check failed: %s: %s", status.kind, status.detail)
        return status

    def start(self) -> threading.Event:
        """Run `care` now and every `threads_token_check_seconds` in a daemon thread, until the
        returned event is set; only one server in an interval does it (a Redis claim)."""
        stop = threading.Event()
        claim = f"{self.status_key}:claim"
        interval = self.settings.threads_token_check_seconds

        def loop() -> None:
            while True:
                pause = interval
                try:
                    if self.redis.set(claim, "1", nx=True, ex=max(int(interval), 1)):
                        try:
                            self.care()
                        except Exception:
                            self.redis.delete(claim)  # not done: any server may try again soon
                            raise
                except Exception:  # Meta, Redis or PostgreSQL away: try again shortly
                    log.warning("threads token care failed", exc_info=True)
                    pause = min(RETRY_SECONDS, interval)
                if stop.wait(pause):
                    return

        threading.Thread(target=loop, name="threads-token-care", daemon=True).start()
        return stop

    # The store.

    def _stored(self) -> str | None:
        if self.cipher is None:
            return None
        with self.database.transaction() as session:
            row = session.get(SourceCredential, SOURCE)
        if row is None or row.seed_fingerprint != fingerprint(self.seed):
            return None
        try:
            return self.cipher.decrypt(row.ciphertext.encode()).decode()
        except InvalidToken:
            log.warning("stored threads token cannot be decrypted with SCOUT_CREDENTIALS_KEY; using the configured one")
            return None

    def _store(self, cipher: Fernet, token: str, expires_at: datetime | None) -> None:
        values = {"source": SOURCE, "seed_fingerprint": fingerprint(self.seed),
                  "ciphertext": cipher.encrypt(token.encode()).decode(), "expires_at": expires_at,
                  "refreshed_at": datetime.now(UTC)}
        with self.database.transaction() as session:
            session.execute(insert(SourceCredential).values(**values).on_conflict_do_update(
                index_elements=["source"], set_={k: v for k, v in values.items() if k != "source"}))
        with self._lock:
            self._cached = (time.monotonic(), token)
