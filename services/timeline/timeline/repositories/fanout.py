"""Fan-out runs: one progress row per post, its planned chunks and how many entries they wrote."""

from __future__ import annotations

import uuid
from datetime import datetime

from sqlalchemy import text

from feeds_runtime.db import Executor, affected


class FanoutRunRepository:
    def __init__(self, session: Executor) -> None:
        self.session = session

    def start(self, tenant_id: uuid.UUID, post_id: uuid.UUID, published_at: datetime) -> int:
        """Open a fan-out run for the post (a new generation if one ran before); returns the generation."""
        return self.session.execute(
            text(
                """
                INSERT INTO timeline.fanout_progress (post_id, tenant_id, published_at) VALUES (:post, :tenant, :published)
                ON CONFLICT (post_id) DO UPDATE SET generation = fanout_progress.generation + 1,
                    chunks_pending = NULL, chunks_done = 0, entries_written = 0, completed_at = NULL,
                    skipped_reason = NULL
                WHERE fanout_progress.tenant_id = EXCLUDED.tenant_id
                RETURNING generation
                """
            ),
            {"post": post_id, "tenant": tenant_id, "published": published_at},
        ).scalar_one()

    def plan(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, chunks: int) -> bool:
        """Record the run's chunks as pending, once: False when this generation was planned already
        (a duplicate or stale first job) or has ended."""
        return affected(self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET chunks_pending = ARRAY(SELECT generate_series(0, CAST(:chunks AS integer) - 1))
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation
                  AND chunks_pending IS NULL AND completed_at IS NULL
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "chunks": chunks},
        )) > 0

    def finish_chunk(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, chunk: int,
                     written: int) -> float | None:
        """Count the chunk once (a duplicate finds it no longer pending) and complete the run with its
        last chunk. Kept as the chunk's last statement: it holds the progress row until commit.
        Returns the seconds from publication to completion when this chunk ended the post's first run."""
        return self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET chunks_pending = array_remove(chunks_pending, CAST(:chunk AS integer)),
                    chunks_done = chunks_done + 1, entries_written = entries_written + :written,
                    completed_at = CASE WHEN cardinality(array_remove(chunks_pending, CAST(:chunk AS integer))) = 0
                                        THEN clock_timestamp() END
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation
                  AND completed_at IS NULL AND CAST(:chunk AS integer) = ANY(chunks_pending)
                RETURNING CASE WHEN generation = 1 THEN CAST(EXTRACT(EPOCH FROM completed_at - published_at) AS float8) END
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "chunk": chunk, "written": written},
        ).scalar()

    def skip(self, tenant_id: uuid.UUID, post_id: uuid.UUID, generation: int, reason: str) -> None:
        """End the run without materializing: the post no longer fans out."""
        self.session.execute(
            text(
                """
                UPDATE timeline.fanout_progress SET completed_at = clock_timestamp(), skipped_reason = :reason
                WHERE tenant_id = :tenant AND post_id = :post AND generation = :generation AND completed_at IS NULL
                """
            ),
            {"tenant": tenant_id, "post": post_id, "generation": generation, "reason": reason},
        )
