"""The scan pipeline of a Scout Run: sources, canonical identity, relevance gate and stages.

Pure of database access: the scan job gives it a brief, the sources, the owner's history and a
target, and publishes the ScanOutcome it returns.
"""

from scout.pipeline.gate import Gate, noise_reason
from scout.pipeline.identity import PostIdentity, post_identity
from scout.pipeline.scan import (
    AcceptedPost,
    AllSourcesUnavailable,
    ScanCancelled,
    ScanCounts,
    ScanOutcome,
    result_order_key,
    run_scan,
)
from scout.pipeline.signature import NoTopicEvidence, TopicSignature, build_signature
from scout.pipeline.sources import build_sources

__all__ = [
    "AcceptedPost", "AllSourcesUnavailable", "Gate", "NoTopicEvidence", "PostIdentity", "ScanCancelled",
    "ScanCounts", "ScanOutcome", "TopicSignature", "build_signature", "build_sources", "noise_reason",
    "post_identity", "result_order_key", "run_scan",
]
