"""`--workers N` of the build benchmarks (`bench_documents`, `bench_search`): the same file or folder indexed by one
Celery worker, then by N, each into a corpus of its own in the benchmark's database, as `serve` runs workers
(prefork, one process each); how long each build took (`one_worker_s`, `workers_s`: the job's own time, from its
planning to its end, without the workers' start), `speedup_vs_one`, the parts the job was cut in, and whether both
stored the same posts, formulas and occurrences; the two corpora are deleted afterwards. The machine's load average
before each build is reported beside them: other work on the machine slows either build.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from mathsearch.celery import app
from searchapp.benchmarks.pages import database_url
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import delete_corpora
from searchapp.models import Formula, IndexJob, Occurrence, Post
from searchapp.tasks import run_index_job

START_SECONDS = 180
"""How long the workers may take to answer a ping after they start (loading the models on a loaded machine)."""
POLL_SECONDS = 0.5
SHOW_SECONDS = 30


def compare_workers(path: Path, format: str, workers: int, progress: Callable[[str], None] = print) -> dict:
    """Index `path` with one worker, then with `workers`, and compare them (see the module)."""
    builds: dict[int, tuple[IndexJob, float, float]] = {}
    for count in (1, workers):
        load = os.getloadavg()[0]
        progress(f"indexing {path} with {count} worker{'s' if count > 1 else ''} (load average {load:.2f})")
        job = build(path, format, f"bench-workers-{count}", count, progress)
        if job.state != IndexJob.State.DONE or job.seconds is None:
            raise RuntimeError(f"the build with {count} workers ended {job.state}: {job.message}")
        builds[count] = (job, job.seconds, load)
    (one, one_s, one_load), (many, many_s, many_load) = builds[1], builds[workers]
    differences = stored_differences(one.corpus_id, many.corpus_id)
    latex = differences.pop("formula_latex")
    report = {"workers": workers, "one_worker_s": round(one_s, 1), "workers_s": round(many_s, 1),
            "speedup_vs_one": round(one_s / many_s, 2),
            "load_average_before": {"one_worker": round(one_load, 2), "workers": round(many_load, 2)},
            "same_as_one_worker": not any(differences.values()), "differences_from_one_worker": differences,
            "formulas_shown_with_other_latex": latex,
            "parts": many.parts.count(), "workers_posts": many.done, "workers_formulas": many.formulas_added}
    delete_corpora([one.corpus, many.corpus])  # a kept benchmark database measures its own corpus's size
    return report


def build(path: Path, format: str, corpus: str, workers: int, progress: Callable[[str], None]) -> IndexJob:
    """Index `path` into `corpus` with `workers` fresh worker processes reading a queue of their own; the job ended."""
    queue = f"bench-workers-{os.getpid()}-{workers}"
    with running_workers(queue, workers):
        job = start_index_job(path, format, corpus, enqueue=False)
        run_index_job.apply_async([job.pk], queue=queue)
        shown = time.monotonic()
        while job.state in IndexJob.UNFINISHED:
            time.sleep(POLL_SECONDS)
            job.refresh_from_db()
            if time.monotonic() - shown > SHOW_SECONDS:
                progress(f"  {job.progress}")
                shown = time.monotonic()
    return job


@contextmanager
def running_workers(queue: str, count: int) -> Iterator[None]:
    """`count` Celery workers on this database, each one process as `serve` runs them, reading `queue` alone (the
    site's workers never see it), started and answering before the block and stopped after it."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mathsearch.settings", "DATABASE_URL": database_url(),
           "REDIS_URL": settings.REDIS_URL}
    names = {f"{queue}-{number}" for number in range(count)}
    processes = [subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "mathsearch", "worker", "--concurrency", "1", "--loglevel", "WARNING",
         "-Q", queue, "-n", f"{name}@%h", "--without-gossip", "--without-mingle"],
        cwd=settings.BASE_DIR, env=env) for name in sorted(names)]
    try:
        deadline = time.monotonic() + START_SECONDS
        while not names <= {answer.split("@")[0] for reply in app.control.ping(timeout=1.0) for answer in reply}:
            if any(process.poll() is not None for process in processes) or time.monotonic() > deadline:
                raise RuntimeError(f"the {count} workers did not all start within {START_SECONDS} s")
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)


def stored_differences(one: int, other: int) -> dict[str, int]:
    """What one corpus stored that the other did not, either way, by kind: posts (id, title and text), formulas
    (visual keys), occurrences (the post, the position, the formula and its LaTeX there). A formula's own LaTeX, the
    one its pages show, is that of whichever of its occurrences was stored first, which parts stored at once decide;
    `formula_latex` counts those that differ."""
    def both(rows: Callable[[int], set]) -> int:
        return len(rows(one) ^ rows(other))
    return {
        "posts": both(lambda corpus: set(Post.objects.filter(corpus_id=corpus).values_list("source_id", "title",
                                                                                           "body"))),
        "formulas": both(lambda corpus: set(Formula.objects.filter(corpus_id=corpus).values_list("visual_key",
                                                                                                flat=True))),
        "occurrences": both(lambda corpus: set(Occurrence.objects.filter(post__corpus_id=corpus).values_list(
            "post__source_id", "position", "formula__visual_key", "latex"))),
        "formula_latex": both(lambda corpus: set(Formula.objects.filter(corpus_id=corpus).values_list("visual_key",
                                                                                                     "latex"))),
    }
