"""`bench_replica`: searches read a live replica while the primary indexes; then the replica is stopped and started
again under the same searches.

In a throw-away database of the configured primary, `seed` formulas of the benchmark corpus (`bench_corpus`) are
indexed, and a throw-away replica of the primary is cloned (`searchapp.replica_server`), which this process's searches
read (`replica_at`). An index job of `formulas` more runs in a process of its own (`index_corpus --sync`, as a worker
runs it: on the primary only), while a thread here searches the ARQMath task-2 formulas in turn and another measures
the replay lag (`replay_delay`: how long the replica takes to replay what the primary has flushed, every LAG_EVERY_S).
Half-way through the job the replica is stopped for `down_seconds`, then started again (its slot kept the WAL it
missed); the searches go on until the job has ended and the replica serves again.

Reported: `replica_share` (the share of searches served by the replica from the job's start to the stop),
`lag_p50_ms` / `lag_p95_ms` / `lag_max_ms` (over the same time), `failover_ms` (from the stop's start to the end of the
first search served by the primary), `recovery_ms` (from the start's start to the end of the first search served by
the replica again) and `searches_failed` (over the whole run, with the first errors).
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg
from django.conf import settings
from django.db import connection, connections

from searchapp.benchmarks.bench_corpus import bench_corpus, write_slt_tsv
from searchapp.benchmarks.pages import database_url
from searchapp.benchmarks.search_speed import query_latex
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Formula, IndexJob
from searchapp.replica_server import EmbeddedReplica, replay_delay, throwaway_replica
from searchapp.search.database import PRIMARY, REPLICA, replica_at
from searchapp.search.query import Query, parse_queries
from searchapp.search.replica import conninfo, first_line, replica_monitor

SEED_CORPUS, CORPUS = "bench-replica-seed", "bench-replica"
LAG_EVERY_S = 0.1
POLL_S = 0.2
RECOVERY_LIMIT_S = 120.0
ERRORS_SHOWN = 5


@dataclass(frozen=True)
class Searched:
    started: float
    ended: float
    database: str | None
    """The database that served it; None when it failed."""
    error: str = ""


class Searches(threading.Thread):
    """Searches the queries in turn until `done` is set, recording each one."""

    def __init__(self, queries: list[Query]):
        super().__init__(name="bench-replica-searches")
        self.queries, self.done, self.log = queries, threading.Event(), list[Searched]()

    def run(self) -> None:
        try:
            for query in itertools.cycle(self.queries):
                if self.done.is_set():
                    return
                started, before = time.monotonic(), replica_monitor().served.copy()
                try:
                    Formula.objects.search(query, k=10)
                except Exception as error:  # every failure is what this measures: counted, never raised
                    self.log.append(Searched(started, time.monotonic(), None, first_line(error)))
                    continue
                served = replica_monitor().served - before
                self.log.append(Searched(started, time.monotonic(), next(iter(served))))
        finally:
            connections.close_all()  # this thread's, the replica's among them

    def first(self, database: str, after: float) -> float | None:
        """When the first search served by `database` that ended after `after` ended."""
        return next((searched.ended for searched in list(self.log) if searched.database == database
                     and searched.ended > after), None)


class LagSamples(threading.Thread):
    """`replay_delay` every LAG_EVERY_S until `done` is set."""

    def __init__(self, replica: EmbeddedReplica):
        super().__init__(name="bench-replica-lag")
        self.replica, self.done, self.seconds, self.error = replica, threading.Event(), list[float](), ""

    def run(self) -> None:
        with self.replica.connect() as standby, \
                psycopg.connect(conninfo(connection.settings_dict), autocommit=True) as primary:
            while not self.done.wait(LAG_EVERY_S):
                try:
                    self.seconds.append(replay_delay(primary, standby))
                except Exception as error:  # reported, and the run goes on without more samples
                    self.error = first_line(error)
                    return


def benchmark(data_dir: Path, formulas: int, seed: int, down_seconds: float, wiki_file: Path | None = None,
              progress=print) -> dict:
    """Run in a throw-away database (`throwaway_database`): returns the report."""
    with tempfile.TemporaryDirectory(prefix="bench_replica_", dir=settings.VAR_DIR) as folder:
        Path(folder).chmod(0o755)  # the replica's server (not root) enters it
        return _benchmark(Path(folder), data_dir, formulas, seed, down_seconds, wiki_file, progress)


def _benchmark(folder: Path, data_dir: Path, formulas: int, seed: int, down_seconds: float, wiki_file: Path | None,
               progress) -> dict:
    strings = bench_corpus(data_dir, seed + formulas, wiki_file, progress=progress).strings
    write_slt_tsv(strings[:seed], folder / "seed.tsv")
    write_slt_tsv(strings[seed:], folder / "more.tsv")
    job = run_job(start_index_job(folder / "seed.tsv", "slt_tsv", SEED_CORPUS, enqueue=False))
    progress(f"seeded {job.formulas_added} formulas; cloning a replica")
    queries = parse_queries(query_latex(data_dir))[0]
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    with throwaway_replica(connection.settings_dict, folder, say=progress) as replica, \
            replica_at(replica.url(connection.settings_dict["NAME"])):
        report = {"clone_seconds": round(time.monotonic() - started, 1),
                  **_run(replica, folder / "more.tsv", down_seconds, queries, progress)}
    return {"formulas_seeded": job.formulas_added, **report, "max_lag_s": settings.MATHSEARCH_REPLICA_MAX_LAG,
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}


def _run(replica: EmbeddedReplica, more: Path, down_seconds: float, queries: list[Query], progress) -> dict:
    searches, lag = Searches(queries), LagSamples(replica)
    searches.start()
    indexer: subprocess.Popen | None = None
    try:
        _wait(lambda: searches.first(REPLICA, 0.0) is not None, "no search was served by the replica")
        indexer, log = _index(more)
        index_started = time.monotonic()
        lag.start()
        _wait(lambda: _half_done() or indexer.poll() is not None, "the index job did not get half-way")
        lag.done.set()
        progress("half-way through the job: stopping the replica")
        stopped = time.monotonic()
        replica.stop()
        stop_ms = (time.monotonic() - stopped) * 1000
        time.sleep(down_seconds)
        progress("starting the replica again")
        restarted = time.monotonic()
        replica.start(say=progress)
        start_ms = (time.monotonic() - restarted) * 1000
        _wait(lambda: indexer.poll() is not None, "the index job did not end", limit=None)
        index_seconds = time.monotonic() - index_started
        _wait(lambda: searches.first(REPLICA, restarted) is not None, "the replica did not serve again",
              limit=RECOVERY_LIMIT_S)
        if indexer.returncode != 0:
            raise RuntimeError(f"the index job failed: {log.read_text().strip().splitlines()[-1:]}")
    finally:
        searches.done.set()
        lag.done.set()
        searches.join()
        if lag.ident is not None:
            lag.join()
        if indexer is not None and indexer.poll() is None:
            indexer.kill()
            indexer.wait()
    return _report(searches.log, lag, index_started, stopped, restarted, stop_ms, start_ms, index_seconds)


def _report(log: list[Searched], lag: LagSamples, index_started: float, stopped: float, restarted: float,
            stop_ms: float, start_ms: float, index_seconds: float) -> dict:
    while_up = [searched for searched in log if index_started <= searched.started and searched.ended < stopped]
    failover = next((s.ended for s in log if s.database == PRIMARY and s.ended > stopped), None)
    recovery = next((s.ended for s in log if s.database == REPLICA and s.ended > restarted), None)
    while_down = [searched for searched in log if stopped < searched.started and searched.ended < restarted]
    failed = [searched for searched in log if searched.database is None]
    job = IndexJob.objects.get(corpus__name=CORPUS)
    milliseconds = np.array(lag.seconds) * 1000
    return {
        "formulas_indexed": job.formulas_added, "index_seconds": round(index_seconds, 1),
        "searches": len(log), "searches_while_up": len(while_up), "search_p50_ms_while_up": _p50_ms(while_up),
        "replica_share": round(sum(s.database == REPLICA for s in while_up) / max(len(while_up), 1), 4),
        "lag_samples": len(lag.seconds), "lag_error": lag.error,
        **({f"lag_{name}_ms": round(float(np.percentile(milliseconds, q)), 1)
            for name, q in (("p50", 50), ("p95", 95), ("max", 100))} if len(milliseconds) else {}),
        "stop_ms": round(stop_ms), "failover_ms": None if failover is None else round((failover - stopped) * 1000),
        "searches_while_down": len(while_down), "search_p50_ms_while_down": _p50_ms(while_down),
        "start_ms": round(start_ms), "recovery_ms": None if recovery is None else round((recovery - restarted) * 1000),
        "searches_failed": len(failed), "errors": sorted({s.error for s in failed})[:ERRORS_SHOWN],
    }


def _p50_ms(searches: list[Searched]) -> float | None:
    return round(float(np.median([s.ended - s.started for s in searches])) * 1000, 1) if searches else None


def _index(more: Path) -> tuple[subprocess.Popen, Path]:
    """`index_corpus --sync` of `more` in a process of its own, on the primary only (no DATABASE_REPLICA_URL)."""
    log = more.with_suffix(".log")
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_REPLICA_URL"}
    with open(log, "w") as output:  # tqdm's progress: a pipe nobody reads would fill and stop the job
        indexer = subprocess.Popen(
            [sys.executable, "manage.py", "index_corpus", str(more), "--format", "slt_tsv", "--corpus", CORPUS, "--sync"],
            cwd=settings.BASE_DIR, stdout=output, stderr=subprocess.STDOUT,
            env={**env, "DJANGO_SETTINGS_MODULE": "mathsearch.settings", "DATABASE_URL": database_url(),
                 "REDIS_URL": settings.REDIS_URL})
    return indexer, log


def _half_done() -> bool:
    job = IndexJob.objects.filter(corpus__name=CORPUS).first()
    if job is None:
        return False
    done, total = job.work
    return total is not None and done * 2 >= total


def _wait(condition, failure: str, limit: float | None = 600.0) -> None:
    deadline = None if limit is None else time.monotonic() + limit
    while not condition():
        if deadline is not None and time.monotonic() > deadline:
            raise RuntimeError(f"{failure} within {limit:g} s")
        time.sleep(POLL_S)
