"""Canonical identity of a Threads post: its shortcode, whatever URL variant carried it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

THREADS_HOSTS = frozenset({"threads.net", "www.threads.net", "threads.com", "www.threads.com"})

# /@user/post/CODE and the short form /t/CODE; anything else on the host (profiles, search,
# login, tags) is not a post.
_POST_PATH = re.compile(r"^/(?:@(?P<user>[A-Za-z0-9._]{1,64})/post|t)/(?P<code>[A-Za-z0-9_-]{5,64})$")


@dataclass(frozen=True)
class PostIdentity:
    shortcode: str
    username: str | None

    @property
    def canonical_id(self) -> str:
        return self.shortcode

    @property
    def url(self) -> str:
        if self.username:
            return f"https://www.threads.net/@{self.username}/post/{self.shortcode}"
        return f"https://www.threads.net/t/{self.shortcode}"


def post_identity(url: str) -> PostIdentity | None:
    """The post a URL points at, or None when it is not a Threads post URL.

    Host case, `www.`, the .net/.com domain, query string, fragment and a trailing slash are
    ignored; the shortcode keeps its case (it is case-sensitive).
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or (parts.hostname or "") not in THREADS_HOSTS:
        return None
    path = parts.path.rstrip("/") if parts.path != "/" else parts.path
    match = _POST_PATH.match(path)
    if match is None:
        return None
    return PostIdentity(shortcode=match.group("code"), username=match.group("user"))


def shortcode_identity(shortcode: str, username: str | None) -> PostIdentity | None:
    """Identity from the fields an API returns when it gives no permalink."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{5,64}", shortcode or ""):
        return None
    if username and not re.fullmatch(r"[A-Za-z0-9._]{1,64}", username):
        username = None
    return PostIdentity(shortcode=shortcode, username=username or None)
