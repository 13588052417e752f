"""The soak's load: a fixed population of members calling the gateway as hosts and browsers do, one
operation started every 1/rate seconds, at most `concurrency` of them in flight (a start waits for a
free slot, and the report says how many started late). Each request is timed from being sent to its
whole answer read (the client's connection pool kept warm), and every answer counted by its status."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

import httpx

from devstack.host_client import Host
from devstack.tokens import member_headers

MEMBERS = 100
# The first members also write news posts, so subscriptions have something to show.
NEWS_WRITERS = 20
# What a dev-corpus scan finds (scout's offline sample, SCOUT_SOURCES=dev under FEEDS_ENV=dev).
SCAN_BRIEF = {"intent": "想追周杰倫最近的演唱會", "terms": ["周杰倫 演唱會", "周董 演唱會"], "target_count": 5}
CLIENT_TIMEOUT_SECONDS = 30.0
UNDO_SHARE = 1 / 3

K = TypeVar("K")
V = TypeVar("V")

# (action, weight): how often each action runs. An action that toggles state (follow or unfollow,
# subscribe or unsubscribe) is one row of the mix and two operations in the report.
MIX = (
    ("home", 30),
    ("feed", 20),
    ("publish", 15),
    ("follow_toggle", 15),
    ("subscription_toggle", 10),
    ("news_post", 5),
    ("scan", 2),
)


def cycle(mix: tuple[tuple[str, int], ...] = MIX) -> list[str]:
    """One cycle of the mix, each action as often as its weight and spread evenly (smooth weighted
    round-robin), so the run is the same sequence every time and every action comes early."""
    total = sum(weight for _, weight in mix)
    credit = dict.fromkeys((name for name, _ in mix), 0)
    order = []
    for _ in range(total):
        for name, weight in mix:
            credit[name] += weight
        chosen = max(credit, key=lambda name: credit[name])
        credit[chosen] -= total
        order.append(chosen)
    return order


@dataclass
class Recorder:
    """Latencies (ms) per operation and answers per operation and status ("200", "timeout", …)."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    # Exceptions of the soak's own code (an answer it could not read), by type: a broken soak.
    crashes: Counter[str] = field(default_factory=Counter)
    late_starts: int = 0
    started: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, operation: str, milliseconds: float, status: str) -> None:
        with self.lock:
            self.latencies[operation].append(milliseconds)
            self.statuses[operation][status] += 1


class Failed(Exception):
    """An answer the next step of an operation cannot use; its status is already counted."""


@dataclass
class Population:
    """Who exists and what the load has done so far, so toggles undo what they did."""

    members: list[uuid.UUID]
    follows: dict[tuple[uuid.UUID, uuid.UUID], None] = field(default_factory=dict)  # (follower, followee)
    subscriptions: dict[tuple[uuid.UUID, uuid.UUID], str] = field(default_factory=dict)  # (member, author) → id
    scan_runs: list[tuple[uuid.UUID, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Load:
    """Runs the mix against one gateway; `run` blocks for the whole duration."""

    def __init__(self, gateway_url: str, host_key: dict[str, str], jwt_secret: str, recorder: Recorder) -> None:
        self.gateway_url = gateway_url
        self.host_key = host_key
        self.jwt_secret = jwt_secret
        self.recorder = recorder
        # Who acts is drawn at random (a lock: the worker threads share the generator).
        self.rng = random.Random()
        self.rng_lock = threading.Lock()
        self.population = Population(members=[uuid.uuid4() for _ in range(MEMBERS)])
        self.local = threading.local()
        self.clients: list[httpx.Client | Host] = []
        self.actions: dict[str, Callable[[], None]] = {
            "home": self.home, "feed": self.feed, "publish": self.publish, "follow_toggle": self.follow_toggle,
            "subscription_toggle": self.subscription_toggle, "news_post": self.news_post, "scan": self.scan,
        }

    # Clients: one of each per worker thread, so no connection pool is shared across threads.

    def _host(self) -> Host:
        if not hasattr(self.local, "host"):
            self.local.host = Host(self.gateway_url, self.host_key, timeout=CLIENT_TIMEOUT_SECONDS)
            self.clients.append(self.local.host)
        return self.local.host

    def _http(self) -> httpx.Client:
        if not hasattr(self.local, "http"):
            self.local.http = httpx.Client(base_url=self.gateway_url, timeout=CLIENT_TIMEOUT_SECONDS)
            self.clients.append(self.local.http)
        return self.local.http

    def _timed(self, operation: str, send: Callable[[], httpx.Response], expected: tuple[int, ...]) -> httpx.Response:
        started = time.perf_counter()
        try:
            response = send()
        except httpx.TimeoutException:
            self.recorder.record(operation, (time.perf_counter() - started) * 1000, "timeout")
            raise Failed(operation) from None
        except httpx.TransportError as error:
            self.recorder.record(operation, (time.perf_counter() - started) * 1000, type(error).__name__)
            raise Failed(operation) from None
        self.recorder.record(operation, (time.perf_counter() - started) * 1000, str(response.status_code))
        if response.status_code not in expected:
            raise Failed(operation)
        return response

    def _signed(self, operation: str, method: str, path: str, viewer: uuid.UUID, expected: tuple[int, ...],
                **kwargs) -> httpx.Response:
        return self._timed(operation, lambda: self._host().request(method, path, viewer=viewer, **kwargs), expected)

    def _member(self, operation: str, method: str, path: str, member: uuid.UUID, expected: tuple[int, ...],
                **kwargs) -> httpx.Response:
        headers = member_headers(self.jwt_secret, member)
        return self._timed(operation, lambda: self._http().request(method, path, headers=headers, **kwargs), expected)

    def _pick(self, count: int = 1, among: int = MEMBERS) -> list[uuid.UUID]:
        with self.rng_lock:
            return self.rng.sample(self.population.members[:among], count)

    # Actions.

    def home(self) -> None:
        (viewer,) = self._pick()
        self._signed("home", "GET", "/api/v1/timeline/home", viewer, (200,), query="limit=50")

    def publish(self) -> None:
        (author,) = self._pick()
        self._signed("publish", "POST", "/api/v1/timeline/posts", author, (201,),
                     json_body={"body": f"soak post {uuid.uuid4().hex[:8]}"},
                     headers={"Idempotency-Key": uuid.uuid4().hex})

    def _claim(self, made: dict[K, V]) -> tuple[K, V] | None:
        """One time in three, one of the follows or subscriptions made so far, taken out of `made` (so
        no other thread undoes it too) for the toggle to undo; the graph keeps growing meanwhile."""
        with self.population.lock, self.rng_lock:
            if not made or self.rng.random() >= UNDO_SHARE:
                return None
            chosen = self.rng.choice(list(made))
            return chosen, made.pop(chosen)

    def follow_toggle(self) -> None:
        claimed = self._claim(self.population.follows)
        if claimed is not None:
            (follower, followee), _ = claimed
            self._signed("unfollow", "DELETE", f"/api/v1/timeline/follows/{followee}", follower, (200,))
            return
        follower, followee = self._pick(2)
        self._signed("follow", "PUT", f"/api/v1/timeline/follows/{followee}", follower, (200,))
        with self.population.lock:
            self.population.follows[(follower, followee)] = None

    def feed(self) -> None:
        (member,) = self._pick()
        self._member("feed", "GET", "/api/v1/feed/subscriptions", member, (200,))

    def subscription_toggle(self) -> None:
        claimed = self._claim(self.population.subscriptions)
        if claimed is not None:
            (member, _), subscription = claimed
            self._member("unsubscribe", "DELETE", f"/api/v1/subscriptions/{subscription}", member, (204,))
            return
        (member,) = self._pick()
        (author,) = self._pick(among=NEWS_WRITERS)
        if member == author:
            return
        answer = self._member("subscribe", "POST", "/api/v1/subscriptions", member, (200, 201),
                              json={"targetKind": "Author", "targetUserId": str(author)})
        with self.population.lock:
            self.population.subscriptions[(member, author)] = answer.json()["subscriptionId"]

    def news_post(self) -> None:
        (writer,) = self._pick(among=NEWS_WRITERS)
        created = self._member("news_write", "POST", "/api/v1/news/posts", writer, (201,),
                               json={"title": f"soak {uuid.uuid4().hex[:8]}", "body": "a post of the soak"})
        self._member("news_publish", "POST", f"/api/v1/news/posts/{created.json()['id']}/publish", writer, (200,))

    def scan(self) -> None:
        (member,) = self._pick()
        answer = self._member("scan", "POST", "/api/v1/scout/scan", member, (200,), json={"brief": SCAN_BRIEF})
        with self.population.lock:
            self.population.scan_runs.append((member, answer.json()["data"]["run"]["id"]))

    def scan_statuses(self) -> Counter[str]:
        """Each scan run's status as its member reads it (after the load, once backlogs drained)."""
        statuses: Counter[str] = Counter()
        for member, run_id in self.population.scan_runs:
            answer = self._http().get(f"/api/v1/scout/runs/{run_id}", headers=member_headers(self.jwt_secret, member))
            statuses[answer.json()["data"]["status"] if answer.status_code == 200 else f"HTTP {answer.status_code}"] += 1
        return statuses

    # The schedule.

    def _run_one(self, action: str) -> None:
        try:
            self.actions[action]()
        except Failed:
            pass  # counted by its status; the schedule goes on
        except Exception as error:
            with self.recorder.lock:
                self.recorder.crashes[f"{action}: {type(error).__name__}"] += 1

    def run(self, rate: float, seconds: float, concurrency: int, stop: threading.Event) -> None:
        """Starts operation n at n/rate seconds, for `seconds`, with at most `concurrency` in flight;
        returns once every started operation has ended (or `stop` is set and they have)."""
        slots = threading.BoundedSemaphore(concurrency)
        actions = cycle()
        interval = 1.0 / rate
        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="soak") as pool:
            n = 0
            while not stop.is_set():
                due = began + n * interval
                if due - began >= seconds:
                    break
                if stop.wait(max(0.0, due - time.monotonic())):
                    break
                slots.acquire()
                if time.monotonic() - due > interval:
                    self.recorder.late_starts += 1
                self.recorder.started += 1
                pool.submit(self._run_one, actions[n % len(actions)]).add_done_callback(lambda _: slots.release())
                n += 1

    def close(self) -> None:
        for client in self.clients:
            client.close()
