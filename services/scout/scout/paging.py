"""Page normalization of docs/scout.md 5.1: page < 1 is 1, page_size < 1 the endpoint default, at most 50."""

from __future__ import annotations

from dataclasses import dataclass

MAX_PAGE_SIZE = 50
RUNS_PAGE_SIZE = 10
RESULTS_PAGE_SIZE = 8
POSTS_PAGE_SIZE = 20


@dataclass(frozen=True)
class Page:
    page: int
    size: int

    @classmethod
    def of(cls, page: int, size: int, default_size: int) -> Page:
        return cls(page=max(page, 1), size=default_size if size < 1 else min(size, MAX_PAGE_SIZE))

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size

    def total_pages(self, total: int) -> int:
        return (total + self.size - 1) // self.size
