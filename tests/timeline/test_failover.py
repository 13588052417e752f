"""The PostgreSQL primary failover drill (devstack.failover): under a publish load through the gateway,
the primary crashes with publishes waiting at their commit, and the standby is promoted. Clients hear
only 503s meanwhile, their retries with the same Idempotency-Key find the publishes that had
committed, and afterwards every accepted publish is there once, on every follower's home timeline
once. The recovery time is a figure of `make bench-timeline`, not a bar of this test."""

from __future__ import annotations

from collections import Counter

from devstack.failover import run_drill


def test_primary_failover_under_publish_load(cluster_data_dir, redis_url, redis_namespace):
    report = run_drill(cluster_data_dir, redis_url, f"{redis_namespace}-failover")

    # Clients heard a success or a 503, nothing else, and the drill did cross a gap
    assert report.errors == Counter(), f"answers besides 2xx and 503: {report.errors}"
    assert report.statuses[503] >= 1
    assert report.in_doubt >= 1, "no publish was in doubt at the crash"
    # Every accepted publish is there once, and nothing else is
    assert len(report.accepted) >= 40
    assert (report.missing, report.duplicated, report.unannounced) == (0, 0, 0)
    # Every follower's home timeline holds each accepted post once
    assert (report.home_found, report.home_doubled) == (report.home_expected, 0)
    assert (report.page_missing, report.page_doubled) == (0, 0)
