"""The models are the whole schema: the migrated database holds exactly what they declare."""

from __future__ import annotations

from feeds_runtime import migrations
from feeds_runtime.db import make_engine
from news.app import SERVICE


def test_the_migrations_create_exactly_what_the_models_declare(fresh_database_url):
    engine = make_engine(fresh_database_url)
    try:
        migrations.upgrade(engine, SERVICE.migrations_dir, SERVICE.schema)
        migrations.check(engine, SERVICE.migrations_dir, SERVICE.schema)
    finally:
        engine.dispose()
