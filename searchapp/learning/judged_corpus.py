"""The judged ARQMath-1 Task 2 corpus that the shipped ranker trains on and `benchmark arqmath1` scores: its files,
its indexing, and its judged topics read through the real search path.

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

from corpora.qrels import read_qrels
from corpora.topic_latex import read_topic_latex
from corpora.topic_posts import read_topic_xml
from ml.ranking.cross_validation import TopicCandidates
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.learning.judged import judged_topics
from searchapp.models import Formula, Occurrence

CORPUS = "arqmath1"
JUDGED = Path("arqmath/arqmath1-task2-judged-formulas")
TOPICS = Path("arqmath/topics")
QUERIES = TOPICS / "topics.arqmath-2020-task2.txt"


def build_corpus(data_dir: Path, progress=print) -> dict:
    """Index judged formulas and distractors into CORPUS; returns per-source job counts and the rate."""
    report: dict[str, dict | float] = {}
    started, formulas = time.perf_counter(), 0
    with tempfile.TemporaryDirectory() as folder:  # the topic posts' file lives as long as its job runs
        sources = [
            (data_dir / JUDGED / "visual_id_file.tsv", "visual_ids"),
            (data_dir / JUDGED / "formulas_slt_string.tsv", "slt_tsv"),
            (_topic_posts_jsonl(data_dir, Path(folder)), "jsonl"),
        ]
        for path, format in sources:
            job = run_job(start_index_job(path, format, CORPUS, enqueue=False))
            progress(f"indexed {path.name}: {job.done} records, {job.failed} failed, {job.formulas_added} new formulas")
            report[path.name] = {"records": job.done, "failed": job.failed, "formula_errors": job.formula_errors,
                                 "formulas_added": job.formulas_added}
            formulas += job.done
    seconds = time.perf_counter() - started
    report["index_records_per_s"] = round(formulas / seconds, 1)
    return report


def ensure_corpus(data_dir: Path, progress=print) -> None:
    """Index CORPUS unless the current database already holds it (a kept benchmark database does)."""
    if not Formula.objects.filter(corpus__name=CORPUS).exists():
        build_corpus(data_dir, progress)


def _topic_posts_jsonl(data_dir: Path, folder: Path) -> Path:
    """The topic posts of all `*-origin.xml` files as one JSONL corpus file in `folder`."""
    path = folder / "topic-posts.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for topics in sorted((data_dir / TOPICS).glob("*-origin.xml")):
            for number, topic in read_topic_xml(topics).value.items():
                body = topic.title + "\n" + topic.question
                handle.write(json.dumps({"id": f"topic-{topics.name.split('-')[1]}-{number}",
                                         "title": topic.title, "body": body}) + "\n")
    return path


def read_inputs(data_dir: Path, qrels_path: Path) -> tuple[dict, dict[str, str]]:
    """The judgments and the query LaTeX of every topic (`MalformedFile` if either file has unreadable lines)."""
    return read_qrels(qrels_path).checked(qrels_path), read_topic_latex(data_dir / QUERIES).checked(data_dir / QUERIES)


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


def judged_candidates(qrels: dict, topics: dict[str, str]) -> tuple[dict[str, TopicCandidates], list[str]]:
    """Every judged topic's candidates in CORPUS with their features, and the topics whose query is unreadable."""
    return judged_topics({topic: topics[topic] for topic in qrels}, CORPUS, visual_docs)
