"""The embedded cluster is real streaming replication: what the primary commits, the standby shows
(and refuses writes of its own); the multi-host URL reaches the node that accepts writes."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from sqlalchemy import create_engine, text

from devstack.processes import wait_for


def test_a_write_on_the_primary_appears_on_the_replica(postgres_cluster):
    # Given a table and a row committed on the primary
    table = f"replicated_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(postgres_cluster.conninfo("primary"), autocommit=True) as primary:
        primary.execute(f"CREATE TABLE {table} (id int PRIMARY KEY)")
        primary.execute(f"INSERT INTO {table} VALUES (1)")

    # Then the standby shows the row once it has replayed the WAL that carries it
    def replicated() -> bool:
        with psycopg.connect(postgres_cluster.conninfo("replica"), autocommit=True) as replica:
            exists = replica.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()
            return bool(exists and exists[0]) and replica.execute(f"SELECT id FROM {table}").fetchall() == [(1,)]

    wait_for(replicated, "the row on the standby", timeout=30)

    # And the standby is read-only
    with psycopg.connect(postgres_cluster.conninfo("replica"), autocommit=True) as replica:
        assert replica.execute("SELECT pg_is_in_recovery()").fetchone() == (True,)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            replica.execute(f"INSERT INTO {table} VALUES (2)")


def test_urls_name_each_node_and_the_writable_one(postgres_cluster):
    for url, port in [(postgres_cluster.primary_url, postgres_cluster.port("primary")),
                      (postgres_cluster.replica_url, postgres_cluster.port("replica")),
                      (postgres_cluster.multi_host_url("postgres"), postgres_cluster.port("primary"))]:
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                assert connection.execute(text("SELECT inet_server_port()")).scalar_one() == port
        finally:
            engine.dispose()


def test_a_stopped_replica_comes_back_at_its_address_and_catches_up(postgres_cluster):
    # Given the standby stopped while the primary takes a write
    table = f"caught_up_{uuid.uuid4().hex[:8]}"
    postgres_cluster.stop_replica()
    try:
        assert not postgres_cluster.is_running("replica")
        with psycopg.connect(postgres_cluster.conninfo("primary"), autocommit=True) as primary:
            primary.execute(f"CREATE TABLE {table} AS SELECT 1 AS id")
    finally:
        # When it starts again
        postgres_cluster.start_replica()

    # Then it streams and replays what it missed
    postgres_cluster.wait_replayed(timeout=30)
    with psycopg.connect(postgres_cluster.conninfo("replica"), autocommit=True) as replica:
        assert replica.execute(f"SELECT id FROM {table}").fetchall() == [(1,)]
