"""The dev source: a Traditional Chinese sample of Threads-like posts shipped with the service,
searched lexically, so a scan works offline and gives the same answer every time."""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from pathlib import Path

from scout.pipeline.sources.base import ANY_AGE, FailureKind, RawCandidate, SearchPage, SearchWindow, SourceUnavailable
from scout.pipeline.sources.lexical import overlap, query_grams

CORPUS = Path(__file__).with_name("dev_corpus.jsonl")


@lru_cache(maxsize=4)
def load_corpus(path: Path) -> tuple[RawCandidate, ...]:
    posts = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                item = json.loads(line)
                stamp = item.get("posted_at")
                posts.append(RawCandidate(
                    url=item["url"], text=item.get("text", ""), author=item.get("author", ""),
                    posted_at=datetime.fromisoformat(stamp.replace("Z", "+00:00")) if stamp else None,
                ))
    return tuple(posts)


class DevSource:
    name = "dev"

    def __init__(self, path: Path = CORPUS) -> None:
        self.path = path

    def search(self, query: str, *, limit: int, cursor: str | None = None,
               window: SearchWindow = ANY_AGE) -> SearchPage:
        """The sample has no clock of its own, so a window does not narrow it."""
        try:
            corpus = load_corpus(self.path)
        except (OSError, ValueError, KeyError) as error:
            raise SourceUnavailable(self.name, FailureKind.MALFORMED,
                                    f"corpus unreadable ({type(error).__name__})") from None
        grams = query_grams(query)
        ranked = sorted(
            ((overlap(grams, post.text), index) for index, post in enumerate(corpus)),
            key=lambda pair: (-pair[0], pair[1]),
        )
        matches = [corpus[index] for hits, index in ranked if hits > 0]
        start = int(cursor) if cursor and cursor.isdigit() else 0
        page = matches[start:start + limit]
        end = start + len(page)
        return SearchPage(candidates=page, next_cursor=str(end) if end < len(matches) else None)
