"""Search sources chosen by configuration (SCOUT_SOURCES): threads, serp, and dev (FEEDS_ENV=dev only)."""

from __future__ import annotations

import redis

from feeds_runtime.db import Database

from scout.pipeline.sources.base import (
    PAGE_LIMIT,
    BudgetReached,
    FailureKind,
    RawCandidate,
    SearchPage,
    SearchSource,
    SearchWindow,
    SourceUnavailable,
)
from scout.pipeline.sources.dev import DevSource
from scout.pipeline.sources.http import RetryPolicy
from scout.pipeline.sources.quota import Budget, account_key
from scout.pipeline.sources.serp import SerpSource
from scout.pipeline.sources.threads import ThreadsSource
from scout.pipeline.sources.threads_token import ThreadsToken
from scout.settings import ScoutSettings

__all__ = ["PAGE_LIMIT", "BudgetReached", "FailureKind", "RawCandidate", "SearchPage", "SearchSource",
           "SearchWindow", "SourceUnavailable", "build_sources"]


def build_sources(settings: ScoutSettings, redis_client: redis.Redis, database: Database) -> list[SearchSource]:
    """The configured sources in pipeline order, each live one behind its shared quota budget
    (the settings hold each live source's credential); Threads with its token's care."""
    retry = RetryPolicy(attempts=settings.source_attempts, base_seconds=settings.source_backoff_base_seconds,
                        max_seconds=settings.source_backoff_max_seconds)
    sources: list[SearchSource] = []
    for name in settings.source_names:
        if name == "dev":
            sources.append(DevSource())
        elif name == "threads":
            token = settings.credential(name)
            budget = Budget(redis_client, key=account_key(settings.redis_namespace, name, token), source=name,
                            limit=settings.threads_daily_queries, window_seconds=24 * 3600,
                            describe=f"{settings.threads_daily_queries} queries per 24 h")
            care = ThreadsToken(settings, database, redis_client)
            sources.append(ThreadsSource(
                base_url=settings.threads_base_url, access_token=care.current,
                search_type=settings.threads_search_type, timeout=settings.source_timeout_seconds, retry=retry,
                admit=budget.admit, token_check=care.raise_if_unfit,
            ))
        elif name == "serp":
            key = settings.credential(name)
            budget = Budget(redis_client, key=account_key(settings.redis_namespace, name, key), source=name,
                            limit=settings.serp_hourly_searches, window_seconds=3600,
                            describe=f"{settings.serp_hourly_searches} searches per hour")
            sources.append(SerpSource(base_url=settings.serp_base_url, api_key=key,
                                      timeout=settings.source_timeout_seconds, retry=retry, admit=budget.admit))
    return sources
