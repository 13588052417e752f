"""Scout runs, their results, homework and the jobs module.

Triggers keep the promises the application also keeps, so no code path can break them: a job's
owner, template, reference and payload never change; a terminal run or job never changes status.

Revision ID: 0002
Revises: 0001
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

STATEMENTS = [
    """
    CREATE TABLE scout.jobs (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        template_type varchar(40) NOT NULL,
        ref_id uuid NOT NULL,
        payload jsonb NOT NULL,
        status varchar(16) NOT NULL,
        progress text NOT NULL DEFAULT '',
        progress_eligible integer NOT NULL DEFAULT 0,
        progress_target integer NOT NULL DEFAULT 0,
        cancel_requested boolean NOT NULL DEFAULT false,
        worker_id varchar(200),
        error_summary text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_jobs_status CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
    )
    """,
    "CREATE INDEX ix_jobs_owner_id_created_at ON scout.jobs (owner_id, created_at)",
    "CREATE INDEX ix_jobs_queued_created_at ON scout.jobs (created_at) WHERE status = 'queued'",
    """
    CREATE TABLE scout.runs (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        job_id uuid NOT NULL,
        theme_key varchar(200) NOT NULL,
        theme_label text NOT NULL,
        intent text NOT NULL,
        mode varchar(20) NOT NULL,
        brand_id varchar(100),
        terms jsonb NOT NULL,
        target_count integer NOT NULL,
        status varchar(16) NOT NULL,
        searched_count integer NOT NULL DEFAULT 0,
        duplicate_count integer NOT NULL DEFAULT 0,
        irrelevant_count integer NOT NULL DEFAULT 0,
        eligible_count integer NOT NULL DEFAULT 0,
        shortfall_reasons text[] NOT NULL DEFAULT '{}',
        error_summary text NOT NULL DEFAULT '',
        stage_timings jsonb NOT NULL DEFAULT '[]',
        source_errors jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        completed_at timestamptz,
        CONSTRAINT uq_runs_job_id UNIQUE (job_id),
        CONSTRAINT ck_runs_status CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        CONSTRAINT ck_runs_target_count CHECK (target_count BETWEEN 1 AND 40)
    )
    """,
    "CREATE INDEX ix_runs_owner_id_created_at_id ON scout.runs (owner_id, created_at DESC, id DESC)",
    """
    CREATE TABLE scout.posts (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        run_id uuid REFERENCES scout.runs (id) ON DELETE CASCADE,
        theme_key varchar(200),
        canonical_id varchar(100) NOT NULL,
        url text NOT NULL,
        author text NOT NULL DEFAULT '',
        text text NOT NULL DEFAULT '',
        match_reason text NOT NULL DEFAULT '',
        score double precision NOT NULL,
        posted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        outreach_status varchar(16) NOT NULL DEFAULT 'new',
        draft_text text NOT NULL DEFAULT '',
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_posts_owner_id_canonical_id UNIQUE (owner_id, canonical_id),
        CONSTRAINT ck_posts_outreach_status
            CHECK (outreach_status IN ('new', 'drafted', 'queued', 'published', 'skipped'))
    )
    """,
    """CREATE INDEX ix_posts_run_order ON scout.posts
       (run_id, score DESC, (posted_at IS NULL), posted_at DESC, created_at DESC, id DESC)""",
    "CREATE INDEX ix_posts_legacy_owner_theme ON scout.posts (owner_id, theme_key) WHERE run_id IS NULL",
    """
    CREATE TABLE scout.homework (
        owner_id uuid NOT NULL,
        theme_key varchar(200) NOT NULL,
        brief jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_homework PRIMARY KEY (owner_id, theme_key)
    )
    """,
    """
    CREATE FUNCTION scout.guard_job_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.owner_id <> OLD.owner_id OR NEW.template_type <> OLD.template_type
           OR NEW.ref_id <> OLD.ref_id OR NEW.payload <> OLD.payload THEN
            RAISE EXCEPTION 'a job''s owner, template, reference and payload are immutable';
        END IF;
        IF OLD.status IN ('succeeded', 'failed', 'cancelled') AND NEW.status <> OLD.status THEN
            RAISE EXCEPTION 'a terminal job never changes status';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER guard_job_update BEFORE UPDATE ON scout.jobs FOR EACH ROW EXECUTE FUNCTION scout.guard_job_update()",
    """
    CREATE FUNCTION scout.guard_run_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.owner_id <> OLD.owner_id OR NEW.job_id <> OLD.job_id OR NEW.intent <> OLD.intent
           OR NEW.terms <> OLD.terms OR NEW.target_count <> OLD.target_count OR NEW.mode <> OLD.mode THEN
            RAISE EXCEPTION 'a run''s inputs are immutable';
        END IF;
        IF OLD.status IN ('succeeded', 'failed', 'cancelled') AND NEW.status <> OLD.status THEN
            RAISE EXCEPTION 'a terminal run never changes status';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER guard_run_update BEFORE UPDATE ON scout.runs FOR EACH ROW EXECUTE FUNCTION scout.guard_run_update()",
]


def upgrade() -> None:
    for statement in STATEMENTS:
        op.execute(statement)


def downgrade() -> None:
    for name in ("homework", "posts", "runs", "jobs"):
        op.execute(f"DROP TABLE scout.{name}")
    op.execute("DROP FUNCTION scout.guard_job_update()")
    op.execute("DROP FUNCTION scout.guard_run_update()")
