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

from devstack import scout_seed
from devstack.scout_seed import SeedPost, SeedRun

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
        scout_seed.write(connection, [self._run(run) for run in runs], [self._post(post) for post in posts])

    def _run(self, run: dict) -> SeedRun:
        times = {"created_at": _time(run["created_at"]), "started_at": _time(run.get("started_at")),
                 "completed_at": _time(run.get("completed_at"))}
        terms = run.get("terms", [run["intent"]])
        active = run["status"] in ("queued", "running")
        # The job as its worker leaves it: progress counters mirror the run (fixtureJobWire in the mock).
        # An active job was touched just now, as by a worker holding it, so the scheduling watchdog
        # (which fails jobs nobody touches) leaves it alone for the test.
        updated = (datetime.now(UTC) if active
                   else next(t for t in (times["completed_at"], times["started_at"], times["created_at"]) if t))
        return SeedRun(
            self.owner, id=uuid.UUID(self.id(run["id"])), job_id=uuid.UUID(self.id(run["job_id"])),
            theme_key=run["theme_key"], theme_label=run["theme_label"], intent=run["intent"], mode=run["mode"],
            terms=terms, target_count=run["target_count"], status=run["status"],
            searched_count=run["searched_count"], duplicate_count=run["duplicate_count"],
            irrelevant_count=run["irrelevant_count"], eligible_count=run["eligible_count"],
            shortfall_reasons=run["shortfall_reasons"], error_summary=run.get("error_summary", ""),
            source_errors={f["source"]: {"kind": f["kind"]} for f in run.get("source_failures", [])},
            payload={"run_id": self.id(run["id"]), "brief": {
                "intent": run["intent"], "terms": terms, "mode": run["mode"], "target_count": run["target_count"],
                "theme_key": run["theme_key"]}},
            job_progress=run.get("job_progress", ""),
            job_progress_stage=run.get("job_progress_stage", "queued" if active else "finished"),
            job_progress_stage_number=run.get("job_progress_stage_number", 0), job_progress_target=run["target_count"],
            job_updated_at=updated, **times)

    def _post(self, post: dict) -> SeedPost:
        return SeedPost(
            self.owner, uuid.UUID(self.id(post["run_id"])) if post["run_id"] else None, post["theme_key"],
            post["score"], id=uuid.UUID(self.id(post["id"])), canonical_id=f"{self.prefix}{post['url'].rsplit('/', 1)[1]}",
            url=post["url"], author=post["author"], text=post["text"], match_reason=post["match_reason"],
            posted_at=_time(post.get("posted_at")), created_at=_time(post["created_at"]),
            outreach_status=post["outreach_status"])
