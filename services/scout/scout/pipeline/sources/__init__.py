"""Search sources chosen by configuration (SCOUT_SOURCES): dev, threads, serp."""

from __future__ import annotations

import logging

from scout.pipeline.sources.base import PAGE_LIMIT, RawCandidate, SearchPage, SearchSource, SourceUnavailable
from scout.pipeline.sources.dev import DevSource
from scout.pipeline.sources.serp import SerpSource
from scout.pipeline.sources.threads import ThreadsSource
from scout.settings import ScoutSettings


# httpx logs every request URL at INFO, and SerpApi takes its key in the query string.
logging.getLogger("httpx").setLevel(logging.WARNING)

__all__ = ["PAGE_LIMIT", "RawCandidate", "SearchPage", "SearchSource", "SourceUnavailable", "build_sources"]


def build_sources(settings: ScoutSettings) -> list[SearchSource]:
    """The configured sources in pipeline order (the settings hold each live source's credential)."""
    sources: list[SearchSource] = []
    for name in settings.source_names:
        if name == "dev":
            sources.append(DevSource())
        elif name == "threads":
            sources.append(ThreadsSource(
                base_url=settings.threads_base_url,
                access_token=settings.threads_access_token.get_secret_value(),
                search_type=settings.threads_search_type,
                timeout=settings.source_timeout_seconds,
            ))
        elif name == "serp":
            sources.append(SerpSource(
                base_url=settings.serp_base_url,
                api_key=settings.serp_api_key.get_secret_value(),
                timeout=settings.source_timeout_seconds,
            ))
    return sources
