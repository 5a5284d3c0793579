"""Whether searches may read the replica now: a probe of it and of the primary, made at most every PROBE_SECONDS.

A search asks `replica_monitor().state()`. The request that finds a probe due makes it (the others read the last
state meanwhile, never waiting for it), on two connections of this process's own: the primary's flushed WAL position,
then the replica's replayed one. Each probe keeps the primary's position with its time, so the replay lag is how long
ago the primary held no more than the replica has replayed now: every transaction committed by then, a search on the
replica sees. Between two probes it is interpolated by WAL position. It is 0 when the replica has replayed all the
primary has flushed, and it does not grow while the primary is idle, as Postgres's `now() -
pg_last_xact_replay_timestamp()` does.

Searches read the replica while it answers and lags at most MATHSEARCH_REPLICA_MAX_LAG seconds; each change of that
is logged once. A process's first probe cannot always tell the lag (the replica is behind a position only this probe
has seen): until a later one can, searches read the primary.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass

import psycopg
from django.conf import settings
from psycopg.conninfo import make_conninfo

PROBE_SECONDS = 0.5
CONNECT_TIMEOUT_S = 2  # libpq's least
PRIMARY_POSITION = "SELECT pg_current_wal_flush_lsn() - '0/0'::pg_lsn"
REPLAY_POSITION = "SELECT pg_is_in_recovery(), pg_last_wal_replay_lsn() - '0/0'::pg_lsn"

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplicaState:
    kind: str
    """"serving", "down", "lagging", or "measuring" (a fresh process's first probes)."""
    detail: str
    lag_s: float | None = None
    """The replay lag, when the last probe could tell it (at least this much when "lagging")."""

    @property
    def up(self) -> bool:
        return self.kind != "down"

    @property
    def serving(self) -> bool:
        """Searches read the replica."""
        return self.kind == "serving"


class ReplicaMonitor:
    """The replica's state for every thread of a process, and how many searches each database served."""

    def __init__(self, primary: dict, replica: dict, max_lag: float):
        self.databases, self.max_lag = (primary, replica), max_lag
        self.served: Counter[str] = Counter()
        self._connections: dict[str, psycopg.Connection] = {}
        self._history: deque[tuple[float, int]] = deque()  # (time, the primary's position), oldest first
        self._lock = threading.Lock()
        self._due = 0.0
        self._state = ReplicaState("measuring", "not probed yet")

    def state(self) -> ReplicaState:
        if time.monotonic() >= self._due and self._lock.acquire(blocking=False):
            try:
                if time.monotonic() >= self._due:
                    self._set(self._probe())
            finally:
                self._lock.release()
        return self._state

    def settled_state(self) -> ReplicaState:
        """The state once a probe could tell the lag: a fresh process (the healthcheck command) may need probes for
        up to the lag bound and two probes' time."""
        deadline = time.monotonic() + self.max_lag + 2 * PROBE_SECONDS
        state = self.state()
        while state.kind == "measuring" and time.monotonic() < deadline:
            time.sleep(PROBE_SECONDS)
            state = self.state()
        return state

    def failed(self, error: Exception) -> None:
        """A search found the replica failing: searches read the primary until the next probe finds it back."""
        with self._lock:
            self._set(ReplicaState("down", f"a search failed on it: {first_line(error)}"))
            self._due = time.monotonic() + PROBE_SECONDS

    def count(self, database: str) -> None:
        with self._lock:
            self.served[database] += 1

    def close(self) -> None:
        with self._lock:
            for connection in self._connections.values():
                connection.close()
            self._connections.clear()

    def _probe(self) -> ReplicaState:
        now = time.monotonic()
        self._due = now + PROBE_SECONDS
        try:
            primary = self._fetch("primary", PRIMARY_POSITION)[0]
        except psycopg.Error:
            primary = None
        try:
            standby, replayed = self._fetch("replica", REPLAY_POSITION)
        except psycopg.Error as error:
            return ReplicaState("down", first_line(error))
        if not standby:
            return ReplicaState("serving", "answers, but is not a standby: searches read a primary")
        if primary is None:
            return ReplicaState("serving", "standby; the primary does not answer, so its lag is unknown")
        self._history.append((now, int(primary)))
        while now - self._history[0][0] > self.max_lag + 2 * PROBE_SECONDS:
            self._history.popleft()
        return self._judged(now, int(replayed))

    def _judged(self, now: float, replayed: int) -> ReplicaState:
        lag = self._lag(now, replayed)
        if lag is None:
            since = now - self._history[0][0]
            if since <= self.max_lag:
                return ReplicaState("measuring", "standby; its replay lag is being measured")
            return ReplicaState("lagging", f"standby, replay over {since:.1f} s behind (bound {self.max_lag:g} s)", since)
        if lag > self.max_lag:
            return ReplicaState("lagging", f"standby, replay {lag:.1f} s behind (bound {self.max_lag:g} s)", lag)
        return ReplicaState("serving", f"standby, replay {lag:.2f} s behind", lag)

    def _lag(self, now: float, replayed: int) -> float | None:
        """Seconds since the primary's position was `replayed`, from the kept probes (None: before all of them)."""
        later = None
        for time_, position in reversed(self._history):
            if position <= replayed:
                if later is None:
                    return 0.0
                later_time, later_position = later
                share = (replayed - position) / (later_position - position)
                return now - (time_ + share * (later_time - time_))
            later = (time_, position)
        return None

    def _fetch(self, role: str, sql: str) -> tuple:
        connection = self._connections.get(role)
        try:
            if connection is None:
                database = self.databases[0 if role == "primary" else 1]
                connection = psycopg.connect(conninfo(database), autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
                self._connections[role] = connection
            return connection.execute(sql).fetchall()[0]
        except psycopg.Error:
            if connection is not None:
                connection.close()
            self._connections.pop(role, None)
            raise

    def _set(self, state: ReplicaState) -> None:
        if state.kind != self._state.kind and state.kind != "measuring":
            if state.serving:
                log.info("searches read the replica: %s", state.detail)
            else:
                log.warning("searches read the primary: the replica is %s (%s)", state.kind, state.detail)
        self._state = state


_monitor: ReplicaMonitor | None = None
_monitor_lock = threading.Lock()


def replica_monitor() -> ReplicaMonitor:
    """This process's monitor of the configured replica; a new one when the settings name another (`replica_at`, the
    tests' settings)."""
    global _monitor
    key = (settings.DATABASES["default"], settings.DATABASES["replica"])
    with _monitor_lock:
        if _monitor is None or _monitor.databases != key or _monitor.max_lag != settings.MATHSEARCH_REPLICA_MAX_LAG:
            if _monitor is not None:
                _monitor.close()
            _monitor = ReplicaMonitor(*key, max_lag=settings.MATHSEARCH_REPLICA_MAX_LAG)
        return _monitor


def close_monitor() -> None:
    """Close the monitor's connections; the next search that asks makes a new one (`replica_at`'s end)."""
    global _monitor
    with _monitor_lock:
        if _monitor is not None:
            _monitor.close()
        _monitor = None


def conninfo(database: dict) -> str:
    """A libpq connection string for a Django DATABASES entry."""
    return make_conninfo(**{key: value for key, value in [
        ("dbname", database["NAME"]), ("user", database["USER"]), ("password", database["PASSWORD"]),
        ("host", database["HOST"]), ("port", database["PORT"])] if value})


def first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
