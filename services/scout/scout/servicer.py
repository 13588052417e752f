"""gRPC servicers: proto ↔ domain only. Each call is one transaction, owned here, but the run and result
lists, which tolerate lag and run on a replica when the service has one (`Database.replica_read()`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session

from feeds.scout.v1 import scout_pb2 as pb
from feeds.scout.v1 import scout_pb2_grpc
from feeds_runtime.context import require_actor
from feeds_runtime.db import Database
from scout.brief import Brief, normalize_brief
from scout.clock import to_ns
from scout.domain import Homework, Job, Post, Run
from scout.repositories.runs import legacy_run_id
from scout.service import JobService, Listing, ScoutService, suggested_terms
from scout.settings import ScoutSettings

T = TypeVar("T")


def brief_of(message: pb.Brief) -> Brief:
    return normalize_brief(theme_key=message.theme_key, theme_label=message.theme_label, intent=message.intent,
                           mode=message.mode, brand_id=message.brand_id, terms=list(message.terms),
                           target_count=message.target_count if message.HasField("target_count") else None,
                           recent_days=message.recent_days if message.HasField("recent_days") else None)


def brief_message(data: dict) -> pb.Brief:
    return pb.Brief(theme_key=data["theme_key"], theme_label=data["theme_label"], intent=data["intent"],
                    mode=data["mode"], brand_id=data.get("brand_id") or "", terms=data["terms"],
                    target_count=data["target_count"], recent_days=data.get("recent_days"))


def shortfall_count(row: Run) -> int:
    """docs/scout.md 2.1's max(target - eligible, 0) for a succeeded run. A run that did not complete has no
    result set to fall short of (3.1: only succeeded says whether the target was met; failed and
    cancelled runs show their error summary and publish nothing), so its shortfall is 0, with no reason."""
    return max(row.target_count - row.eligible_count, 0) if row.status == "succeeded" else 0


def run_message(row: Run) -> pb.ScoutRun:
    return pb.ScoutRun(
        id=str(row.id), job_id=str(row.job_id) if row.job_id else "", theme_key=row.theme_key,
        theme_label=row.theme_label, intent=row.intent, mode=row.mode, brand_id=row.brand_id or "",
        target_count=row.target_count, status=row.status, searched_count=row.searched_count,
        duplicate_count=row.duplicate_count, irrelevant_count=row.irrelevant_count,
        eligible_count=row.eligible_count, pending_count=row.pending,
        shortfall_count=shortfall_count(row),
        shortfall_reasons=list(row.shortfall_reasons), created_at=to_ns(row.created_at),
        started_at=to_ns(row.started_at), completed_at=to_ns(row.completed_at), error_summary=row.error_summary,
        stage_timings=[pb.StageTiming(stage=t["stage"], duration_ms=t["duration_ms"]) for t in row.stage_timings],
        terms=list(row.terms), legacy=row.legacy, source_failures=source_failures(row.source_errors),
    )


def source_failures(errors: dict) -> list[pb.SourceFailure]:
    """The kind of each source failure a run recorded (runs recorded before kinds existed: unknown)."""
    return [pb.SourceFailure(source=name, kind=error.get("kind", "") if isinstance(error, dict) else "")
            for name, error in sorted(errors.items())]


def post_message(row: Post, run_id: str | None = None) -> pb.ScoutPost:
    return pb.ScoutPost(
        id=str(row.id), run_id=run_id or str(row.run_id), theme_key=row.theme_key or "",
        canonical_id=row.canonical_id, url=row.url, author=row.author, text=row.text, score=row.score,
        match_reason=row.match_reason, posted_at=to_ns(row.posted_at), created_at=to_ns(row.created_at),
        outreach_status=row.outreach_status, draft_text=row.draft_text,
    )


def pagination(listing: Listing) -> pb.Pagination:
    return pb.Pagination(page=listing.page.page, page_size=listing.page.size, total=listing.total,
                         total_pages=listing.page.total_pages(listing.total))


def job_message(row: Job) -> pb.Job:
    return pb.Job(
        id=str(row.id), template_type=row.template_type, ref_id=str(row.ref_id), status=row.status,
        progress=row.progress, progress_stage=row.progress_stage, progress_stage_number=row.progress_stage_number,
        eligible_count=row.progress_eligible, target_count=row.progress_target,
        searched_count=row.progress_searched, duplicate_count=row.progress_duplicates,
        irrelevant_count=row.progress_irrelevant,
        error_summary=row.error_summary, cancel_requested=row.cancel_requested, created_at=to_ns(row.created_at),
        started_at=to_ns(row.started_at), completed_at=to_ns(row.completed_at), updated_at=to_ns(row.updated_at),
    )


class ScoutServicer(scout_pb2_grpc.ScoutServiceServicer):
    def __init__(self, database: Database, settings: ScoutSettings) -> None:
        self.database = database
        self.settings = settings

    def _call(self, work: Callable[[ScoutService, uuid.UUID], T]) -> T:
        owner = require_actor()
        with self.database.transaction() as session:
            return work(ScoutService(session), owner)

    def _list(self, work: Callable[[ScoutService, uuid.UUID], T]) -> T:
        """A list that tolerates lag: on a replica that has replayed the owner's last write (each
        statement in autocommit; a page and its total come from one)."""
        owner = require_actor()
        return self.database.replica_read(lambda connection: work(ScoutService(Session(bind=connection)), owner))

    def Scan(self, request, context):
        brief = brief_of(request.brief)
        job, run, replayed = self._call(lambda s, owner: s.scan(owner, brief, self.settings.max_running_scans,
                                                                request.idempotency_key or None))
        return pb.ScanResponse(job=job_message(job), run=run_message(run), replayed=replayed)

    def SuggestTerms(self, request, context):
        require_actor()
        return pb.SuggestTermsResponse(terms=suggested_terms(request.intent))

    def ListRuns(self, request, context):
        listing = self._list(lambda s, owner: s.list_runs(owner, request.page.page, request.page.page_size,
                                                          request.brand_id, request.mode))
        return pb.ListRunsResponse(runs=[run_message(r) for r in listing.rows], pagination=pagination(listing))

    def GetRun(self, request, context):
        return pb.GetRunResponse(run=run_message(self._call(lambda s, owner: s.get_run(owner, request.run_id))))

    def ListRunPosts(self, request, context):
        run, listing = self._list(lambda s, owner: s.list_run_posts(owner, request.run_id, request.page.page,
                                                                    request.page.page_size))
        return pb.ListRunPostsResponse(run=run_message(run), posts=[post_message(p, str(run.id)) for p in listing.rows],
                                       pagination=pagination(listing))

    def DeleteRun(self, request, context):
        self._call(lambda s, owner: s.delete_run(owner, request.run_id))
        return pb.DeleteRunResponse(ok=True)

    def ListPosts(self, request, context):
        listing = self._list(lambda s, owner: s.list_posts(owner, request.page.page, request.page.page_size,
                                                           request.theme_key))
        owner = require_actor()
        return pb.ListPostsResponse(posts=[post_message(p, _post_run_id(owner, p)) for p in listing.rows],
                                    pagination=pagination(listing))

    def DeleteTheme(self, request, context):
        runs, posts = self._call(lambda s, owner: s.delete_theme(owner, request.theme_key))
        return pb.DeleteThemeResponse(ok=True, deleted_runs=runs, deleted_posts=posts)

    def ListHomework(self, request, context):
        rows = self._call(lambda s, owner: s.list_homework(owner))
        return pb.ListHomeworkResponse(homework=[_homework_message(r) for r in rows])

    def PutHomework(self, request, context):
        brief = brief_of(request.brief)
        row = self._call(lambda s, owner: s.put_homework(owner, brief))
        return pb.PutHomeworkResponse(homework=_homework_message(row))

    def DeleteHomework(self, request, context):
        self._call(lambda s, owner: s.delete_homework(owner, request.theme_key))
        return pb.DeleteHomeworkResponse(ok=True)

    def _act(self, post_id: str, action: str, draft_text: str | None = None) -> pb.PostActionResponse:
        owner = require_actor()
        post, run = self._call(lambda s, _owner: s.act_on_post(owner, post_id, action, draft_text))
        if run is None:  # the run went away with a concurrent delete; the post still answers for itself
            return pb.PostActionResponse(post=post_message(post, _post_run_id(owner, post)))
        return pb.PostActionResponse(post=post_message(post, str(run.id)), run=run_message(run))

    def DraftPost(self, request, context):
        return self._act(request.post_id, "drafted", request.draft_text if request.HasField("draft_text") else None)

    def SkipPost(self, request, context):
        return self._act(request.post_id, "skipped")

    def PublishPost(self, request, context):
        return self._act(request.post_id, "published")

    def DeletePost(self, request, context):
        run = self._call(lambda s, owner: s.delete_post(owner, request.post_id))
        return pb.DeletePostResponse(ok=True, run=run_message(run) if run is not None else None)


def _post_run_id(owner: uuid.UUID, row: Post) -> str:
    return str(row.run_id) if row.run_id else str(legacy_run_id(owner, row.theme_key))


def _homework_message(row: Homework) -> pb.Homework:
    return pb.Homework(theme_key=row.theme_key, brief=brief_message(row.brief), created_at=to_ns(row.created_at),
                       updated_at=to_ns(row.updated_at))


class JobServicer(scout_pb2_grpc.JobServiceServicer):
    def __init__(self, database: Database) -> None:
        self.database = database

    def GetJob(self, request, context):
        owner = require_actor()
        with self.database.transaction() as session:
            return pb.GetJobResponse(job=job_message(JobService(session).get(owner, request.job_id)))

    def CancelJob(self, request, context):
        owner = require_actor()
        with self.database.transaction() as session:
            return pb.CancelJobResponse(job=job_message(JobService(session).cancel(owner, request.job_id)))
