"""feeds.scout.v1 messages → the JSON of the scout REST API (snake_case fields as docs/scout.md names
them; every time an int64 of UTC unix nanoseconds, 0 when not known)."""

from __future__ import annotations

from pydantic import with_config
from typing_extensions import TypedDict

from feeds.scout.v1 import scout_pb2 as pb
from gateway.contract.fields import CLOSED, Nanos, Uuid


@with_config(CLOSED)
class ScoutStageTiming(TypedDict):
    stage: str
    duration_ms: int


@with_config(CLOSED)
class ScoutSourceFailure(TypedDict):
    source: str
    kind: str


@with_config(CLOSED)
class ScoutRun(TypedDict):
    id: Uuid
    job_id: Uuid | None
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str | None
    terms: list[str]
    target_count: int
    status: str
    searched_count: int
    duplicate_count: int
    irrelevant_count: int
    eligible_count: int
    pending_count: int
    shortfall_count: int
    shortfall_reasons: list[str]
    created_at: Nanos
    started_at: Nanos
    completed_at: Nanos
    error_summary: str | None
    stage_timings: list[ScoutStageTiming]
    legacy: bool
    source_failures: list[ScoutSourceFailure]


@with_config(CLOSED)
class ScoutPost(TypedDict):
    id: Uuid
    run_id: str
    theme_key: str
    canonical_id: str
    url: str
    author: str
    text: str
    score: float
    match_reason: str
    posted_at: Nanos
    created_at: Nanos
    outreach_status: str
    draft_text: str


@with_config(CLOSED)
class ScoutJob(TypedDict):
    id: Uuid
    template_type: str
    ref_id: Uuid
    status: str
    progress: str
    progress_stage: str
    progress_stage_number: int
    eligible_count: int
    target_count: int
    searched_count: int
    duplicate_count: int
    irrelevant_count: int
    error_summary: str | None
    cancel_requested: bool
    created_at: Nanos
    started_at: Nanos
    completed_at: Nanos
    updated_at: Nanos


@with_config(CLOSED)
class ScoutBrief(TypedDict):
    theme_key: str
    theme_label: str
    intent: str
    mode: str
    brand_id: str | None
    terms: list[str]
    target_count: int


@with_config(CLOSED)
class ScoutHomework(TypedDict):
    theme_key: str
    brief: ScoutBrief
    created_at: Nanos
    updated_at: Nanos


@with_config(CLOSED)
class ScoutPagination(TypedDict):
    page: int
    pageSize: int
    total: int
    totalPages: int


@with_config(CLOSED)
class ScoutScan(TypedDict):
    job: ScoutJob
    run: ScoutRun


@with_config(CLOSED)
class ScoutSuggestions(TypedDict):
    terms: list[str]


@with_config(CLOSED)
class ScoutRunList(TypedDict):
    list: list[ScoutRun]
    pagination: ScoutPagination


@with_config(CLOSED)
class ScoutPostList(TypedDict):
    list: list[ScoutPost]
    pagination: ScoutPagination


@with_config(CLOSED)
class ScoutRunPosts(ScoutPostList):
    run: ScoutRun


@with_config(CLOSED)
class ScoutHomeworkList(TypedDict):
    list: list[ScoutHomework]


@with_config(CLOSED)
class ScoutDone(TypedDict):
    ok: bool


@with_config(CLOSED)
class ScoutThemeDeleted(ScoutDone):
    deleted_runs: int
    deleted_posts: int


@with_config(CLOSED)
class ScoutPostAction(TypedDict):
    post: ScoutPost
    run: ScoutRun | None


@with_config(CLOSED)
class ScoutPostDeleted(ScoutDone):
    run: ScoutRun | None


def run(message: pb.ScoutRun) -> ScoutRun:
    return {
        "id": message.id,
        "job_id": message.job_id or None,
        "theme_key": message.theme_key,
        "theme_label": message.theme_label,
        "intent": message.intent,
        "mode": message.mode,
        "brand_id": message.brand_id or None,
        "terms": list(message.terms),
        "target_count": message.target_count,
        "status": message.status,
        "searched_count": message.searched_count,
        "duplicate_count": message.duplicate_count,
        "irrelevant_count": message.irrelevant_count,
        "eligible_count": message.eligible_count,
        "pending_count": message.pending_count,
        "shortfall_count": message.shortfall_count,
        "shortfall_reasons": list(message.shortfall_reasons),
        "created_at": message.created_at,
        "started_at": message.started_at,
        "completed_at": message.completed_at,
        "error_summary": message.error_summary or None,
        "stage_timings": [{"stage": t.stage, "duration_ms": t.duration_ms} for t in message.stage_timings],
        "legacy": message.legacy,
        "source_failures": [{"source": f.source, "kind": f.kind} for f in message.source_failures],
    }


def post(message: pb.ScoutPost) -> ScoutPost:
    return {
        "id": message.id,
        "run_id": message.run_id,
        "theme_key": message.theme_key,
        "canonical_id": message.canonical_id,
        "url": message.url,
        "author": message.author,
        "text": message.text,
        "score": message.score,
        "match_reason": message.match_reason,
        "posted_at": message.posted_at,
        "created_at": message.created_at,
        "outreach_status": message.outreach_status,
        "draft_text": message.draft_text,
    }


def job(message: pb.Job) -> ScoutJob:
    return {
        "id": message.id,
        "template_type": message.template_type,
        "ref_id": message.ref_id,
        "status": message.status,
        "progress": message.progress,
        "progress_stage": message.progress_stage,
        "progress_stage_number": message.progress_stage_number,
        "eligible_count": message.eligible_count,
        "target_count": message.target_count,
        "searched_count": message.searched_count,
        "duplicate_count": message.duplicate_count,
        "irrelevant_count": message.irrelevant_count,
        "error_summary": message.error_summary or None,
        "cancel_requested": message.cancel_requested,
        "created_at": message.created_at,
        "started_at": message.started_at,
        "completed_at": message.completed_at,
        "updated_at": message.updated_at,
    }


def brief(message: pb.Brief) -> ScoutBrief:
    return {
        "theme_key": message.theme_key,
        "theme_label": message.theme_label,
        "intent": message.intent,
        "mode": message.mode,
        "brand_id": message.brand_id or None,
        "terms": list(message.terms),
        "target_count": message.target_count,
    }


def homework(message: pb.Homework) -> ScoutHomework:
    return {"theme_key": message.theme_key, "brief": brief(message.brief), "created_at": message.created_at,
            "updated_at": message.updated_at}


def pagination(message: pb.Pagination) -> ScoutPagination:
    return {"page": message.page, "pageSize": message.page_size, "total": message.total,
            "totalPages": message.total_pages}


def run_list(response: pb.ListRunsResponse) -> ScoutRunList:
    return {"list": [run(r) for r in response.runs], "pagination": pagination(response.pagination)}


def post_list(response: pb.ListPostsResponse) -> ScoutPostList:
    return {"list": [post(p) for p in response.posts], "pagination": pagination(response.pagination)}


def run_posts(response: pb.ListRunPostsResponse) -> ScoutRunPosts:
    return {"run": run(response.run), "list": [post(p) for p in response.posts],
            "pagination": pagination(response.pagination)}


def post_action(response: pb.PostActionResponse) -> ScoutPostAction:
    return {"post": post(response.post), "run": run(response.run) if response.HasField("run") else None}


def post_deleted(response: pb.DeletePostResponse) -> ScoutPostDeleted:
    return {"ok": True, "run": run(response.run) if response.HasField("run") else None}
