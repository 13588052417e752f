"""DDL of the revisions that add read-time policy (0013 mutes, 0014 word filters and the posts'
folded bodies, 0015 labels), public rebuilds (0016) and the verdicts of lasting word filters kept on
entries (0017), frozen with them; the partitioning migration
test gives the application of today these tables below those revisions. Each revision's DDL:
(upgrade, downgrade)."""

MUTES = (
    """
    CREATE TABLE timeline.mutes (
        tenant_id uuid NOT NULL,
        viewer_id uuid NOT NULL,
        author_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        until timestamptz,
        CONSTRAINT pk_mutes PRIMARY KEY (tenant_id, viewer_id, author_id),
        CONSTRAINT ck_mutes_not_self CHECK (viewer_id <> author_id)
    )
    """,
    "DROP TABLE timeline.mutes",
)

WORD_FILTERS = (
    """
    ALTER TABLE timeline.posts ADD COLUMN folded_body text;

    CREATE TABLE timeline.word_filters (
        tenant_id uuid NOT NULL,
        viewer_id uuid NOT NULL,
        id uuid NOT NULL,
        phrase text NOT NULL,
        folded_phrase text NOT NULL,
        action varchar(8) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        CONSTRAINT pk_word_filters PRIMARY KEY (tenant_id, viewer_id, id),
        CONSTRAINT ck_word_filters_action CHECK (action IN ('hide', 'warn'))
    );
    """,
    "DROP TABLE timeline.word_filters; ALTER TABLE timeline.posts DROP COLUMN folded_body",
)

LABELS = (
    """
    ALTER TABLE timeline.posts ADD COLUMN labels text[] NOT NULL DEFAULT '{}';

    CREATE TABLE timeline.label_policies (
        tenant_id uuid NOT NULL,
        label varchar(32) NOT NULL,
        action varchar(8) NOT NULL,
        viewer_may_change boolean NOT NULL,
        CONSTRAINT pk_label_policies PRIMARY KEY (tenant_id, label),
        CONSTRAINT ck_label_policies_action CHECK (action IN ('hide', 'warn', 'show'))
    );

    CREATE TABLE timeline.label_preferences (
        tenant_id uuid NOT NULL,
        viewer_id uuid NOT NULL,
        label varchar(32) NOT NULL,
        action varchar(8) NOT NULL,
        CONSTRAINT pk_label_preferences PRIMARY KEY (tenant_id, viewer_id, label),
        CONSTRAINT ck_label_preferences_action CHECK (action IN ('hide', 'warn', 'show'))
    );
    """,
    "DROP TABLE timeline.label_preferences; DROP TABLE timeline.label_policies; "
    "ALTER TABLE timeline.posts DROP COLUMN labels",
)

REBUILDS = (
    """
    CREATE TABLE timeline.rebuilds (
        tenant_id uuid NOT NULL,
        id uuid NOT NULL,
        viewer_id uuid NOT NULL,
        status varchar(16) NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz,
        entries_written bigint NOT NULL DEFAULT 0,
        entries_removed bigint NOT NULL DEFAULT 0,
        attempts integer NOT NULL DEFAULT 0,
        error varchar(200),
        CONSTRAINT pk_rebuilds PRIMARY KEY (tenant_id, id),
        CONSTRAINT ck_rebuilds_status CHECK (status IN ('queued', 'running', 'succeeded', 'failed'))
    );
    CREATE UNIQUE INDEX uq_rebuilds_live ON timeline.rebuilds (tenant_id, viewer_id)
        WHERE status IN ('queued', 'running');
    CREATE INDEX ix_rebuilds_viewer ON timeline.rebuilds (tenant_id, viewer_id, requested_at DESC);
    """,
    "DROP TABLE timeline.rebuilds",
)

FILTER_VERDICTS = (
    """
    CREATE SEQUENCE timeline.word_filter_version_seq;

    CREATE TABLE timeline.word_filter_versions (
        tenant_id uuid NOT NULL,
        viewer_id uuid NOT NULL,
        version bigint NOT NULL,
        CONSTRAINT pk_word_filter_versions PRIMARY KEY (tenant_id, viewer_id)
    );

    ALTER TABLE timeline.timeline_entries ADD COLUMN hidden_by_filters bigint;
    """,
    # IF EXISTS: below 0009 the entries' table the application sees is the one this revision altered.
    "ALTER TABLE timeline.timeline_entries DROP COLUMN IF EXISTS hidden_by_filters; "
    "DROP TABLE timeline.word_filter_versions; DROP SEQUENCE timeline.word_filter_version_seq",
)

# In revision order.
REVISIONS = [MUTES, WORD_FILTERS, LABELS, REBUILDS, FILTER_VERDICTS]
