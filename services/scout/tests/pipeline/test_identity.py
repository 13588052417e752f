"""Canonical identity: the Threads shortcode, whatever URL variant carried it."""

import pytest

from scout.pipeline.identity import post_identity


@pytest.mark.parametrize("url", [
    "https://www.threads.net/@mei.lin/post/C8xYz12AbCd",
    "https://threads.net/@mei.lin/post/C8xYz12AbCd?xmt=AQGz&slof=1",
    "https://www.threads.com/@mei.lin/post/C8xYz12AbCd/",
    "https://threads.com/@mei.lin/post/C8xYz12AbCd#replies",
    "HTTPS://WWW.THREADS.NET/@mei.lin/post/C8xYz12AbCd/?igshid=1",
    "https://www.threads.net/t/C8xYz12AbCd",
])
def test_url_variants_share_one_identity(url):
    identity = post_identity(url)
    assert identity is not None
    assert identity.canonical_id == "C8xYz12AbCd"


def test_shortcode_keeps_its_case():
    assert post_identity("https://www.threads.net/@a/post/ABCdef123") != post_identity(
        "https://www.threads.net/@a/post/abcDEF123")


@pytest.mark.parametrize("url", [
    "https://www.threads.net/@mei.lin",  # a profile
    "https://www.threads.net/search?q=鬼滅之刃",
    "https://www.threads.net/login",
    "https://www.threads.net/@mei.lin/post/",
    "https://www.threads.net/@mei.lin/post/C8xYz12AbCd/likes",
    "https://www.instagram.com/p/C8xYz12AbCd/",
    "https://evil-threads.net/@a/post/C8xYz12AbCd",
    "ftp://www.threads.net/@a/post/C8xYz12AbCd",
    "not a url",
    "",
])
def test_non_post_urls_are_rejected(url):
    assert post_identity(url) is None


def test_canonical_url_is_the_www_threads_net_form():
    identity = post_identity("https://threads.com/@mei.lin/post/C8xYz12AbCd/?x=1")
    assert identity.url == "https://www.threads.net/@mei.lin/post/C8xYz12AbCd"
