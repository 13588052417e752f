"""The news service (server, worker, relay) and the real gateway on free ports, plus the calls the
tests make through them: REST as a member or a guest; over gRPC, identity events and the company
posts of an internal authoring service; direct reads."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import httpx
from sqlalchemy import Engine, create_engine, text

from devstack.platform import Platform, Ports
from devstack.processes import ProcessGroup, grpc_serving, http_ok, python_module, wait_for
from devstack.tokens import member_headers
from devstack.tls import DEV_CA
from feeds.news.v1 import identity_pb2, identity_pb2_grpc, posts_pb2, posts_pb2_grpc

JWT_SECRET = "news-tests-jwt-secret-0123456789abcdef"


def start(group: ProcessGroup, news_env: dict[str, str] | None = None, kinds=("server", "worker", "relay")) -> Platform:
    ports = Ports.free()
    platform = Platform(group, ports=ports, extra_env={"news": news_env or {}, "gateway": {"GATEWAY_JWT_SECRET": JWT_SECRET}})
    group.run("news-migrate", python_module("news", "migrate"), platform.service_env("news"))
    platform.start_service("news", kinds)
    platform.start_gateway()
    wait_for(lambda: grpc_serving(platform.grpc_address("news")), "news SERVING", group)
    wait_for(lambda: http_ok(f"{platform.gateway_url}/healthz"), "gateway up", group)
    return platform


def wait_identity_applied(engine: Engine, group: ProcessGroup, timeout: float = 120.0) -> None:
    """Until every identity event ingested so far is applied and its job acknowledged (news' outbox
    holds only these jobs), so no replica write of one is still to come. The bound only catches a
    stuck worker: a loaded machine may take its time."""
    def drained() -> bool:
        with engine.connect() as connection:
            return connection.execute(text("SELECT count(*) FROM news.outbox WHERE acked_at IS NULL")).scalar() == 0
    wait_for(drained, "the news outbox drained (identity events applied)", group, timeout)


@dataclass
class NewsStack:
    platform: Platform
    database_url: str

    def __post_init__(self) -> None:
        self.http = httpx.Client(base_url=self.platform.gateway_url, timeout=30)
        self.engine: Engine = create_engine(self.database_url)
        self._channel = DEV_CA.channel(self.platform.grpc_address("news"))
        self.identity = identity_pb2_grpc.IdentityReplicaServiceStub(self._channel)
        self.posts = posts_pb2_grpc.PostServiceStub(self._channel)

    def close(self) -> None:
        self.http.close()
        self._channel.close()
        self.engine.dispose()

    def headers(self, member: uuid.UUID | None) -> dict[str, str]:
        return member_headers(JWT_SECRET, member)

    def request(self, method: str, path: str, member: uuid.UUID | None = None, **kwargs) -> httpx.Response:
        headers = {**self.headers(member), **kwargs.pop("headers", {})}
        return self.http.request(method, path, headers=headers, **kwargs)

    # Domain shortcuts, all through the gateway.

    def subscribe(self, member: uuid.UUID, **body) -> httpx.Response:
        return self.request("POST", "/api/v1/subscriptions", member, json=body)

    def follow_author(self, member: uuid.UUID, author: uuid.UUID) -> str:
        response = self.subscribe(member, targetKind="Author", targetUserId=str(author))
        assert response.status_code in (200, 201), response.text
        return response.json()["subscriptionId"]

    def follow_company(self, member: uuid.UUID, company: uuid.UUID) -> str:
        response = self.subscribe(member, targetKind="Company", targetCompanyId=str(company))
        assert response.status_code in (200, 201), response.text
        return response.json()["subscriptionId"]

    def publish(self, writer: uuid.UUID, title: str, *, company: uuid.UUID | None = None,
                category: uuid.UUID | None = None) -> str:
        """A published post: the member's own through REST, a company's from an internal authoring
        service over gRPC (the only way to sign a post as a company); published through REST."""
        if company is not None:
            post_id = self.create_company_post(writer, company, title, category=category).id
        else:
            body = {"title": title, "body": f"{title} body"}
            if category is not None:
                body["categoryId"] = str(category)
            created = self.request("POST", "/api/v1/news/posts", writer, json=body)
            assert created.status_code == 201, created.text
            post_id = created.json()["id"]
        published = self.request("POST", f"/api/v1/news/posts/{post_id}/publish", writer)
        assert published.status_code == 200, published.text
        return post_id

    def create_company_post(self, writer: uuid.UUID, company: uuid.UUID, title: str, *,
                            category: uuid.UUID | None = None) -> posts_pb2.Post:
        request = posts_pb2.CreatePostRequest(title=title, body=f"{title} body", author_company_id=str(company))
        if category is not None:
            request.category_id = str(category)
        return self.posts.CreatePost(request, metadata=[("x-actor-id", str(writer))], timeout=10).post

    def feed(self, member: uuid.UUID | None, **params) -> httpx.Response:
        return self.request("GET", "/api/v1/feed/subscriptions", member, params=params)

    def feed_ids(self, member: uuid.UUID, **params) -> list[str]:
        response = self.feed(member, **params)
        assert response.status_code == 200, response.text
        return [item["id"] for item in response.json()["page"]["items"]]

    # Identity events over gRPC, applied by the worker.

    def ingest(self, **event) -> None:
        self.identity.IngestIdentityEvent(identity_pb2.IngestIdentityEventRequest(**event), timeout=10)

    def wait_applied(self) -> None:
        wait_identity_applied(self.engine, self.platform.group)

    def scalar(self, sql: str, **params):
        with self.engine.connect() as connection:
            return connection.execute(text(sql), params).scalar()

    def rows(self, sql: str, **params) -> list:
        with self.engine.connect() as connection:
            return connection.execute(text(sql), params).all()
