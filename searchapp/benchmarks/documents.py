"""`bench_documents PATH`: a folder of documents indexed into a throw-away database, with what the reader found, how
fast each indexing stage ran, and a known-item test of the search over them.

The known-item test draws display formulas from the documents (seeded) and searches each as it is written, and
again with one variable renamed (`ml.evaluation.known_item`); a search succeeds when its top 10 (or top 1) holds a
formula that occurs in the same file. A formula that cannot be parsed is a failure, not left out.
"""
from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ml.data.documents import document_formulas
from ml.evaluation.bootstrap import mean_interval
from ml.evaluation.document_parsing import document_parse_report
from ml.evaluation.known_item import rename_variable
from ml.formula import ParseError
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job
from searchapp.models import Formula, Occurrence

CORPUS = "bench-documents"
SAMPLE = 200
K = 10


def benchmark(path: Path, sample: int = SAMPLE, seed: int = 0, progress: Callable[[str], None] = print) -> dict:
    progress(f"reading {path}")
    reading = document_parse_report(path, examples=0)
    progress(f"indexing {reading['documents read']} documents")
    started = time.perf_counter()
    job = run_job(start_index_job(path, "documents", CORPUS, enqueue=False))
    seconds = time.perf_counter() - started
    formulas = Occurrence.objects.filter(post__corpus__name=CORPUS).count()
    progress(f"known-item searches over {sample} formulas")
    known = known_items(path, sample, seed)
    return {
        "files": reading["documents read"] + reading["files failed"], "files_failed": reading["files failed"],
        "display_formulas": reading["display"], "inline_formulas": reading["inline"],
        "display_parsed_share": reading["display parsed"], "inline_parsed_share": reading["inline parsed"],
        "posts": job.done, "records_failed": job.failed, "formula_errors": job.formula_errors,
        "job_state": job.state, "formulas_indexed": formulas, "distinct_formulas": job.formulas_added,
        "index_seconds": round(seconds, 1), "formulas_per_s": round(formulas / seconds, 1),
        "posts_per_s": round(job.done / seconds, 2),
        "stage_seconds": dict(sorted(job.timings.items(), key=lambda item: -item[1])),
        **known,
    }


def known_items(path: Path, sample: int, seed: int) -> dict:
    """success@1 and @10 with bootstrap intervals over the sampled formulas, as written and renamed, and latency."""
    pool = [formula for formula in document_formulas(path) if formula.display and formula.notation == "latex"]
    rng = random.Random(seed)
    picked = rng.sample(pool, min(sample, len(pool)))
    in_file = _formulas_by_file()
    written = [_search(formula.text, in_file[formula.file]) for formula in picked]
    renamed_queries = [(rename_variable(formula.text, rng), formula.file) for formula in picked]
    renamed = [_search(latex, in_file[file]) for latex, file in renamed_queries if latex is not None]
    latencies = [ms for _, _, ms in written if ms is not None]
    return {
        "known_item_queries": len(written), "known_item_renamed_queries": len(renamed),
        **_successes("known_item", written), **_successes("known_item_renamed", renamed),
        "p50_ms": round(float(np.percentile(latencies, 50)), 1) if latencies else None,
        "p95_ms": round(float(np.percentile(latencies, 95)), 1) if latencies else None,
    }


def _formulas_by_file() -> dict[str, set[int]]:
    """The formulas that occur in each file (a post's source id is `file#section`)."""
    by_file: dict[str, set[int]] = defaultdict(set)
    for source_id, formula_id in Occurrence.objects.filter(post__corpus__name=CORPUS).values_list(
            "post__source_id", "formula_id"):
        by_file[source_id.split("#")[0]].add(formula_id)
    return by_file


def _search(latex: str, targets: set[int]) -> tuple[bool, bool, float | None]:
    """(hit at 1, hit in the top K, milliseconds); a query that cannot be parsed misses."""
    started = time.perf_counter()
    try:
        hits = [hit.formula_id for hit in Formula.objects.search(latex, k=K, corpus=CORPUS).hits]
    except ParseError:
        return False, False, None
    milliseconds = (time.perf_counter() - started) * 1000
    return bool(hits) and hits[0] in targets, bool(targets.intersection(hits)), milliseconds


def _successes(name: str, outcomes: list[tuple[bool, bool, float | None]]) -> dict:
    if not outcomes:
        return {}
    at_1 = mean_interval([float(first) for first, _, _ in outcomes])
    at_10 = mean_interval([float(top) for _, top, _ in outcomes])
    return {f"{name}_success_at_1": round(at_1.mean, 3), f"{name}_success_at_1_interval": [round(at_1.lo, 3),
                                                                                             round(at_1.hi, 3)],
            f"{name}_success_at_10": round(at_10.mean, 3),
            f"{name}_success_at_10_interval": [round(at_10.lo, 3), round(at_10.hi, 3)]}
