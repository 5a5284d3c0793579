"""Search latency and approximation quality at N formulas: real ARQMath formulas plus structure-preserving variants.

The index is built once per N in its own database and reused. Variants rename variables and numbers
(`ml.formula.augment.substitute_variables`), which keeps each formula's layout and operator structure.
"""
from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path

import numpy as np
from django.db import connection

from ml.data.corpus_files import read_formulas
from ml.data.topic_latex import read_topic_latex
from ml.data.visual_ids import read_visual_ids
from ml.formula import ParseError, parse, parse_latex, to_slt_string, tree_from_slt_string
from ml.formula.augment import substitute_variables
from ml.retrieval.fusion import DEFAULT_FUSION, fuse
from ml.retrieval.maxsim import maxsim_many
from searchapp.benchmarks.arqmath1 import JUDGED, TOPICS
from searchapp.embedding import embed_graphs
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job
from searchapp.models import Formula
from searchapp.vectors import decode_matrix

CORPUS = "bench"
QUERY_COUNT = 200
TABLES = ("searchapp_formula", "searchapp_postinglist", "searchapp_slgcentroid", "searchapp_opgcentroid")


def real_slt_strings(data_dir: Path) -> list[str]:
    """Canonical SLT strings of every formula in the shared data that parses (judged and collection formulas)."""
    path = data_dir / JUDGED / "visual_id_file.tsv"
    formulas = [record.formula for record in read_visual_ids(path).checked(path).values()]
    formulas += read_formulas(data_dir / JUDGED / "formulas_slt_string.tsv", "slt_tsv")
    strings = [_slt_of(formula.text, formula.notation) for formula in formulas]
    return [s for s in dict.fromkeys(strings) if s]


def _slt_of(text: str, notation: str) -> str | None:
    try:
        graphs = parse(text, notation)
    except ParseError:
        return None
    return to_slt_string(graphs.slt)


def corpus_strings(data_dir: Path, count: int, seed: int = 0) -> list[str]:
    """`count` distinct SLT strings: the real ones first, then variable/number-renamed variants of them."""
    rng = random.Random(seed)
    real = real_slt_strings(data_dir)
    chosen = dict.fromkeys(real[:count])
    while len(chosen) < count:
        tree = tree_from_slt_string(rng.choice(real))
        chosen.setdefault(to_slt_string(substitute_variables(tree, rng)))
    return list(chosen)


def build_index(data_dir: Path, count: int, progress=print) -> dict:
    """Index `count` formulas into CORPUS unless it already holds them; returns indexing rate and size."""
    existing = Formula.objects.filter(corpus__name=CORPUS).count()
    if existing >= count:
        progress(f"reusing the index of {existing} formulas")
        return {"reused": True, **index_size(existing)}
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8") as handle:
        for number, slt in enumerate(corpus_strings(data_dir, count), start=1):
            handle.write(f"{number}\t{number}\t{slt}\n")
    started = time.perf_counter()
    job = run_job(start_index_job(Path(handle.name), "slt_tsv", CORPUS, enqueue=False))
    seconds = time.perf_counter() - started
    progress(f"indexed {job.done} formulas in {seconds:.0f} s ({job.timings})")
    formulas = Formula.objects.filter(corpus__name=CORPUS).count()
    return {"reused": False, "index_formulas_per_s": round(job.done / seconds, 1), "index_timings": job.timings,
            **index_size(formulas)}


def index_size(formulas: int) -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + " + ".join(f"pg_total_relation_size('{t}')" for t in TABLES))
        total = cursor.fetchone()[0]
        cursor.execute("SELECT coalesce(sum(length(formula_ids)), 0) / 4 FROM searchapp_postinglist")
        postings = int(cursor.fetchone()[0])
    return {"formulas": formulas, "index_bytes": total, "index_bytes_per_formula": round(total / max(formulas, 1)),
            "postings": postings}


def query_latex(data_dir: Path, seed: int = 0) -> list[str]:
    queries = []
    for path in sorted((data_dir / TOPICS).glob("topics.arqmath-202*-task2*.txt")):
        queries += read_topic_latex(path).checked(path).values()
    unique = sorted(set(queries))
    random.Random(seed).shuffle(unique)
    return unique[:QUERY_COUNT]


def time_queries(queries: list[str], options: dict, k: int = 10) -> tuple[list[float], list[int], dict[str, list[int]]]:
    latencies, candidates, top = [], [], {}
    for latex in queries:
        started = time.perf_counter()
        try:
            results = Formula.objects.search(latex, k=k, corpus=CORPUS, **options)
        except ParseError:
            continue
        latencies.append((time.perf_counter() - started) * 1000)
        candidates.append(results.candidates)
        top[latex] = [hit.formula_id for hit in results.hits]
    return latencies, candidates, top


def exhaustive_overlap(top: dict[str, list[int]], k: int = 10) -> tuple[float, list[float]]:
    """Mean fraction of the approximate top k that is in the exact top k over all formulas (ties count as in),
    and the milliseconds exact maxsim over all formulas took per query: the baseline the latencies are compared
    with (in memory, so it leaves out parsing, embedding and every database read)."""
    ids, slg, opg = [], [], []
    for formula_id, slg_blob, opg_blob in Formula.objects.filter(corpus__name=CORPUS).values_list(
            "id", "slg_matrix", "opg_matrix").iterator(chunk_size=5000):
        ids.append(formula_id)
        slg.append(decode_matrix(slg_blob))
        opg.append(decode_matrix(opg_blob))
    position = {formula_id: i for i, formula_id in enumerate(ids)}
    graphs = [parse_latex(latex) for latex in top]
    overlaps, milliseconds = [], []
    for approximate, query in zip(top.values(), embed_graphs(graphs)):
        started = time.perf_counter()
        exact = fuse(maxsim_many(query["slg"], slg) / max(len(query["slg"]), 1),
                     maxsim_many(query["opg"], opg) / max(len(query["opg"]), 1), DEFAULT_FUSION)
        milliseconds.append((time.perf_counter() - started) * 1000)
        threshold = np.sort(exact)[-k] - 1e-4
        hits = sum(exact[position[f]] >= threshold for f in approximate)
        overlaps.append(hits / k)
    return (float(np.mean(overlaps)) if overlaps else 0.0), milliseconds


def benchmark(data_dir: Path, count: int, options: dict, progress=print) -> dict:
    """`options` go to `Formula.objects.search` (probes, shortlist_size). Latencies are of the default order (the
    learned ranker when one is shipped); the overlap is of the dense F1 order, which exhaustive maxsim computes
    exactly, so it measures the first stage alone. `dense_p50_ms` times that dense order in the same run."""
    index = build_index(data_dir, count, progress)
    queries = query_latex(data_dir)
    load_before = os.getloadavg()[0]
    latencies, candidates, _ = time_queries(queries, options)
    dense_latencies, _, top = time_queries(queries, {**options, "fusion": DEFAULT_FUSION})
    overlap, exhaustive_ms = exhaustive_overlap(top)
    p50, exhaustive_p50 = float(np.percentile(latencies, 50)), float(np.percentile(exhaustive_ms, 50))
    return {
        "formulas": index["formulas"], "queries": len(latencies), **options,
        "p50_ms": round(p50, 1), "p95_ms": round(float(np.percentile(latencies, 95)), 1),
        "dense_p50_ms": round(float(np.percentile(dense_latencies, 50)), 1),
        "dense_p95_ms": round(float(np.percentile(dense_latencies, 95)), 1),
        "p99_ms": round(float(np.percentile(latencies, 99)), 1), "candidates_mean": round(float(np.mean(candidates)), 1),
        "overlap_at_10": round(overlap, 4),
        "exhaustive_p50_ms": round(exhaustive_p50, 1), "speedup_p50": round(exhaustive_p50 / p50, 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)], **index,
    }
