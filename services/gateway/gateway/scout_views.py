"""feeds.scout.v1 messages → the JSON of the scout REST API (snake_case fields as docs/scout.md names
them; every time an int64 of UTC unix nanoseconds, 0 when not known)."""

from __future__ import annotations

from typing import Any

from feeds.scout.v1 import scout_pb2 as pb


def run(message: pb.ScoutRun) -> dict[str, Any]:
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


def post(message: pb.ScoutPost) -> dict[str, Any]:
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


def job(message: pb.Job) -> dict[str, Any]:
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


def brief(message: pb.Brief) -> dict[str, Any]:
    return {
        "theme_key": message.theme_key,
        "theme_label": message.theme_label,
        "intent": message.intent,
        "mode": message.mode,
        "brand_id": message.brand_id or None,
        "terms": list(message.terms),
        "target_count": message.target_count,
    }


def homework(message: pb.Homework) -> dict[str, Any]:
    return {"theme_key": message.theme_key, "brief": brief(message.brief), "created_at": message.created_at,
            "updated_at": message.updated_at}


def pagination(message: pb.Pagination) -> dict[str, Any]:
    return {"page": message.page, "pageSize": message.page_size, "total": message.total,
            "totalPages": message.total_pages}
