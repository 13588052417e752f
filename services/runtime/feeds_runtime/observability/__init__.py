"""Metrics and traces, the same way in every process of every service.

`metrics` holds the series shared by all processes and serves them over HTTP; `http` meters the
gateway's requests; `pool` the database pools; `backlog` reads queue and outbox backlogs at scrape
time; `tracing` sets up OpenTelemetry and carries the trace context through outbox rows and
Dramatiq messages. Services declare their own domain series with `prometheus_client` beside their
code and record them through these hooks only.
"""
