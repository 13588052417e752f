"""A viewer's policy through the signed host API, against the real gateway, timeline server, worker
and relay: mutes (with an end, listed, undone) act on the next read, without a job; bad input is a
400 that changes nothing; another tenant sees none of it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from devstack.host_client import Host

from .conftest import jobs_settled, wait_until


def publish(host: Host, author, body="hello", **more):
    response = host.request("POST", "/api/v1/timeline/posts", viewer=author, json_body={"body": body, **more})
    assert response.status_code == 201, response.text
    return response.json()["data"]


def home_ids(host: Host, viewer, query="limit=50") -> list[str]:
    response = host.request("GET", "/api/v1/timeline/home", query=query, viewer=viewer)
    assert response.status_code == 200, response.text
    return [item["post_id"] for item in response.json()["data"]]


def outbox_rows(engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT count(*) FROM timeline.outbox")).scalar_one()


def followed_posts(host: Host, engine, viewer, author, bodies) -> list[dict]:
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=viewer).status_code == 200
    posts = [publish(host, author, body) for body in bodies]
    wait_until(lambda: jobs_settled(engine, str(viewer), *(p["id"] for p in posts)), "follow and fan-out jobs")
    return posts


def test_a_mute_acts_on_the_next_read_and_an_unmute_undoes_it(host, other_host, timeline_engine):
    viewer, author, other = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    posts = followed_posts(host, timeline_engine, viewer, author, ["one", "two"])
    kept = followed_posts(host, timeline_engine, viewer, other, ["three"])
    assert home_ids(host, viewer) == [kept[0]["id"], posts[1]["id"], posts[0]["id"]]
    jobs = outbox_rows(timeline_engine)
    until = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    muted = host.request("PUT", f"/api/v1/timeline/mutes/{author}", viewer=viewer, json_body={"until": until})
    assert muted.status_code == 200
    body = muted.json()["data"]
    assert set(body) == {"author_id", "until", "created_at"} and body["author_id"] == str(author)
    assert datetime.fromisoformat(body["until"]) == datetime.fromisoformat(until)
    # The very next read leaves the author out, and no job was queued for it
    assert home_ids(host, viewer) == [kept[0]["id"]]
    listed = host.request("GET", "/api/v1/timeline/mutes", viewer=viewer).json()
    assert listed == {"data": [body]}
    # Muting again without an end (no body at all) replaces the end
    forever = host.request("PUT", f"/api/v1/timeline/mutes/{author}", viewer=viewer)
    assert forever.status_code == 200 and forever.json()["data"]["until"] is None
    # A mute is not a block: the author's post stays readable by the viewer
    assert host.request("GET", f"/api/v1/timeline/posts/{posts[0]['id']}", viewer=viewer).status_code == 200
    # Another tenant's viewer of the same id sees nothing of it
    assert other_host.request("GET", "/api/v1/timeline/mutes", viewer=viewer).json() == {"data": []}
    unmuted = host.request("DELETE", f"/api/v1/timeline/mutes/{author}", viewer=viewer)
    assert unmuted.status_code == 200 and unmuted.json() == {"data": {"author_id": str(author), "muted": False}}
    assert home_ids(host, viewer) == [kept[0]["id"], posts[1]["id"], posts[0]["id"]]
    assert outbox_rows(timeline_engine) == jobs


def test_bad_mutes_are_a_400_that_changes_nothing(host):
    viewer, author = uuid.uuid4(), uuid.uuid4()
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    for path, body in [(f"/mutes/{viewer}", None), (f"/mutes/{author}", {"until": past}),
                       (f"/mutes/{author}", {"until": "tomorrow"}), (f"/mutes/{author}", {"until": "2026-13-01T00:00:00Z"}),
                       (f"/mutes/{author}", {"until": 1893456000}), (f"/mutes/{author}", {"for": "ever"}),
                       ("/mutes/not-a-uuid", None)]:
        response = host.request("PUT", f"/api/v1/timeline{path}", viewer=viewer, json_body=body)
        assert response.status_code == 400, (path, body, response.text)
        assert response.json()["error"]["code"] == "invalid_request"
    missing_viewer = host.request("PUT", f"/api/v1/timeline/mutes/{author}")
    assert missing_viewer.status_code == 400
    assert host.request("GET", "/api/v1/timeline/mutes", viewer=viewer).json() == {"data": []}


def test_word_filters_hide_or_mark_from_the_next_read(host, other_host, timeline_engine):
    viewer, author = uuid.uuid4(), uuid.uuid4()
    posts = followed_posts(host, timeline_engine, viewer, author,
                           ["臺灣 news", "Big SPOILER ahead", "about concatenation", "nothing"])
    created = host.request("POST", "/api/v1/timeline/filters", viewer=viewer,
                           json_body={"phrase": "台湾", "action": "hide"})
    assert created.status_code == 201, created.text
    hide = created.json()["data"]
    assert set(hide) == {"id", "phrase", "action", "created_at", "expires_at"}
    assert (hide["phrase"], hide["action"], hide["expires_at"]) == ("台湾", "hide", None)
    expires = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    warn = host.request("POST", "/api/v1/timeline/filters", viewer=viewer,
                        json_body={"phrase": "Spoiler", "action": "warn", "expires_at": expires}).json()["data"]
    cat = host.request("POST", "/api/v1/timeline/filters", viewer=viewer, json_body={"phrase": "cat"}).json()["data"]
    assert cat["action"] == "hide"
    page = host.request("GET", "/api/v1/timeline/home", query="limit=50", viewer=viewer).json()
    assert [item["post_id"] for item in page["data"]] == [posts[3]["id"], posts[2]["id"], posts[1]["id"]]
    assert [item["filtered"] for item in page["data"]] == [
        [], [], [{"kind": "word", "filter_id": warn["id"], "value": "Spoiler"}]]
    listed = host.request("GET", "/api/v1/timeline/filters", viewer=viewer).json()["data"]
    assert [f["id"] for f in listed] == [hide["id"], warn["id"], cat["id"]]
    # Another tenant cannot see or delete them, and its reads are untouched
    assert other_host.request("GET", "/api/v1/timeline/filters", viewer=viewer).json() == {"data": []}
    foreign = other_host.request("DELETE", f"/api/v1/timeline/filters/{hide['id']}", viewer=viewer)
    assert foreign.status_code == 404 and foreign.json()["error"]["code"] == "not_found"
    deleted = host.request("DELETE", f"/api/v1/timeline/filters/{hide['id']}", viewer=viewer)
    assert deleted.status_code == 200 and deleted.json() == {"data": {"id": hide["id"], "deleted": True}}
    assert home_ids(host, viewer)[-1] == posts[0]["id"]
    again = host.request("DELETE", f"/api/v1/timeline/filters/{hide['id']}", viewer=viewer)
    assert again.status_code == 404


def test_full_pages_and_bad_filters(host, timeline_engine):
    viewer, author = uuid.uuid4(), uuid.uuid4()
    posts = followed_posts(host, timeline_engine, viewer, author,
                           [("spoiler " if i % 4 else "") + f"post {i}" for i in range(12)])
    assert host.request("POST", "/api/v1/timeline/filters", viewer=viewer,
                        json_body={"phrase": "spoiler"}).status_code == 201
    shown = [p["id"] for i, p in reversed(list(enumerate(posts))) if i % 4 == 0]
    # Pages of two are full although three in four entries are hidden
    first = host.request("GET", "/api/v1/timeline/home", query="limit=2", viewer=viewer).json()
    assert [item["post_id"] for item in first["data"]] == shown[:2]
    cursor = first["page"]["next_cursor"]
    second = host.request("GET", "/api/v1/timeline/home", query=f"limit=2&cursor={cursor}", viewer=viewer).json()
    assert [item["post_id"] for item in second["data"]] == shown[2:] and second["page"]["next_cursor"] is None
    for body in [{"phrase": ""}, {"phrase": " "}, {"phrase": "x" * 101}, {"phrase": "x", "action": "mute"},
                 {"phrase": "x", "expires_at": "2020-01-01T00:00:00Z"}, {"phrase": "x", "extra": 1}, {}]:
        response = host.request("POST", "/api/v1/timeline/filters", viewer=viewer, json_body=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request", body
    assert len(host.request("GET", "/api/v1/timeline/filters", viewer=viewer).json()["data"]) == 1


def test_labels_and_their_policies_and_preferences(host, other_host, timeline_engine):
    viewer, author = uuid.uuid4(), uuid.uuid4()
    assert host.request("PUT", f"/api/v1/timeline/follows/{author}", viewer=viewer).status_code == 200
    spoiler = publish(host, author, "the end", labels=["spoiler", "spoiler"])
    assert spoiler["labels"] == ["spoiler"]
    nsfw = publish(host, author, "art")
    plain = publish(host, author, "plain")
    wait_until(lambda: jobs_settled(timeline_engine, str(viewer), spoiler["id"], nsfw["id"], plain["id"]), "fan-out")
    labelled = host.request("PUT", f"/api/v1/timeline/posts/{nsfw['id']}/labels", json_body={"labels": ["nsfw"]})
    assert labelled.status_code == 200 and labelled.json()["data"]["labels"] == ["nsfw"]
    policy = host.request("PUT", "/api/v1/timeline/label-policies/nsfw",
                          json_body={"action": "hide", "viewer_may_change": False})
    assert policy.status_code == 200
    assert policy.json() == {"data": {"label": "nsfw", "action": "hide", "viewer_may_change": False}}
    assert host.request("PUT", "/api/v1/timeline/label-policies/spoiler", json_body={"action": "warn"}).json()[
        "data"]["viewer_may_change"] is True
    page = host.request("GET", "/api/v1/timeline/home", query="limit=50", viewer=viewer).json()["data"]
    assert [item["post_id"] for item in page] == [plain["id"], spoiler["id"]]
    assert page[1]["labels"] == ["spoiler"]
    assert page[1]["filtered"] == [{"kind": "label", "filter_id": None, "value": "spoiler"}]
    # The viewer's preferences: spoilers shown (allowed), nsfw shown (not allowed: the tenant decides)
    for label in ("spoiler", "nsfw"):
        preference = host.request("PUT", f"/api/v1/timeline/label-preferences/{label}", viewer=viewer,
                                  json_body={"action": "show"})
        assert preference.status_code == 200 and preference.json() == {"data": {"label": label, "action": "show"}}
    page = host.request("GET", "/api/v1/timeline/home", query="limit=50", viewer=viewer).json()["data"]
    assert [(item["post_id"], item["filtered"]) for item in page] == [(plain["id"], []), (spoiler["id"], [])]
    assert [p["label"] for p in host.request("GET", "/api/v1/timeline/label-preferences", viewer=viewer).json()[
        "data"]] == ["nsfw", "spoiler"]
    assert [p["label"] for p in host.request("GET", "/api/v1/timeline/label-policies").json()["data"]] == [
        "nsfw", "spoiler"]
    # Another tenant sees none of it and cannot touch the post
    assert other_host.request("GET", "/api/v1/timeline/label-policies").json() == {"data": []}
    foreign = other_host.request("PUT", f"/api/v1/timeline/posts/{plain['id']}/labels", json_body={"labels": ["x"]})
    assert foreign.status_code == 404
    assert other_host.request("DELETE", "/api/v1/timeline/label-policies/nsfw").status_code == 404
    # Lifting the tenant's policy lets the viewer's preference decide
    deleted = host.request("DELETE", "/api/v1/timeline/label-policies/nsfw")
    assert deleted.json() == {"data": {"label": "nsfw", "deleted": True}}
    assert len(home_ids(host, viewer)) == 3
    assert host.request("DELETE", "/api/v1/timeline/label-preferences/nsfw", viewer=viewer).status_code == 200
    # Bad input is a 400 that changes nothing
    for method, path, body in [
        ("PUT", f"/api/v1/timeline/posts/{plain['id']}/labels", {"labels": ["Not Valid"]}),
        ("PUT", f"/api/v1/timeline/posts/{plain['id']}/labels", {"labels": [f"l{n}" for n in range(11)]}),
        ("PUT", f"/api/v1/timeline/posts/{plain['id']}/labels", {}),
        ("PUT", "/api/v1/timeline/label-policies/BAD", {"action": "hide"}),
        ("PUT", "/api/v1/timeline/label-policies/ok", {"action": "mute"}),
        ("PUT", "/api/v1/timeline/label-policies/ok", {"action": "hide", "viewer_may_change": 0}),
        ("PUT", "/api/v1/timeline/label-preferences/ok", {"action": "hide", "viewer_may_change": True}),
        ("POST", "/api/v1/timeline/posts", {"body": "x", "labels": "spoiler"}),
    ]:
        response = host.request(method, path, viewer=viewer, json_body=body)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request", (path, body)
    assert host.request("GET", f"/api/v1/timeline/posts/{plain['id']}").json()["data"]["labels"] == []
    assert [p["label"] for p in host.request("GET", "/api/v1/timeline/label-policies").json()["data"]] == ["spoiler"]


def test_a_host_rebuilds_a_viewer_and_follows_its_status(stack, host, other_host, timeline_engine):
    viewer, author = uuid.uuid4(), uuid.uuid4()
    posts = followed_posts(host, timeline_engine, viewer, author, ["one", "two"])
    own = publish(host, viewer, "own")
    wait_until(lambda: jobs_settled(timeline_engine, own["id"]), "the viewer's own post")
    # Given drift: a lost entry
    with timeline_engine.begin() as connection:
        connection.execute(text("DELETE FROM timeline.timeline_entries WHERE viewer_id = :v AND post_id = :p"),
                           {"v": str(viewer), "p": posts[0]["id"]})
    assert home_ids(host, viewer) == [own["id"], posts[1]["id"]]
    accepted = host.request("POST", f"/api/v1/timeline/viewers/{viewer}/rebuild")
    assert accepted.status_code == 202, accepted.text
    rebuild = accepted.json()["data"]
    assert accepted.headers["Location"] == f"/api/v1/timeline/rebuilds/{rebuild['id']}"
    assert set(rebuild) == {"id", "viewer_id", "status", "requested_at", "started_at", "finished_at",
                            "entries_written", "entries_removed", "error"}
    assert rebuild["viewer_id"] == str(viewer) and rebuild["status"] in ("queued", "running", "succeeded")

    def status() -> dict:
        response = host.request("GET", f"/api/v1/timeline/rebuilds/{rebuild['id']}")
        assert response.status_code == 200
        return response.json()["data"]

    wait_until(lambda: status()["status"] == "succeeded", "the rebuild job")
    done = status()
    assert (done["entries_written"], done["entries_removed"], done["error"]) == (1, 0, None)
    assert done["started_at"] and done["finished_at"]
    assert host.request("GET", f"/api/v1/timeline/viewers/{viewer}/rebuild").json()["data"] == done
    # The drift is repaired and the viewer's own post kept
    assert home_ids(host, viewer) == [own["id"], posts[1]["id"], posts[0]["id"]]
    # Another tenant sees neither the rebuild nor the viewer's
    for path in (f"/api/v1/timeline/rebuilds/{rebuild['id']}", f"/api/v1/timeline/viewers/{viewer}/rebuild"):
        foreign = other_host.request("GET", path)
        assert foreign.status_code == 404 and foreign.json()["error"]["code"] == "not_found"
    for method, path in [("POST", "/api/v1/timeline/viewers/not-a-uuid/rebuild"),
                         ("GET", "/api/v1/timeline/rebuilds/not-a-uuid")]:
        response = host.request(method, path)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_request"
    # The same over gRPC, for internal callers
    from feeds.timeline.v1 import timeline_pb2 as pb

    from .conftest import Rpc

    rpc = Rpc(stack.address)
    metadata = Rpc.metadata(host.tenant)
    requested = rpc.timeline.RequestRebuild(pb.RequestRebuildRequest(viewer_id=str(viewer)), metadata=metadata,
                                            timeout=10)
    assert requested.created and requested.rebuild.id != rebuild["id"]
    wait_until(lambda: rpc.timeline.GetRebuild(pb.GetRebuildRequest(rebuild_id=requested.rebuild.id),
                                               metadata=metadata, timeout=10).rebuild.status
               == pb.REBUILD_STATUS_SUCCEEDED, "the second rebuild")
    assert home_ids(host, viewer) == [own["id"], posts[1]["id"], posts[0]["id"]]
