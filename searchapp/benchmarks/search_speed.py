"""Search latency and approximation quality at N formulas (`bench_search`).

The index is built once per N in its own database from the benchmark corpus (`bench_corpus`: real formulas
first, then variants) and kept; `--reuse` opens it again, and a build cut short resumes from its job's cursor.
A reused index reports the rate and stage timings its job recorded when it was built.
"""
from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from django.conf import settings
from django.db import connection

from corpora.topic_latex import read_topic_latex
from mathparse import ParseError
from ml.retrieval.score_fusion import DEFAULT_FUSION, fuse
from searchapp.benchmarks.bench_corpus import bench_corpus, write_slt_tsv
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.iterables import chunks
from searchapp.indexing.jobs import run_job
from searchapp.learning.judged_corpus import TOPICS
from searchapp.models import Formula, IndexJob, SlgCentroid
from searchapp.search.query import parse_queries
from searchapp.search.scoring import decode, score

CORPUS = "bench"
QUERY_COUNT = 200
OVERLAP_SAMPLE = 50
"""Queries whose top 10 is compared with exhaustive maxsim over every formula (the first of the timed ones)."""
INDEX_TABLES = ("searchapp_formula", "searchapp_postinglist", "searchapp_slgcentroid", "searchapp_opgcentroid")
POST_TABLES = ("searchapp_post", "searchapp_occurrence")
"""The posts the formulas come from: not the search index, but stored for every formula all the same."""
EXHAUSTIVE_CHUNK = 5000


def corpus_file(count: int) -> Path:
    """Where the formulas of the N-formula index are written; kept, so that a build cut short can resume."""
    return Path(settings.BASE_DIR) / "var" / "bench" / f"formulas-{count}.tsv"


def build_index(data_dir: Path, count: int, wiki_file: Path | None, progress=print) -> dict:
    """Index `count` formulas into CORPUS unless it already holds them; what was built, and how fast."""
    job = IndexJob.objects.filter(corpus__name=CORPUS).order_by("pk").last()
    if job is not None and job.state == IndexJob.State.DONE:
        progress(f"reusing the index of {job.formulas_added} formulas built on {job.finished_at:%Y-%m-%d %H:%M}")
        return {"reused": True, **recorded_build(job)}
    report: dict[str, object] = {"reused": False}
    if job is None:
        started = time.perf_counter()
        corpus = bench_corpus(data_dir, count, wiki_file, progress=progress)
        path = corpus_file(count)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_slt_tsv(corpus.strings, path)
        report |= {"sources": corpus.sources, "unparsed": dict(corpus.unparsed),
                   "prepare_seconds": round(time.perf_counter() - started, 1)}
        job = start_index_job(path, "slt_tsv", CORPUS, enqueue=False)
    else:
        progress(f"resuming the build of job {job.pk} at record {job.cursor}")
    job = run_job(job)
    if job.state != IndexJob.State.DONE:
        raise RuntimeError(f"indexing the benchmark corpus failed: {job.message}")
    progress(f"indexed {job.formulas_added} formulas ({job.timings})")
    return report | recorded_build(job)


def recorded_build(job: IndexJob) -> dict:
    seconds, rate = job.seconds, job.formulas_per_second
    if job.finished_at is None or seconds is None or rate is None:
        raise RuntimeError(f"index job {job.pk} has not finished: it has no build to report")
    return {"index_seconds": round(seconds, 1), "index_formulas_per_s": round(rate, 1),
            "index_timings": job.timings, "built_at": job.finished_at.isoformat(timespec="seconds")}


def index_size() -> dict:
    """Bytes on disk per table (rows, TOAST and indexes) and per formula: of the search index alone, and of
    everything the benchmark stored."""
    formulas = Formula.objects.filter(corpus__name=CORPUS).count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relname = ANY(%s)",
                       [list(INDEX_TABLES + POST_TABLES)])
        tables = dict(cursor.fetchall())
        cursor.execute("SELECT coalesce(sum(length(formula_ids)), 0) / 4 FROM searchapp_postinglist")
        postings = int(cursor.fetchone()[0])
    index = sum(tables[table] for table in INDEX_TABLES)
    return {"formulas": formulas, "table_bytes": tables, "index_bytes": index,
            "index_bytes_per_formula": round(index / max(formulas, 1)),
            "all_bytes_per_formula": round(sum(tables.values()) / max(formulas, 1)), "postings": postings}


def query_latex(data_dir: Path, count: int = QUERY_COUNT, seed: int = 0) -> list[str]:
    """`count` distinct ARQMath Task 2 topic formulas, in a fixed shuffled order."""
    queries: list[str] = []
    for path in sorted((data_dir / TOPICS).glob("topics.arqmath-202*-task2*.txt")):
        queries += read_topic_latex(path).checked(path).values()
    unique = sorted(set(queries))
    random.Random(seed).shuffle(unique)
    return unique[:count]


class Timed(NamedTuple):
    latencies: list[float]
    candidates: list[int]
    top: dict[str, list[int]]
    """Each query's top k formula ids."""
    stages: list[dict[str, float]]
    """Each query's milliseconds per stage (`SearchResults.stages_ms`)."""


def time_queries(queries: list[str], options: dict, k: int = 10) -> Timed:
    timed = Timed([], [], {}, [])
    for latex in queries:
        started = time.perf_counter()
        try:
            results = Formula.objects.search(latex, k=k, corpus=CORPUS, **options)
        except ParseError:
            continue
        timed.latencies.append((time.perf_counter() - started) * 1000)
        timed.candidates.append(results.candidates)
        timed.top[latex] = [hit.formula_id for hit in results.hits]
        timed.stages.append(results.stages_ms)
    return timed


def stage_medians(stages: list[dict[str, float]]) -> dict[str, float]:
    """The median milliseconds of each stage over the queries searched whole (a long query's parts and a query's
    readings have none of their own)."""
    whole = [laps for laps in stages if laps]
    return {stage: round(float(np.median([laps[stage] for laps in whole])), 1) for stage in whole[0]} if whole else {}


def exhaustive_overlap(top: dict[str, list[int]], k: int = 10) -> tuple[float, list[float]]:
    """Mean fraction of each approximate top k that is in the exact top k over all formulas (ties count as in),
    and the milliseconds exact maxsim over all formulas took per query: the baseline the latencies are compared
    with (computing only: it leaves out parsing, embedding and every database read).

    The formulas are read once, in chunks, and every query is scored against each chunk, so memory stays flat
    at a million formulas.
    """
    queries = parse_queries(list(top))[0]  # the vectors the search itself used
    best = [np.full(k, -np.inf, dtype=np.float32) for _ in queries]
    approximate = [dict.fromkeys(ids, -np.inf) for ids in top.values()]
    milliseconds = [0.0] * len(queries)
    rows = Formula.objects.filter(corpus__name=CORPUS).values_list("id", "slg_matrix", "opg_matrix")
    for chunk in chunks(rows.iterator(chunk_size=EXHAUSTIVE_CHUNK), EXHAUSTIVE_CHUNK):
        ids = np.array([row[0] for row in chunk])
        decoded = {"slg": decode([row[1] for row in chunk]), "opg": decode([row[2] for row in chunk])}
        for i, query in enumerate(queries):
            started = time.perf_counter()
            parts = score(query, decoded)  # the search's own exact scoring, over every formula
            exact = fuse(parts["slg"], parts["opg"], DEFAULT_FUSION)
            best[i] = np.sort(np.concatenate([best[i], exact]))[-k:]
            milliseconds[i] += (time.perf_counter() - started) * 1000
            for position in np.flatnonzero(np.isin(ids, list(approximate[i]))):
                approximate[i][int(ids[position])] = exact[position]
    overlaps = [sum(score >= kth[0] - 1e-4 for score in found.values()) / k for kth, found in zip(best, approximate)]
    return (float(np.mean(overlaps)) if overlaps else 0.0), milliseconds


def benchmark(data_dir: Path, count: int, options: dict, wiki_file: Path | None = None,
              overlap_sample: int = OVERLAP_SAMPLE, queries: int = QUERY_COUNT, progress=print) -> dict:
    """`options` go to `Formula.objects.search` (probes, shortlist_size). Latencies are of the default order (the
    learned ranker when one is shipped); the overlap is of the dense F1 order, which exhaustive maxsim computes
    exactly, so it measures the first stage alone. `dense_p50_ms` times that dense order in the same run."""
    index = build_index(data_dir, count, wiki_file, progress)
    latex = query_latex(data_dir, queries)
    load_before = os.getloadavg()[0]
    latencies, candidates, _, stages = time_queries(latex, options)
    dense_latencies, _, top, _ = time_queries(latex, {**options, "fusion": DEFAULT_FUSION})
    sample = dict(list(top.items())[:overlap_sample])
    progress(f"exhaustive maxsim for {len(sample)} queries over every formula")
    overlap, exhaustive_ms = exhaustive_overlap(sample)
    p50, exhaustive_p50 = float(np.percentile(latencies, 50)), float(np.percentile(exhaustive_ms, 50))
    return {
        "formulas": count, "queries": len(latencies), **options,
        "p50_ms": round(p50, 1), "p95_ms": round(float(np.percentile(latencies, 95)), 1),
        "dense_p50_ms": round(float(np.percentile(dense_latencies, 50)), 1),
        "dense_p95_ms": round(float(np.percentile(dense_latencies, 95)), 1),
        "p99_ms": round(float(np.percentile(latencies, 99)), 1), "candidates_mean": round(float(np.mean(candidates)), 1),
        "stage_p50_ms": stage_medians(stages),
        "overlap_at_10": round(overlap, 4), "overlap_queries": list(sample),
        "exhaustive_p50_ms": round(exhaustive_p50, 1), "speedup_p50": round(exhaustive_p50 / p50, 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)], **index, **index_size(),
        "codebook_centroids": SlgCentroid.objects.count(),
    }
