"""`benchmark arqmath-answers`: answers ranked for ARQMath Task 1 questions by words, formulas and both.

The thread pages (`threads-mathdowsers/`) are indexed as posts; every topic's question (title and body, with
its formulas) ranks all of their answers in each mode. Judgments of answers that have no page are dropped
from the qrels first, or IDCG would count answers nobody can retrieve. `bm25` is a small Okapi BM25 of our own
(`ml.retrieval.bm25`) over Postgres's English stems: Postgres's own `ts_rank` / `ts_rank_cd` have no idf and
ranked these answers about as well as random (nDCG′ 0.51–0.54 against random's 0.52).
"""
from __future__ import annotations

import random
from pathlib import Path

from ml.data.qrels import read_qrels
from ml.data.topic_posts import question_text, read_topic_xml
from ml.evaluation.baselines import random_baseline
from ml.evaluation.bootstrap import paired_intervals
from ml.evaluation.metrics import evaluate, rounded
from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job
from searchapp.models import Corpus, Formula, Occurrence, Post
from searchapp.search.posts import DEFAULT_MODE, MODES, read_question, score_posts

PAGES = Path("arqmath") / "threads-mathdowsers"
CORPUS = "arqmath-threads"
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
    seconds = (job.finished_at - job.started_at).total_seconds() if job.finished_at and job.started_at else None
    return {"records": job.done, "failed": job.failed, "formulas": job.formulas_added,
            "formula_errors": job.formula_errors, "seconds": seconds, "timings": job.timings}


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
              progress=print) -> tuple[dict, dict]:
    """The report ({"topics", "answers", "default_mode", "modes", …}) and each mode's run."""
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
        scores = score_posts(posts, Occurrence.objects, Formula.objects, read_question(question_text(topics[number])),
                             corpus, candidates)
        for mode in runs:
            mode_name, _, weight = mode.partition("@")
            if scores.mode_used(mode_name) != mode_name:  # no fusion trained: no marf run, rather than ssemb's again
                continue
            ranked = _ranked(scores.ids, scores.combined(mode_name, float(weight) if weight else DEFAULT_FORMULA_WEIGHT))
            runs[mode][number] = [(source_of[post_id], score) for post_id, score in ranked]
    evaluations = {mode: evaluate(run, qrels) for mode, run in runs.items() if run}
    evaluations["random"] = random_baseline(qrels)
    default = evaluations[DEFAULT_MODE]
    report = {
        "topics": len(qrels), "answers": len(answer_ids), "default_mode": DEFAULT_MODE,
        "dropped_judgments": dropped, "judgments": sum(len(j) for j in qrels.values()),
        "modes": {mode: rounded(evaluations[mode]) if mode in evaluations else None for mode in ("random", *MODES)},
        "ssemb_weights": {weight: rounded(evaluations[f"ssemb@{weight}"]) for weight in WEIGHTS},
        "default_minus": {mode: {metric: _interval(default, evaluations[mode], metric) for metric in METRICS}
                          for mode in MODES if mode != DEFAULT_MODE and mode in evaluations},
        "indexing": indexing,
    }
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
