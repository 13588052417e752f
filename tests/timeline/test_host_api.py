"""The signed host REST API through the real gateway and timeline processes: envelope, errors,
idempotent publish, fan-out by the real worker, cursor paging and tenancy."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor


from devstack.host_client import Host

from .conftest import TENANTS, Rpc, jobs_settled, wait_until


def publish(host: Host, author, body="hello", visibility="public", key=None):
    headers = {"Idempotency-Key": key} if key else None
    return host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": body, "visibility": visibility},
                        headers=headers)


def home(host: Host, viewer, query="limit=50"):
    return host.request("GET", "/api/v1/timeline/home", query=query, viewer=viewer)


def test_signature_is_required_and_checked(host):
    viewer = uuid.uuid4()
    for response in [
        host.client.get("/api/v1/timeline/home"),
        host.request("GET", "/api/v1/timeline/home", viewer=viewer, secret="wrong"),
        host.request("GET", "/api/v1/timeline/home", viewer=viewer, timestamp=int(time.time()) - 3600),
    ]:
        assert response.status_code == 401
        assert response.json() == {"error": {"code": "invalid_signature", "message": response.json()["error"]["message"]}}
    # The query string is signed as sent: signing one limit and sending another fails
    response = host.client.get("/api/v1/timeline/home?limit=6",
                               headers=host.headers("GET", "/api/v1/timeline/home", query="limit=5", viewer=viewer))
    assert response.status_code == 401


def test_identical_writes_in_one_second_each_land_and_a_nonce_is_good_once(host):
    """v3: the nonce, not the clock, tells two identical writes apart. A hundred follows of one user by
    one viewer, all signed with the same timestamp, each with a nonce of its own, are all accepted;
    a nonce sent again with a new signature (a later timestamp) is refused."""
    viewer, followee = uuid.uuid4(), uuid.uuid4()
    path, second = f"/api/v1/timeline/follows/{followee}", int(time.time())
    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda _: host.request("PUT", path, viewer=viewer, timestamp=second).status_code,
                                 range(100)))
    assert statuses == [200] * 100
    nonce = "n" * 32
    first = host.client.put(path, headers=host.headers("PUT", path, viewer=viewer, nonce=nonce))
    again = host.client.put(path, headers=host.headers("PUT", path, viewer=viewer, nonce=nonce,
                                                       timestamp=int(time.time()) + 1))
    assert first.status_code == 200
    assert again.status_code == 401 and again.json()["error"]["code"] == "invalid_signature"


def test_publish_replay_conflict_and_bad_input(host, timeline_engine):
    author = uuid.uuid4()
    created = publish(host, author, "first", key="k-1")
    assert created.status_code == 201
    post = created.json()["data"]
    assert post["author_id"] == str(author) and post["visibility"] == "public"
    assert post["moderation_state"] == "visible" and post["published_at"].endswith("Z")
    assert post["stats"] == {"like_count": 0, "reply_count": 0, "share_count": 0}
    # A retry with the same key (signed anew) gets the first answer; another body under the key is a 422
    replay = publish(host, author, "first", key="k-1")
    assert replay.status_code == 201 and replay.json() == created.json()
    conflict = publish(host, author, "changed", key="k-1")
    assert conflict.status_code == 422 and conflict.json()["error"]["code"] == "idempotency_conflict"
    # The captured request itself, sent again, is refused: its signature was used
    resent = host.client.post("/api/v1/timeline/posts", content=created.request.content, headers=created.request.headers)
    assert resent.status_code == 401 and resent.json()["error"]["code"] == "invalid_signature"
    for bad in [{"body": ""}, {"body": "x", "visibility": "friends"}, {"text": "x"}, [1], {"body": "a\u0000b"},
                {"body": "\u200b\u200d"}, {"body": " \u3164 "}]:
        response = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body=bad)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"
    no_viewer = host.request("POST", "/api/v1/timeline/posts", json_body={"body": "x"})
    assert no_viewer.status_code == 400 and no_viewer.json()["error"]["code"] == "invalid_request"
    # Nothing but the one post was written
    from sqlalchemy import text

    with timeline_engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM timeline.posts WHERE author_id = :a"), {"a": author}).scalar()
    assert count == 1


def test_follow_fanout_paging_and_visibility(host):
    author, viewer = uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=viewer).status_code == 200
    posts = [publish(host, author, f"post {i}").json()["data"] for i in range(5)]
    # Fan-out is asynchronous: the follower sees the posts once the worker has run
    wait_until(lambda: len(home(host, viewer).json()["data"]) == 5, "fan-out through the worker")
    first = home(host, viewer, "limit=2")
    body = first.json()
    assert [item["post_id"] for item in body["data"]] == [posts[4]["id"], posts[3]["id"]]
    item = body["data"][0]
    assert set(item) == {"entry_id", "post_id", "author_id", "body", "published_at", "ranked_at", "stats", "labels",
                         "filtered"}
    assert item["filtered"] == [] and item["labels"] == []
    assert item["ranked_at"] == item["published_at"] == posts[4]["published_at"]
    cursor = body["page"]["next_cursor"]
    # The cursor goes back exactly as returned; a retried read (signed anew) answers the same page
    second = home(host, viewer, f"limit=2&cursor={cursor}")
    retried = home(host, viewer, f"limit=2&cursor={cursor}")
    assert second.status_code == 200 and second.json() == retried.json()
    third = home(host, viewer, f"limit=2&cursor={second.json()['page']['next_cursor']}").json()
    assert [i["post_id"] for i in third["data"]] == [posts[0]["id"]] and third["page"] == {"next_cursor": None}
    # Errors of the read contract
    for query, code in [("limit=0", "invalid_limit"), ("limit=101", "invalid_limit"), ("limit=abc", "invalid_limit"),
                        ("cursor=not-a-cursor", "invalid_cursor"), (f"cursor={cursor[:-1]}B", "invalid_cursor")]:
        response = home(host, viewer, query)
        assert response.status_code == 400 and response.json()["error"]["code"] == code, query
    # Delete, moderation and block hide posts from the next read at once
    assert host.request("DELETE", f"/api/v1/timeline/posts/{posts[4]['id']}", viewer=author).status_code == 200
    moderated = host.request("PUT", f"/api/v1/timeline/posts/{posts[3]['id']}/moderation",
                             json_body={"moderation_state": "hidden"})
    assert moderated.status_code == 200 and moderated.json()["data"]["moderation_state"] == "hidden"
    assert [i["post_id"] for i in home(host, viewer).json()["data"]] == [p["id"] for p in reversed(posts[:3])]
    assert host.request("PUT", f"/api/v1/timeline/blocks/{author}", viewer=viewer).status_code == 200
    assert home(host, viewer).json() == {"data": [], "page": {"next_cursor": None}}
    assert host.request("DELETE", f"/api/v1/timeline/blocks/{author}", viewer=viewer).status_code == 200
    wait_until(lambda: len(home(host, viewer).json()["data"]) == 3, "unblock merges the author's posts")
    assert host.request("DELETE", f"/api/v1/timeline/follows/{author}", viewer=viewer).status_code == 200
    wait_until(lambda: home(host, viewer).json()["data"] == [], "unfollow removes the author's posts")


def test_posts_are_private_to_their_tenant_and_author(host, other_host):
    author, stranger = uuid.uuid4(), uuid.uuid4()
    post = publish(host, author, "mine").json()["data"]
    assert host.request("GET", f"/api/v1/timeline/posts/{post['id']}").json()["data"]["id"] == post["id"]
    for response in [
        other_host.request("GET", f"/api/v1/timeline/posts/{post['id']}"),
        other_host.request("DELETE", f"/api/v1/timeline/posts/{post['id']}", viewer=author),
        other_host.request("PUT", f"/api/v1/timeline/posts/{post['id']}/moderation", json_body={"moderation_state": "removed"}),
        host.request("GET", f"/api/v1/timeline/posts/{uuid.uuid4()}"),
    ]:
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    bad_id = host.request("GET", "/api/v1/timeline/posts/not-a-uuid")
    assert bad_id.status_code == 400 and bad_id.json()["error"]["code"] == "invalid_request"
    private = publish(host, author, "secret", "private").json()["data"]
    hidden = host.request("GET", f"/api/v1/timeline/posts/{private['id']}", viewer=stranger)
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "not_found"
    # A non-author may not delete a post, public or private, and hears what a reader of it would
    for target in (post, private):
        refused = host.request("DELETE", f"/api/v1/timeline/posts/{target['id']}", viewer=stranger)
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
        assert host.request("GET", f"/api/v1/timeline/posts/{target['id']}", viewer=author).status_code == 200
    assert host.request("GET", f"/api/v1/timeline/posts/{post['id']}").json()["data"]["moderation_state"] == "visible"


def test_admin_audits_and_rebuilds_a_drifted_viewer_over_grpc(stack, host, timeline_engine):
    from sqlalchemy import text

    from feeds.timeline.v1 import timeline_pb2 as pb

    author, stranger, viewer = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=viewer).status_code == 200
    posts = [publish(host, author, f"post {i}").json()["data"] for i in range(2)]
    stray = publish(host, stranger, "never followed").json()["data"]
    # Every job of the follow and the publishes acknowledged: none runs again over the drift below
    wait_until(lambda: jobs_settled(timeline_engine, str(viewer), *(p["id"] for p in [*posts, stray])),
               "fan-out and follow jobs acknowledged")
    assert len(home(host, viewer).json()["data"]) == 2
    admin, metadata = Rpc(stack.address).admin, Rpc.metadata(host.tenant)
    request = pb.AuditViewerRequest(viewer_id=str(viewer))
    assert admin.AuditViewer(request, metadata=metadata, timeout=10).in_sync
    # Given drift: a lost entry and a stale one of a post the viewer does not follow
    with timeline_engine.begin() as connection:
        connection.execute(text("DELETE FROM timeline.timeline_entries WHERE viewer_id = :v AND post_id = :p"),
                           {"v": str(viewer), "p": posts[0]["id"]})
        connection.execute(text("INSERT INTO timeline.timeline_entries (id, tenant_id, viewer_id, post_id, author_id, "
                                "kind, ranked_at) VALUES (gen_random_uuid(), :t, :v, :p, :a, 'following', now())"),
                           {"t": host.tenant, "v": str(viewer), "p": stray["id"], "a": str(stranger)})
    # Then the audit reports it, by post id, and changes nothing
    for _ in range(2):
        audit = admin.AuditViewer(request, metadata=metadata, timeout=10)
        assert (list(audit.missing_post_ids), list(audit.extra_post_ids), audit.in_sync) == (
            [posts[0]["id"]], [stray["id"]], False)
    # and another tenant's audit of the same viewer sees none of it
    assert admin.AuditViewer(request, metadata=Rpc.metadata(TENANTS[1]["tenant_id"]), timeout=10).in_sync
    # When the viewer is rebuilt, the drift is gone
    rebuilt = admin.RebuildViewer(pb.RebuildViewerRequest(viewer_id=str(viewer)), metadata=metadata, timeout=10)
    assert (rebuilt.upserted, rebuilt.removed) == (1, 1)
    assert admin.AuditViewer(request, metadata=metadata, timeout=10).in_sync
    assert [item["post_id"] for item in home(host, viewer).json()["data"]] == [posts[1]["id"], posts[0]["id"]]
