"""Input PostgreSQL cannot store is refused by the runtime before any servicer runs."""

from __future__ import annotations

from google.rpc import error_details_pb2, status_pb2

from feeds_runtime.interceptors import nul_field


def test_nul_is_found_in_plain_repeated_map_and_nested_fields():
    assert nul_field(error_details_pb2.ErrorInfo(reason="fine", domain="feeds", metadata={"k": "v"})) is None
    assert nul_field(error_details_pb2.ErrorInfo(reason="bad\x00")) == "reason"
    assert nul_field(error_details_pb2.ErrorInfo(metadata={"k": "v\x00"})) == "metadata"
    assert nul_field(error_details_pb2.ErrorInfo(metadata={"k\x00": "v"})) == "metadata"
    assert nul_field(error_details_pb2.QuotaFailure(violations=[
        error_details_pb2.QuotaFailure.Violation(subject="ok"),
        error_details_pb2.QuotaFailure.Violation(description="no\x00")])) == "violations.description"
    assert nul_field(status_pb2.Status(message="ok")) is None
