"""Question search at N posts (`bench_questions`): ingest rate, bytes a post, latency per mode, overlap@10.

The index is built once per N in its own database and kept: first the real ARQMath thread pages (one job, format
`mse_html`), then variant threads made from them (`corpora.post_variants`: sentences of real posts recombined,
letters renamed, numbers changed in some) until N posts, written as a JSONL file (streamed to disk, kept beside the
database) and indexed by a second job: both through the real pipeline (`run_job`), so the word and formula
statistics stay realistic and the rates are the product's. `--reuse` opens the kept index again; a job cut short
resumes from its cursor, and a variant file cut short is written again (it is deterministic). A reused index
reports the rates its jobs recorded.

Questions are the ARQMath 2020 and 2021 Task 1 topics (the development questions), searched one at a time through
`Post.objects.search`, the entry the web and the API use.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from django.conf import settings
from django.db import connection

from corpora.mse_threads import thread_records
from corpora.post_variants import threads_of, variant_posts
from corpora.records import IndexRecord
from corpora.topic_posts import question_text, read_topic_xml
from searchapp.benchmarks.arqmath1 import percentiles
from searchapp.benchmarks.question_overlap import exhaustive_overlap
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import IndexJob, Occurrence, Post
from searchapp.search.questions import DEFAULT_MODE, MODES, read_question

CORPUS = "bench-posts"
TOPIC_FILES = ("topics.arqmath-2020-task1-origin.xml", "topics.arqmath-2021-task1-origin.xml")
OVERLAP_SAMPLE = 30
"""Questions whose default-mode top 10 is compared with every post scored exactly (the first, by topic number)."""
STAGES = ("count", "parse", "embed", "text", "store", "fuse", "merge")
TABLES = ("searchapp_post", "searchapp_occurrence", "searchapp_formula", "searchapp_postinglist",
          "searchapp_pendingposting", "searchapp_stemcount", "searchapp_corpuswords")
"""What a corpus of posts stores (the codebook's centroid tables are shared and fixed in size)."""
VARIANT_PREFIX = "v"
"""Variant posts' ids start so (`variant_posts`); the pages' ids are numbers."""


class TooFewPosts(ValueError):
    """More posts asked for than the real pages hold is the least a build can be."""


def variants_file(count: int) -> Path:
    return Path(settings.BASE_DIR) / "var" / "bench" / f"posts-{count}.jsonl"


def development_questions(topics_dir: Path) -> list[str]:
    """The Task 1 topics of 2020 and 2021 as a question search reads them, by topic number."""
    topics = {number: topic for name in TOPIC_FILES for number, topic in read_topic_xml(topics_dir / name).value.items()}
    return [question_text(topics[number]) for number in sorted(topics)]


def build(pages: Path, count: int, variants: Path, progress: Callable[[str], object] = print) -> dict:
    """Index the pages, then variants up to `count` posts, unless done; per job its rates (as recorded)."""
    jobs = list(IndexJob.objects.filter(corpus__name=CORPUS).order_by("pk"))
    reused = len(jobs) == 2 and all(job.state == IndexJob.State.DONE for job in jobs)
    pages_job = _run(jobs[0] if jobs else start_index_job(pages, "mse_html", CORPUS, enqueue=False), progress)
    real = Post.objects.filter(corpus__name=CORPUS).count()
    if real > count:
        raise TooFewPosts(f"the real pages alone are {real} posts: ask for at least as many")
    variants_job = jobs[1] if len(jobs) > 1 else None
    if variants_job is None and real < count:
        _write_variants(pages, count - real, variants, progress)
        variants_job = start_index_job(variants, "jsonl", CORPUS, enqueue=False)
    elif variants_job is not None and variants_job.state != IndexJob.State.DONE and not variants.is_file():
        _write_variants(pages, count - real, variants, progress)  # deterministic: the same file again
    built = [pages_job] + ([_run(variants_job, progress)] if variants_job is not None else [])
    occurrences = Occurrence.objects.filter(post__corpus__name=CORPUS)
    variant_formulas = occurrences.filter(post__source_id__startswith=VARIANT_PREFIX).count()
    stages = [_rates(pages_job, occurrences.count() - variant_formulas)]
    if len(built) > 1:
        stages.append(_rates(built[1], variant_formulas))
    return {"reused": reused, "real_posts": real, "pages": stages[0],
            "variants": stages[1] if len(stages) > 1 else None, "all": _total(stages)}


def _run(job: IndexJob, progress) -> IndexJob:
    if job.state == IndexJob.State.DONE:
        return job
    progress(f"indexing {job.path} (job {job.pk}, from record {job.cursor}) …")
    job = run_job(job, _reporter(progress))
    if job.state != IndexJob.State.DONE:
        raise RuntimeError(f"indexing {job.path} failed: {job.message}")
    progress(f"indexed {job.done} posts in {job.seconds:.0f} s ({job.timings})")
    return job


def _reporter(progress):
    shown = [time.perf_counter()]

    def report(job: IndexJob) -> None:
        if time.perf_counter() - shown[0] > 30:
            shown[0] = time.perf_counter()
            progress(f"  {job.progress} (load {os.getloadavg()[0]:.2f})")
    return report


def _write_variants(pages: Path, count: int, path: Path, progress) -> None:
    """The variant posts, a line each, written to a temporary file renamed when complete (a cut-short write is
    never indexed)."""
    threads = threads_of(item for item in thread_records(pages) if isinstance(item, IndexRecord))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    with open(partial, "w", encoding="utf-8") as handle:
        for post in variant_posts(threads, count):
            handle.write(json.dumps(post, ensure_ascii=False) + "\n")
    partial.replace(path)
    progress(f"{count} variant posts of {len(threads)} real threads written to {path}")


def _rates(job: IndexJob, formulas: int) -> dict:
    """A job's posts (records: a question repeated on several pages counts each time) and formula occurrences (of
    the posts stored) a second, overall and by stage, from what it recorded. A job resumed after a cut counts the
    time between its runs too (it keeps its start)."""
    seconds = max(job.seconds or 0.0, 1e-3)
    return {"posts": job.done, "formulas": formulas, "new_formulas": job.formulas_added, "seconds": round(seconds, 1),
            "posts_per_s": round(job.done / seconds, 1), "formulas_per_s": round(formulas / seconds, 1),
            "stages": {stage: {"seconds": round(job.timings[stage], 1),
                               "posts_per_s": round(job.done / max(job.timings[stage], 1e-3), 1),
                               "formulas_per_s": round(formulas / max(job.timings[stage], 1e-3), 1)}
                       for stage in STAGES if stage in job.timings},
            "built_at": job.finished_at.isoformat(timespec="seconds") if job.finished_at else None}


def _total(parts: list[dict]) -> dict:
    posts, formulas = sum(part["posts"] for part in parts), sum(part["formulas"] for part in parts)
    seconds = sum(part["seconds"] for part in parts)
    stages = {stage: round(sum(part["stages"].get(stage, {}).get("seconds", 0.0) for part in parts), 1)
              for stage in STAGES}
    return {"posts": posts, "formulas": formulas, "seconds": round(seconds, 1),
            "posts_per_s": round(posts / max(seconds, 1e-3), 1), "formulas_per_s": round(formulas / max(seconds, 1e-3), 1),
            "stage_seconds": stages,
            "stage_posts_per_s": {stage: round(posts / value, 1) for stage, value in stages.items() if value}}


def table_bytes() -> dict:
    """Bytes on disk (rows, TOAST and indexes) per table and per post: the benchmark's database holds one corpus."""
    posts = Post.objects.filter(corpus__name=CORPUS).count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relname = ANY(%s)",
                       [list(TABLES)])
        tables = dict(cursor.fetchall())
    return {"table_bytes": tables, "bytes_per_post": {table: round(size / max(posts, 1)) for table, size in tables.items()},
            "all_bytes_per_post": round(sum(tables.values()) / max(posts, 1))}


def time_mode(questions: list[str], mode: str) -> tuple[dict, list[list[int]]]:
    """Each question searched once, one at a time, as the web does: latency percentiles, load, and the top 10s."""
    Post.objects.search(questions[0], k=10, corpus=CORPUS, mode=mode)  # warm: models loaded, caches filled
    load = os.getloadavg()[0]
    latencies, tops = [], []
    for text in questions:
        started = time.perf_counter()
        results = Post.objects.search(text, k=10, corpus=CORPUS, mode=mode)
        latencies.append((time.perf_counter() - started) * 1000)
        tops.append([hit.post.pk for hit in results.hits])
    return {**percentiles(latencies), "mode_used": results.mode,
            "load_average": [round(load, 2), round(os.getloadavg()[0], 2)]}, tops


def benchmark(pages: Path, questions: list[str], count: int, variants: Path | None = None,
              overlap_sample: int = OVERLAP_SAMPLE, progress: Callable[[str], object] = print) -> dict:
    load = os.getloadavg()
    ingest = build(pages, count, variants or variants_file(count), progress)
    # a serving index is warm: one pass first, timed apart (at 300 k posts, right after another index was read, the
    # first mode timed gave p95 398 and 416 ms where a warm pass gave 346)
    progress(f"searching {len(questions)} questions once to warm the index (load {os.getloadavg()[0]:.2f})")
    cold, _ = time_mode(questions, DEFAULT_MODE)
    modes: dict[str, dict] = {}
    default_tops: list[list[int]] = []
    for mode in (DEFAULT_MODE, *(mode for mode in MODES if mode != DEFAULT_MODE)):
        progress(f"timing {len(questions)} questions in mode {mode} (load {os.getloadavg()[0]:.2f})")
        modes[mode], tops = time_mode(questions, mode)
        default_tops = tops if mode == DEFAULT_MODE else default_tops
    sample = list(range(min(overlap_sample, len(questions))))
    progress(f"scoring every post exactly for {len(sample)} questions (load {os.getloadavg()[0]:.2f})")
    started = time.perf_counter()
    overlaps = exhaustive_overlap(CORPUS, [read_question(questions[i]) for i in sample], [default_tops[i] for i in sample])
    exhaustive_seconds = time.perf_counter() - started
    default = modes[DEFAULT_MODE]
    return {
        "posts": Post.objects.filter(corpus__name=CORPUS).count(), "asked_posts": count, "questions": len(questions),
        "ingest_posts_per_s": ingest["all"]["posts_per_s"], "ingest_formulas_per_s": ingest["all"]["formulas_per_s"],
        "default_mode": DEFAULT_MODE, "p50_ms": default["p50"], "p95_ms": default["p95"], "p99_ms": default["p99"],
        "overlap_at_10": round(float(np.mean(overlaps)), 4) if overlaps else None,
        "overlap_questions": len(sample), "overlap_min": round(min(overlaps), 2) if overlaps else None,
        "exhaustive_seconds": round(exhaustive_seconds, 1), "modes": modes, "cold_pass": cold, "ingest": ingest,
        **table_bytes(),
        "load_average": {"start": [round(value, 2) for value in load],
                         "end": [round(value, 2) for value in os.getloadavg()]},
    }
