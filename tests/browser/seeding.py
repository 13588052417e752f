"""Test data for the browser tests.

Runs and results with chosen scores and times cannot be made through the public API (a scan's
results come from its search), so the scout fixture is written into the scout schema: one
fixture, the same one the mock repository serves (pages/assets/scout/fixtures.json), with every id
given a per-member prefix so several members can hold it at once."""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import create_engine, text

FIXTURES = Path(__file__).resolve().parents[2] / "services/gateway/gateway/pages/assets/scout/fixtures.json"
FIXTURE_PREFIX = "00000000"


def load_fixtures() -> dict:
    return json.loads(FIXTURES.read_text(encoding="utf-8"))


def _time(nanos: str | int | None) -> datetime | None:
    value = int(nanos or 0)
    return datetime.fromtimestamp(value / 1e9, tz=UTC) if value > 0 else None


class ScoutSeed:
    """The fixture written for one owner; `id()` maps a fixture id to the seeded one."""

    def __init__(self, database_url: str, owner: uuid.UUID) -> None:
        self.owner = owner
        self.prefix = secrets.token_hex(4)
        self._database_url = database_url

    def id(self, fixture_id: str) -> str:
        return self.prefix + fixture_id[len(FIXTURE_PREFIX):]

    def legacy_run_id(self, theme_key: str) -> str:
        """The synthetic run the service shows the owner's results of one theme saved without a run."""
        return str(uuid.UUID(hashlib.md5(f"{self.owner}:{theme_key}".encode()).hexdigest()))

    def write(self) -> ScoutSeed:
        fixtures = load_fixtures()
        engine = create_engine(self._database_url)
        try:
            with engine.begin() as connection:
                self._write(connection, fixtures["runs"], fixtures["posts"])
        finally:
            engine.dispose()
        return self

    def add(self, runs: list[dict], posts: list[dict]) -> None:
        """Writes more runs and results in the fixture's wire shape (ids with the fixture prefix)."""
        engine = create_engine(self._database_url)
        try:
            with engine.begin() as connection:
                self._write(connection, runs, posts)
        finally:
            engine.dispose()

    def execute(self, statement: str, **params) -> None:
        """One statement against the scout schema, as the service's worker would write it."""
        engine = create_engine(self._database_url)
        try:
            with engine.begin() as connection:
                connection.execute(text(statement), params)
        finally:
            engine.dispose()

    def _write(self, connection, runs: list[dict], posts: list[dict]) -> None:
        for run in runs:
            self._write_run(connection, run)
        for post in posts:
            self._write_post(connection, post)

    def _write_run(self, connection, run: dict) -> None:
        run_id, job_id = self.id(run["id"]), self.id(run["job_id"])
        brief = {"intent": run["intent"], "terms": run.get("terms", [run["intent"]]), "mode": run["mode"],
                 "target_count": run["target_count"], "theme_key": run["theme_key"]}
        times = {"created_at": _time(run["created_at"]), "started_at": _time(run.get("started_at")),
                 "completed_at": _time(run.get("completed_at"))}
        # The job as its worker leaves it: progress counters mirror the run (fixtureJobWire in the mock).
        # An active job was touched just now, as by a worker holding it, so the scheduling watchdog
        # (which fails jobs nobody touches) leaves it alone for the test.
        updated = (datetime.now(UTC) if run["status"] in ("queued", "running")
                   else next(t for t in (times["completed_at"], times["started_at"], times["created_at"]) if t))
        connection.execute(text(
            "INSERT INTO scout.jobs (id, owner_id, template_type, ref_id, payload, status, progress, progress_stage,"
            " progress_stage_number, progress_searched, progress_duplicates, progress_irrelevant, progress_eligible,"
            " progress_target, created_at, started_at, completed_at, updated_at) VALUES (:id, :owner, 'scout_scan',"
            " :run, CAST(:payload AS jsonb), :status, :progress, :stage, :stage_number, :searched, :duplicate,"
            " :irrelevant, :eligible, :target, :created_at, :started_at, :completed_at, :updated_at)"),
            {"id": job_id, "owner": self.owner, "run": run_id, "status": run["status"],
             "progress": run.get("job_progress", ""),
             "stage": run.get("job_progress_stage", "queued" if run["status"] in ("queued", "running")
                              else "finished"),
             "stage_number": run.get("job_progress_stage_number", 0), "searched": run["searched_count"],
             "duplicate": run["duplicate_count"], "irrelevant": run["irrelevant_count"],
             "eligible": run["eligible_count"],
             "target": run["target_count"], "updated_at": updated,
             "payload": json.dumps({"run_id": run_id, "brief": brief}), **times})
        connection.execute(text(
            "INSERT INTO scout.runs (id, owner_id, job_id, theme_key, theme_label, intent, mode, terms, target_count,"
            " status, searched_count, duplicate_count, irrelevant_count, eligible_count, shortfall_reasons,"
            " error_summary, source_errors, created_at, started_at, completed_at) VALUES (:id, :owner, :job,"
            " :theme_key, :theme_label, :intent, :mode, CAST(:terms AS jsonb), :target, :status, :searched,"
            " :duplicate, :irrelevant, :eligible, :reasons, :error, CAST(:source_errors AS jsonb), :created_at,"
            " :started_at, :completed_at)"),
            {"id": run_id, "owner": self.owner, "job": job_id, "theme_key": run["theme_key"],
             "theme_label": run["theme_label"], "intent": run["intent"], "mode": run["mode"],
             "terms": json.dumps(run.get("terms", [run["intent"]]), ensure_ascii=False), "target": run["target_count"], "status": run["status"],
             "searched": run["searched_count"], "duplicate": run["duplicate_count"],
             "irrelevant": run["irrelevant_count"], "eligible": run["eligible_count"],
             "reasons": run["shortfall_reasons"], "error": run.get("error_summary", ""),
             "source_errors": json.dumps({f["source"]: {"kind": f["kind"]} for f in run.get("source_failures", [])}),
             **times})

    def _write_post(self, connection, post: dict) -> None:
        connection.execute(text(
            "INSERT INTO scout.posts (id, owner_id, run_id, theme_key, canonical_id, url, author, text, match_reason,"
            " score, posted_at, created_at, outreach_status) VALUES (:id, :owner, :run, :theme_key, :canonical, :url,"
            " :author, :text, :reason, :score, :posted_at, :created_at, :status)"),
            {"id": self.id(post["id"]), "owner": self.owner,
             "run": self.id(post["run_id"]) if post["run_id"] else None,
             "theme_key": post["theme_key"], "canonical": f"{self.prefix}{post['url'].rsplit('/', 1)[1]}",
             "url": post["url"], "author": post["author"], "text": post["text"], "reason": post["match_reason"],
             "score": post["score"], "posted_at": _time(post.get("posted_at")),
             "created_at": _time(post["created_at"]), "status": post["outreach_status"]})
