"""Who signs a post: a member through REST signs only as themself; a company signs only through an
internal authoring service over gRPC (news holds no company membership to check a member against)."""

from __future__ import annotations

import uuid

from tests.news.test_subscriptions import problem


def test_a_member_cannot_sign_a_post_as_a_company_through_rest(news):
    member, company = uuid.uuid4(), uuid.uuid4()
    before = news.scalar("SELECT count(*) FROM news.posts")
    response = news.request("POST", "/api/v1/news/posts", member,
                            json={"title": "as Acme", "body": "b", "authorCompanyId": str(company)})
    problem(response, 400, "VALIDATION_ERROR")
    assert news.scalar("SELECT count(*) FROM news.posts") == before
    assert news.scalar("SELECT count(*) FROM news.posts WHERE author_company_id = :c", c=company) == 0


def test_a_member_post_through_rest_is_signed_by_the_member(news):
    member = uuid.uuid4()
    created = news.request("POST", "/api/v1/news/posts", member, json={"title": "mine", "body": "b"})
    assert created.status_code == 201, created.text
    assert (created.json()["authorUserId"], created.json()["authorCompanyId"]) == (str(member), None)


def test_an_internal_authoring_service_signs_a_post_as_a_company(news):
    writer, company = uuid.uuid4(), uuid.uuid4()
    post = news.create_company_post(writer, company, "company news")
    assert (post.author_company_id, post.author_user_id, post.status) == (str(company), "", "Draft")
    # The named writer owns it like any post of theirs, and its signature is the company's
    assert news.request("POST", f"/api/v1/news/posts/{post.id}/publish", writer).status_code == 200
    shown = news.request("GET", f"/api/v1/news/posts/{post.id}").json()
    assert shown["company"]["id"] == str(company) and shown["author"] is None
    problem(news.request("POST", f"/api/v1/news/posts/{post.id}/unpublish", uuid.uuid4()), 403, "NEWS_POST_FORBIDDEN")


def test_a_burst_of_posts_stops_at_the_members_post_quota_while_reads_go_on(news):
    """200 posts sent in a burst: the default quota of post writes (60 a minute) lets the first 60
    in, each answer saying how many are left; the rest are 429 with Retry-After, and the member's
    reads, counted apart, still answer."""
    member = uuid.uuid4()
    answers = [news.request("POST", "/api/v1/news/posts", member, json={"title": f"burst {n}", "body": "b"})
               for n in range(200)]
    statuses = [a.status_code for a in answers]
    assert statuses[:60] == [201] * 60 and set(statuses[60:]) <= {201, 429}
    # A burst that crosses a minute boundary may see a place or two free up as the sliding window
    # weighs the previous minute's count down.
    accepted = statuses.count(201)
    assert accepted <= 63, statuses
    assert answers[0].headers["ratelimit-policy"] == '"posts";q=60;w=60'
    assert all(a.headers["ratelimit"].startswith('"posts";r=') for a in answers)
    refused = answers[statuses.index(429)]
    problem(refused, 429, "RATE_LIMITED")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert news.scalar("SELECT count(*) FROM news.posts WHERE author_user_id = :m", m=member) == accepted
    read = news.request("GET", "/api/v1/subscriptions", member)
    assert read.status_code == 200 and read.headers["ratelimit-policy"] == '"reads";q=3000;w=60'
