"""ARQMath-1 Task 2 through the real query path: index judged formulas plus distractors, query, score.

The corpus holds the judged visual ids (`visual_id_file.tsv`, posts named by visual id), the 22,446
collection SLT strings and every topic-post formula as distractors. Formulas are keyed visually, so
a distractor identical to a judged formula is stored as that formula and answers with its visual id;
any other distractor answers with an id (`d…`) that cannot collide with one.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import numpy as np

from ml.data.qrels import read_qrels
from ml.data.topic_latex import read_topic_latex
from ml.data.topic_posts import read_topic_xml
from ml.evaluation.baselines import latex_tfidf_run, node_label_tfidf_run, random_baseline
from ml.evaluation.dev_split import load_dev_split
from ml.evaluation.metrics import evaluate, rounded
from ml.formula import ParseError
from ml.ranking.cross_validation import TopicCandidates, across_fold_seeds
from ml.retrieval.score_fusion import DEFAULT_FUSION
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job
from searchapp.learning.judged import judged_topics
from searchapp.models import Formula, Occurrence

CORPUS = "arqmath1"
JUDGED = Path("arqmath/arqmath1-task2-judged-formulas")
TOPICS = Path("arqmath/topics")
QUERIES = TOPICS / "topics.arqmath-2020-task2.txt"


def build_corpus(data_dir: Path, progress=print) -> dict:
    """Index judged formulas and distractors into CORPUS; returns per-source job counts and the rate."""
    sources = [
        (data_dir / JUDGED / "visual_id_file.tsv", "visual_ids"),
        (data_dir / JUDGED / "formulas_slt_string.tsv", "slt_tsv"),
        (_topic_posts_jsonl(data_dir), "jsonl"),
    ]
    report, started, formulas = {}, time.perf_counter(), 0
    for path, format in sources:
        job = run_job(start_index_job(path, format, CORPUS, enqueue=False))
        progress(f"indexed {path.name}: {job.done} records, {job.failed} failed, {job.formulas_added} new formulas")
        report[path.name] = {"records": job.done, "failed": job.failed, "formula_errors": job.formula_errors,
                             "formulas_added": job.formulas_added}
        formulas += job.done
    seconds = time.perf_counter() - started
    report["index_records_per_s"] = round(formulas / seconds, 1)
    return report


def _topic_posts_jsonl(data_dir: Path) -> Path:
    """The topic posts of all `*-origin.xml` files as one JSONL corpus file (a temporary file)."""
    handle = tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8")
    with handle:
        for path in sorted((data_dir / TOPICS).glob("*-origin.xml")):
            for number, topic in read_topic_xml(path).value.items():
                body = topic.title + "\n" + topic.question
                handle.write(json.dumps({"id": f"topic-{path.name.split('-')[1]}-{number}",
                                         "title": topic.title, "body": body}) + "\n")
    return Path(handle.name)


def run_queries(qrels: dict, topics: dict[str, str], k: int = 1000, fusion: str = DEFAULT_FUSION):
    """The TREC run of the queries in `qrels`, and per-query latencies in ms."""
    run, latencies = {}, []
    for topic in sorted(qrels):
        started = time.perf_counter()
        try:
            hits = Formula.objects.search(topics[topic], k=k, fusion=fusion, corpus=CORPUS).hits
        except ParseError:
            hits = []
        latencies.append((time.perf_counter() - started) * 1000)
        run[topic] = _as_visual_ids(hits)
    return run, latencies


def _as_visual_ids(hits) -> list[tuple[str, float]]:
    docs = visual_docs([hit.formula_id for hit in hits])
    return [(doc, hit.score) for hit in hits for doc in docs[hit.formula_id]]


def visual_docs(formula_ids: list[int]) -> dict[int, list[str]]:
    """Each formula as the judged visual ids it stands for (all of them, for merged identical ones), else `d<id>`."""
    sources: dict[int, list[str]] = {}
    for formula_id, source_id in Occurrence.objects.filter(formula_id__in=formula_ids).values_list(
            "formula_id", "post__source_id"):
        if source_id.isdigit():
            sources.setdefault(formula_id, []).append(source_id)
    return {formula_id: sorted(sources.get(formula_id, [f"d{formula_id}"]), key=_numeric_first)
            for formula_id in formula_ids}


def _numeric_first(doc: str):
    return (0, int(doc)) if doc.isdigit() else (1, doc)


def benchmark(data_dir: Path, qrels_path: Path, fusion: str = DEFAULT_FUSION, progress=print) -> tuple[dict, dict]:
    """Build, query and score the dense path and the cross-validated learned ranker on the same candidates;
    returns (report, runs by name)."""
    qrels, topics = read_inputs(data_dir, qrels_path)
    index_report = build_corpus(data_dir, progress)
    run, latencies = run_queries(qrels, topics, fusion=fusion)
    scores = evaluate(run, qrels)
    cv, cv_report = across_fold_seeds(judged_candidates(qrels, topics)[0], qrels)
    report = {"topics": len(qrels), "fusion": fusion, **rounded(scores), "learned_cv": cv_report,
              "random": rounded(random_baseline(qrels, seed=0, repeats=100)),
              "baselines": pool_baselines(data_dir, qrels),
              "latency_ms": percentiles(latencies), "index": index_report}
    return report, {fusion: run, "learned-cv": cv.run}


def read_inputs(data_dir: Path, qrels_path: Path) -> tuple[dict, dict[str, str]]:
    """The judgments and the query LaTeX of every topic (`MalformedFile` if either file has unreadable lines)."""
    return read_qrels(qrels_path).checked(qrels_path), read_topic_latex(data_dir / QUERIES).checked(data_dir / QUERIES)


def judged_candidates(qrels: dict, topics: dict[str, str]) -> tuple[dict[str, TopicCandidates], list[str]]:
    """Every judged topic's candidates in CORPUS with their features, and the topics whose query is unreadable."""
    return judged_topics({topic: topics[topic] for topic in qrels}, CORPUS, visual_docs)




def pool_baselines(data_dir: Path, qrels: dict) -> dict:
    """LaTeX tf-idf and bag-of-node-labels tf-idf, ranking each topic's judged pool (DESIGN.md §5)."""
    split = load_dev_split(data_dir)
    latex = evaluate(latex_tfidf_run(qrels, split.topics_latex, split.doc_latex()).run, qrels)
    labels = evaluate(node_label_tfidf_run(qrels, split.topics_latex, split.doc_texts()).run, qrels)
    return {"latex_tfidf": rounded(latex), "node_label_tfidf": rounded(labels)}




def percentiles(values: list[float]) -> dict:
    array = np.array(values or [0.0])
    return {f"p{q}": round(float(np.percentile(array, q)), 1) for q in (50, 95, 99)} | {
        "mean": round(float(array.mean()), 1)}
