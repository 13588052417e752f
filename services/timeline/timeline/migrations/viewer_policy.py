"""DDL of the revisions that add a viewer's read-time policy (0013 mutes, 0014 word filters and the
posts' folded bodies, 0015 labels), frozen with them; the partitioning migration test gives the application of
today these tables below those revisions. Each revision's DDL: (upgrade, downgrade)."""

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

# In revision order.
REVISIONS = [MUTES, WORD_FILTERS, LABELS]
