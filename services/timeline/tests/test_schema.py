"""The models are the whole schema: the migrated database holds exactly what they declare."""

from __future__ import annotations

from sqlalchemy import text

from feeds_runtime import migrations
from feeds_runtime.db import make_engine
from timeline.app import SERVICE


def test_the_migrations_create_exactly_what_the_models_declare(fresh_database_url):
    engine = make_engine(fresh_database_url)
    try:
        migrations.upgrade(engine, SERVICE.migrations_dir, SERVICE.schema)
        migrations.check(engine, SERVICE.migrations_dir, SERVICE.schema)
    finally:
        engine.dispose()


# The tables Citus would distribute and their distribution columns, co-located: the viewer's
# entries, its horizon and its follows on one shard (deploy/README.md). The rest are reference or
# coordinator tables, which Citus puts no such rule on.
DISTRIBUTED = {"timeline_entries": "viewer_id", "viewer_horizons": "viewer_id", "follows": "follower_id"}


def test_the_schema_keeps_to_what_citus_needs_to_distribute_it(timeline_db):
    with timeline_db.transaction() as session:
        unique_keys = session.execute(text(
            "SELECT t.relname, array_agg(a.attname::text) FROM pg_index i "
            "JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY(i.indkey) "
            "WHERE n.nspname = 'timeline' AND i.indisunique AND t.relname = ANY(:tables) AND NOT t.relispartition "
            "GROUP BY t.relname, i.indexrelid"), {"tables": list(DISTRIBUTED)}).all()
        foreign_keys = session.execute(text(
            "SELECT conname FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
            "WHERE n.nspname = 'timeline' AND c.contype = 'f'")).scalars().all()
        partition_key = session.execute(text(
            "SELECT pg_get_partkeydef('timeline.timeline_entries'::regclass)")).scalar_one()
    # Every key of a distributed table holds its distribution column
    assert {table for table, _ in unique_keys} == set(DISTRIBUTED)
    for table, columns in unique_keys:
        assert DISTRIBUTED[table] in columns, (table, columns)
    # no foreign key crosses distribution keys (there is none at all)
    assert foreign_keys == []
    # and the entries are partitioned here by the column Citus would distribute them by
    assert partition_key == f"HASH ({DISTRIBUTED['timeline_entries']})"
