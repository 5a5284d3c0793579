"""`benchmark arqmath-answers`: answers ranked for ARQMath Task 1 questions by words, formulas and both.

The thread pages (`threads-mathdowsers/`) are indexed as posts; every topic's question (title and body, with
its formulas) ranks all of their answers in each mode. Judgments of answers that have no page are dropped
from the qrels first, or IDCG would count answers nobody can retrieve. `bm25` is a small Okapi BM25 of our own
(`ml.retrieval.bm25`) over Postgres's English stems: Postgres's own `ts_rank` / `ts_rank_cd` have no idf and
ranked these answers about as well as random (nDCG′ 0.51–0.54 against random's 0.52).
"""
from __future__ import annotations

import random
import time
from pathlib import Path

from corpora.mse_threads import read_thread_page, thread_pages
from corpora.qrels import read_qrels
from corpora.topic_posts import question_text, read_topic_xml
from mathparse import ParseError
from ml.evaluation.baselines import random_baseline
from ml.evaluation.bootstrap import paired_intervals
from ml.evaluation.metrics import evaluate, rounded
from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT
from searchapp.benchmarks.arqmath1 import percentiles
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.learning.thread_judgments import CORPUS, PAGES
from searchapp.models import Corpus, Formula, Occurrence, Post
from searchapp.search.context import CONTEXT_WEIGHT
from searchapp.search.query import parse_query
from searchapp.search.questions import DEFAULT_MODE, MODES, read_question, score_posts

WEIGHTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
METRICS = ("ndcg_prime", "map_prime", "p10_prime")


def index_pages(data_dir: Path, corpus: str = CORPUS, progress=print) -> dict:
    """Index the pages unless the corpus already holds them; the job's counts and timings."""
    if Corpus.objects.filter(name=corpus, posts__isnull=False).exists():
        job = Corpus.objects.get(name=corpus).jobs.order_by("-created_at").first()
        progress(f"reusing corpus {corpus!r}")
    else:
        progress(f"indexing {data_dir / PAGES} …")
        job = run_job(start_index_job(data_dir / PAGES, "mse_html", corpus, enqueue=False))
    if job is None:
        return {}
    return {"records": job.done, "failed": job.failed, "formulas": job.formulas_added,
            "formula_errors": job.formula_errors, "seconds": job.seconds if job.finished_at else None,
            "timings": job.timings}


def judged_answers(qrels_paths: list[Path], answers: set[str]) -> tuple[dict, dict]:
    """The qrels restricted to answers with a page, and per file how many judgments were dropped."""
    qrels, dropped = {}, {}
    for path in qrels_paths:
        read = read_qrels(path).checked(path)
        dropped[path.name] = sum(doc not in answers for judgments in read.values() for doc in judgments)
        for topic, judgments in read.items():
            kept = {doc: grade for doc, grade in judgments.items() if doc in answers}
            if kept:
                qrels[topic] = kept
    return qrels, dropped


def benchmark(data_dir: Path, topics_paths: list[Path], qrels_paths: list[Path], corpus: str = CORPUS,
              formula_inputs: tuple[Path, Path] | None = None, progress=print) -> tuple[dict, dict]:
    """The report ({"topics", "answers", "default_mode", "modes", …}, and "formula_context" when Task 2 topics and
    qrels are given) and each mode's run."""
    indexing = index_pages(data_dir, corpus, progress)
    posts = Post.objects.filter(corpus__name=corpus).answers()
    answer_ids = dict(posts.filter(parent__isnull=False).values_list("source_id", "id"))
    qrels, dropped = judged_answers(qrels_paths, set(answer_ids))
    # a formula span without an id is a problem for Task 2, not for reading the question's text
    topics = {number: topic for path in topics_paths for number, topic in read_topic_xml(path).value.items()}
    source_of = {post_id: source_id for source_id, post_id in answer_ids.items()}
    candidates = sorted(source_of)
    runs: dict[str, dict] = {mode: {} for mode in (*MODES, *(f"ssemb@{w}" for w in WEIGHTS))}
    for number in sorted(qrels):
        progress(f"topic {number}")
        scores = score_posts(posts, Formula.objects, read_question(question_text(topics[number])),
                             corpus, candidates)
        for mode in runs:
            mode_name, _, weight = mode.partition("@")
            if scores.mode_used(mode_name) != mode_name:  # no fusion trained: no marf run, rather than ssemb's again
                continue
            ranked = _ranked(scores.ids, scores.combined(mode_name, float(weight) if weight else DEFAULT_FORMULA_WEIGHT))
            runs[mode][number] = [(source_of[post_id], score) for post_id, score in ranked]
    evaluations = {mode: evaluate(run, qrels) for mode, run in runs.items() if run}
    latencies = []
    for number in sorted(qrels):  # the search as users run it: channels, then the default mode's top 10
        started = time.perf_counter()
        Post.objects.search(question_text(topics[number]), k=10, corpus=corpus)
        latencies.append((time.perf_counter() - started) * 1000)
    evaluations["random"] = random_baseline(qrels)
    default = evaluations[DEFAULT_MODE]
    report = {
        "topics": len(qrels), "answers": len(answer_ids), "default_mode": DEFAULT_MODE,
        "dropped_judgments": dropped, "judgments": sum(len(j) for j in qrels.values()),
        "modes": {mode: rounded(evaluations[mode]) if mode in evaluations else None for mode in ("random", *MODES)},
        "ssemb_weights": {weight: rounded(evaluations[f"ssemb@{weight}"]) for weight in WEIGHTS},
        "default_minus": {mode: {metric: _interval(default, evaluations[mode], metric) for metric in METRICS}
                          for mode in MODES if mode != DEFAULT_MODE and mode in evaluations},
        "latency_ms": percentiles(latencies),
        "indexing": indexing,
    }
    if formula_inputs:
        report["formula_context"] = formula_context(data_dir, *formula_inputs, corpus=corpus, progress=progress)
    return report, runs


def _ranked(ids: list[int], scores) -> list[tuple[int, float]]:
    """Best first; ties broken by a fixed shuffle rather than by post id (ids follow the pages' order)."""
    tiebreak = list(range(len(ids)))
    random.Random(0).shuffle(tiebreak)
    order = sorted(range(len(ids)), key=lambda i: (-float(scores[i]), tiebreak[i]))
    return [(ids[i], float(scores[i])) for i in order]


def _interval(evaluation: dict, reference: dict, metric: str) -> dict:
    interval = paired_intervals(evaluation["per_topic"], reference["per_topic"], [metric])[metric]
    return {"delta": round(interval.mean, 4), "low": round(interval.lo, 4), "high": round(interval.hi, 4)}


CONTEXT_WEIGHTS = (0.3, 0.5, 0.7)


def formula_context(data_dir: Path, topics_path: Path, qrels_path: Path, corpus: str = CORPUS,
                    progress=print) -> dict:
    """Formula search with and without the topic's question as the words around its formula, on the Task 2
    judgments whose visual id (ARQMath-3 numbering) stands on some page; the rest cannot be retrieved here."""
    visual = page_visual_ids(data_dir / PAGES)
    on_pages = set(visual.values())
    judged = read_qrels(qrels_path).checked(qrels_path)
    qrels = {topic: kept for topic, judgments in judged.items()
             if (kept := {doc: grade for doc, grade in judgments.items() if doc in on_pages})}
    topics = read_topic_xml(topics_path).value
    formulas = Formula.objects.filter(corpus__name=corpus)
    runs: dict[str, dict] = {name: {} for name in ("formula", *(f"context@{w}" for w in CONTEXT_WEIGHTS))}
    for number in sorted(qrels):
        topic = topics.get(number)
        if topic is None or not topic.latex:
            continue
        progress(f"topic {number}")
        try:
            query = parse_query(topic.latex.strip("$ "))
        except ParseError:
            continue
        for name in runs:
            weight = float(name.partition("@")[2] or 1)
            hits = formulas.search(query, k=1000, corpus=corpus, context=question_text(topic) if weight < 1 else "",
                                   context_weight=weight).hits
            runs[name][number] = _visual_run(hits, visual)
    evaluations = {name: evaluate(run, qrels) for name, run in runs.items()}
    default = f"context@{CONTEXT_WEIGHT}"
    return {
        "judgments": sum(len(j) for j in judged.values()), "covered_judgments": sum(len(j) for j in qrels.values()),
        "topics": len(qrels), "default": default,
        "runs": {name: rounded(evaluation) for name, evaluation in evaluations.items()},
        "default_minus_formula": {metric: _interval(evaluations[default], evaluations["formula"], metric)
                                  for metric in METRICS},
    }


def page_visual_ids(pages: Path) -> dict[int, str]:
    """ARQMath formula id → visual id, as the pages give them."""
    return {int(formula.formula_id): formula.visual_id for page in thread_pages(pages)
            for formula in read_thread_page(page).value.formulas}


def _visual_run(hits, visual: dict[int, str]) -> list[tuple[str, float]]:
    """The hits as visual ids, each once at its best rank (a stored formula stands for every occurrence's id)."""
    positions: dict[int, list[int]] = {}
    for formula_id, position in Occurrence.objects.filter(formula_id__in=[hit.formula_id for hit in hits]).values_list(
            "formula_id", "position"):
        positions.setdefault(formula_id, []).append(position)
    seen, run = set(), []
    for hit in hits:
        for doc in sorted({visual[p] for p in positions.get(hit.formula_id, []) if p in visual}):
            if doc not in seen:
                seen.add(doc)
                run.append((doc, hit.score))
    return run
