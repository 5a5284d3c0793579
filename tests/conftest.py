"""Shared fixtures. The database is the real embedded (or DATABASE_URL) Postgres; see mathsearch.embedded."""
import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def database_url(settings_dict: dict) -> str:
    """A DATABASE_URL for the database Django is using now (the test database inside tests)."""
    auth = settings_dict["USER"] + (f":{settings_dict['PASSWORD']}" if settings_dict["PASSWORD"] else ":")
    host = settings_dict["HOST"]
    if host.startswith("/"):
        return f"postgresql://{auth}@/{settings_dict['NAME']}?host={host}"
    return f"postgresql://{auth}@{host}:{settings_dict['PORT'] or 5432}/{settings_dict['NAME']}"


def skip_unless_ci(reason: str):
    """A missing input (`../shared`, a browser) skips the test locally but fails it in CI, where it must run."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: this test must run there")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        skip_unless_ci(f"benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as a deployed one is: the model's codebook loaded once, not by the first job of each test
    (8,192 centroids into two HNSW indexes, then rolled back). The flush after each transactional test leaves the
    codebook's tables as they are, so none of those tests loads it again either (5-10 s each)."""
    from django.core.management.commands import flush

    from searchapp.indexing.codebook import ensure_codebook_loaded

    with django_db_blocker.unblock():
        ensure_codebook_loaded()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(flush, "sql_flush", _sql_flush_but_the_codebook)
        yield


def _sql_flush_but_the_codebook(style, connection, reset_sequences=True, allow_cascade=False) -> list[str]:
    """Django's `sql_flush` without the centroid tables and the row naming their codebook: kept together, the row still
    says which codebook the tables hold, so a test that changed it has the next job load the model's again."""
    from searchapp.indexing.codebook import CENTROID_MODELS
    from searchapp.models import CodebookState

    kept = {model._meta.db_table for model in [*CENTROID_MODELS.values(), CodebookState]}
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    return connection.ops.sql_flush(style, sorted(set(tables) - kept), reset_sequences=reset_sequences,
                                    allow_cascade=allow_cascade)


@pytest.fixture(scope="session")
def service_env(django_db_setup, django_db_blocker) -> dict:
    """Environment for child processes (workers, servers) that must use the test database and broker."""
    from django.conf import settings
    from django.db import connection

    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "mathsearch.settings", "DATABASE_URL": url,
            "REDIS_URL": settings.REDIS_URL, "PYTHONUNBUFFERED": "1"}


def start_worker(env: dict, queues: str = "celery,index,index_small", pool: str = "solo") -> subprocess.Popen:
    """A real Celery worker process; the solo pool runs tasks in that very process, so killing it kills the task.
    The prefork pool (as `serve` runs it, one child) is the one that enforces time limits."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "mathsearch", "worker", "--pool", pool, "--concurrency", "1",
         "--loglevel", "WARNING", "-Q", queues, "--without-heartbeat", "--without-gossip", "--without-mingle"],
        cwd=REPO, env=env,
    )


def stop_worker(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()


class EndlessFile:
    """A named pipe held open for writing with nothing written: a job reading it waits there, running and holding its
    lock, for as long as a test needs, with no sleep, until `end()`."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.path = path
        self._held: int | None = os.open(path, os.O_RDWR)  # a writer: the job's open() returns, and its reads wait

    def end(self) -> None:
        """The reader's next read finds the end; one that has not opened it yet opens an empty file instead."""
        if self._held is None:
            return
        empty = self.path.with_suffix(".empty")
        empty.touch()
        os.replace(empty, self.path)
        os.close(self._held)
        self._held = None


@pytest.fixture
def endless_file(tmp_path):
    endless = EndlessFile(tmp_path / "endless.txt")
    yield endless
    endless.end()


@pytest.fixture(scope="session")
def celery_worker_process(service_env):
    """A real Celery worker process on the test database, for the whole session."""
    worker = start_worker(service_env)
    yield worker
    stop_worker(worker)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn_site(env: dict, workers: int = 1) -> Iterator[int]:
    """gunicorn as `make run` starts it, with `env` (the test database's, and any settings), on a free port: yields
    the port once the site answers, and stops it afterwards."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "mathsearch/gunicorn.conf.py"], cwd=REPO,
                              env={**env, "MATHSEARCH_ADDR": f"127.0.0.1:{port}", "MATHSEARCH_WEB_WORKERS": str(workers)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while not _answers(port):  # no deadline: one that never answers is failed by the per-test timeout (pytest.ini)
            assert server.poll() is None, f"gunicorn did not start: {server.stderr.read().decode()[-2000:]}"
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def _answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/api/schema")
        return connection.getresponse().status == 200
    except OSError:
        return False
