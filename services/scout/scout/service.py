"""The rules of runs, results and homework. Never commits: the RPC boundary owns the transaction."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

from feeds_runtime import outbox
from feeds_runtime.idempotency import KEY_RULE, request_fingerprint, valid_key
from scout import codes, jobs
from scout.brief import MODES, Brief, validate_intent, validate_theme_key
from scout.clock import now_utc
from scout.domain import Homework, Job, Post, Run
from scout.models import (
    POST_DRAFTED,
    POST_NEW,
    POST_PUBLISHED,
    POST_SKIPPED,
    QUEUED,
    SCAN_TEMPLATE,
    outbox as outbox_table,
)
from scout.pipeline.signature import NoTopicEvidence, build_signature
from scout.pipeline.suggest import suggest_terms
from scout.paging import POSTS_PAGE_SIZE, RESULTS_PAGE_SIZE, RUNS_PAGE_SIZE, Page
from scout.repositories.homework import HomeworkRepository
from scout.repositories.jobs import JobRepository
from scout.repositories.posts import PostRepository
from scout.repositories.runs import RunRepository, legacy_run_id


# Outreach transitions: action → (allowed from, to).
POST_ACTIONS = {
    "drafted": ((POST_NEW, POST_DRAFTED), POST_DRAFTED),
    "skipped": ((POST_NEW, POST_DRAFTED), POST_SKIPPED),
    "published": ((POST_DRAFTED,), POST_PUBLISHED),
}


def parse_id(value: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except (ValueError, AttributeError, TypeError):
        raise codes.invalid_id(what) from None


def require_topic(brief: Brief) -> None:
    """A brief must leave a topic signature once colloquial anchors are set aside."""
    try:
        build_signature(brief.intent, brief.terms)
    except NoTopicEvidence:
        raise codes.invalid_brief("the intent and terms name no topic beyond words like 推薦 or 心得") from None


def suggested_terms(intent: str) -> list[str]:
    """Search terms to propose for an intent, before the member reviews them."""
    try:
        return suggest_terms(validate_intent(intent))
    except NoTopicEvidence:
        raise codes.invalid_brief("the intent names no topic beyond words like 推薦 or 心得") from None


T = TypeVar("T")


@dataclass
class Listing(Generic[T]):
    rows: list[T]
    total: int
    page: Page


class ScoutService:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.runs = RunRepository(session)
        self.posts = PostRepository(session)
        self.homework = HomeworkRepository(session)
        self.jobs = JobRepository(session)

    # Runs.

    def scan(self, owner: uuid.UUID, brief: Brief, max_running: int,
             idempotency_key: str | None) -> tuple[Job, Run, bool]:
        """A new run and its job, scheduled through the outbox in this same transaction: either the
        run, the job and the delivery all exist, or none does. Refused while `max_running` of the
        member's runs are queued or running (the member's scans start one at a time, so two at once
        cannot both take the last place). With an idempotency key, the owner's run already created
        under it for the same brief answers instead (the unique index decides, so of two identical
        scans at once one creates the run); another brief under the key is a conflict. Returns the
        job, the run and whether an earlier scan answered."""
        if idempotency_key is not None and not valid_key(idempotency_key):
            raise codes.invalid_request(f"Idempotency-Key must be {KEY_RULE}")
        require_topic(brief)
        active = self.runs.lock_and_count_active(owner)
        now = now_utc()
        run_id, job_id = uuid.uuid4(), uuid.uuid4()
        # The brief as the service reads it (trimmed, defaults filled in) is what makes two scans the same.
        fingerprint = request_fingerprint(brief.to_json()) if idempotency_key is not None else None
        created = self.runs.insert(dict(
            id=run_id, owner_id=owner, job_id=job_id, theme_key=brief.theme_key, theme_label=brief.theme_label,
            intent=brief.intent, mode=brief.mode, brand_id=brief.brand_id, terms=list(brief.terms),
            target_count=brief.target_count, status=QUEUED, created_at=now, idempotency_key=idempotency_key,
            request_fingerprint=fingerprint,
        ))
        if not created:
            assert idempotency_key is not None, "only a scan with a key can conflict"
            run_id, job_id, existing_fingerprint = self.runs.by_idempotency_key(owner, idempotency_key)
            if existing_fingerprint != fingerprint:
                raise codes.idempotency_conflict()
            return *self._job_and_run(owner, job_id, run_id), True
        # Counted before this run was written; refusing rolls the run back with the transaction.
        if active >= max_running:
            raise codes.too_many_running_scans(max_running)
        self.jobs.insert(dict(
            id=job_id, owner_id=owner, template_type=SCAN_TEMPLATE, ref_id=run_id, status=QUEUED,
            payload={"run_id": str(run_id), "brief": brief.to_json()}, progress="queued",
            progress_target=brief.target_count, created_at=now, updated_at=now,
        ))
        # The job's owner travels with the message, so the worker's first query is scoped to it too.
        outbox.add(self.session, outbox_table, jobs.SCAN_QUEUE, jobs.SCAN_RUN, str(job_id), str(owner))
        return *self._job_and_run(owner, job_id, run_id), False

    def _job_and_run(self, owner: uuid.UUID, job_id: uuid.UUID, run_id: uuid.UUID) -> tuple[Job, Run]:
        job, run = self.jobs.get(owner, job_id), self.runs.get(owner, run_id)
        assert job is not None and run is not None, "written with the run, in this transaction or an earlier one"
        return job, run

    def list_runs(self, owner: uuid.UUID, page: int, size: int, brand_id: str, mode: str) -> Listing[Run]:
        if len(brand_id) > 100:
            raise codes.invalid_filter("brand_id filter is too long")
        if mode and mode not in MODES:
            raise codes.invalid_filter(f"mode must be one of {', '.join(MODES)}")
        paging = Page.of(page, size, RUNS_PAGE_SIZE)
        rows, total = self.runs.page(owner, paging, brand_id or None, mode or None)
        return Listing(rows, total, paging)

    def get_run(self, owner: uuid.UUID, run_id: str) -> Run:
        run = self.runs.get(owner, parse_id(run_id, "run_id"))
        if run is None:
            raise codes.run_not_found()
        return run

    def list_run_posts(self, owner: uuid.UUID, run_id: str, page: int, size: int) -> tuple[Run, Listing[Post]]:
        run = self.get_run(owner, run_id)
        paging = Page.of(page, size, RESULTS_PAGE_SIZE)
        if run.legacy:
            rows, total = self.posts.page_of_legacy(owner, run.theme_key, paging)
        elif run.status == "succeeded":
            rows, total = self.posts.page_of_run(owner, run.id, paging)
        else:
            rows, total = [], 0  # queued, running, failed or cancelled runs expose no results
        return run, Listing(rows, total, paging)

    def delete_run(self, owner: uuid.UUID, run_id: str) -> None:
        run = self.get_run(owner, run_id)
        if run.legacy:
            self.posts.delete_legacy(owner, run.theme_key)
        elif not self.runs.delete_terminal(owner, run.id):
            if self.runs.status(owner, run.id) is None:
                raise codes.run_not_found()
            raise codes.run_not_terminal()

    # Legacy compatibility.

    def list_posts(self, owner: uuid.UUID, page: int, size: int, theme_key: str) -> Listing[Post]:
        key = validate_theme_key(theme_key) if theme_key.strip() else None
        paging = Page.of(page, size, POSTS_PAGE_SIZE)
        rows, total = self.posts.page_of_owner(owner, key, paging)
        return Listing(rows, total, paging)

    def delete_theme(self, owner: uuid.UUID, theme_key: str) -> tuple[int, int]:
        """Deletes the theme's finished runs and legacy results; active runs and homework stay."""
        key = validate_theme_key(theme_key)
        posts = self.posts.count_of_runs_of_theme(owner, key)
        runs = self.runs.delete_terminal_of_theme(owner, key)
        posts += self.posts.delete_legacy(owner, key)
        return runs, posts

    # Results.

    def act_on_post(self, owner: uuid.UUID, post_id: str, action: str,
                    draft_text: str | None = None) -> tuple[Post, Run | None]:
        """The post after the action, and its run (None if a concurrent delete took the run away)."""
        pid = parse_id(post_id, "post_id")
        allowed, target = POST_ACTIONS[action]
        if draft_text is not None and len(draft_text) > 5000:
            raise codes.invalid_brief("draft_text must be at most 5000 characters")
        post = self.posts.transition(owner, pid, allowed, target, draft_text, now_utc())
        if post is None:
            current = self.posts.get(owner, pid)
            if current is None:
                raise codes.post_not_found()
            raise codes.post_status_conflict(current.outreach_status, action)
        return post, self._run_of(owner, post.run_id, post.theme_key)

    def delete_post(self, owner: uuid.UUID, post_id: str) -> Run | None:
        deleted = self.posts.delete(owner, parse_id(post_id, "post_id"))
        if deleted is None:
            raise codes.post_not_found()
        if deleted.run_id is not None:
            self.runs.decrement_eligible(owner, deleted.run_id)
        return self._run_of(owner, deleted.run_id, deleted.theme_key)

    def _run_of(self, owner: uuid.UUID, run_id: uuid.UUID | None, theme_key: str | None) -> Run | None:
        return self.runs.get(owner, run_id if run_id is not None else legacy_run_id(owner, theme_key))

    # Homework.

    def list_homework(self, owner: uuid.UUID) -> list[Homework]:
        return self.homework.list(owner)

    def put_homework(self, owner: uuid.UUID, brief: Brief) -> Homework:
        require_topic(brief)
        return self.homework.put(owner, brief.theme_key, brief.to_json(), now_utc())

    def delete_homework(self, owner: uuid.UUID, theme_key: str) -> None:
        if not self.homework.delete(owner, validate_theme_key(theme_key)):
            raise codes.homework_not_found()


class JobService:
    def __init__(self, session: Session) -> None:
        self.session = session
        self.jobs = JobRepository(session)
        self.runs = RunRepository(session)

    def get(self, owner: uuid.UUID, job_id: str) -> Job:
        job = self.jobs.get(owner, parse_id(job_id, "job_id"))
        if job is None:
            raise codes.job_not_found()
        return job

    def cancel(self, owner: uuid.UUID, job_id: str) -> Job:
        """A queued job and its run are cancelled at once; a running one is flagged and its worker
        stops at the next stage boundary. Cancelling a cancelled job is a no-op."""
        job = self.get(owner, job_id)
        now = now_utc()
        cancelled = self.jobs.request_cancel(owner, job.id, now)
        if cancelled is None:
            current = self.get(owner, job_id)
            if current.status == "cancelled":
                return current
            raise codes.job_terminal(current.status)
        if cancelled.status == "cancelled":
            self.runs.finish(owner, cancelled.ref_id, status="cancelled", from_statuses=(QUEUED,), counts=_ZERO_COUNTS,
                             shortfall_reasons=[], error_summary="", stage_timings=[], source_errors={},
                             now=now)
        return cancelled


_ZERO_COUNTS = {"searched": 0, "duplicates": 0, "irrelevant": 0, "eligible": 0}
