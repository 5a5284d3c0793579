"""ARQMath Task 2 judgments of the formulas on the thread pages, as ranker topics read through the real search path.

The pages (`threads-mathdowsers/`) give every formula its ARQMath formula id (stored as its occurrence's position)
and its visual id (ARQMath-3 numbering). A year's judgments name formulas by formula id (every assessed topic) and
by visual id (the official topics); both are read as visual ids, the unit ARQMath scores by, and only those that
stand on some page are kept: the others cannot be retrieved from the pages. Only the pages that hold a judged
formula are indexed: the others would add distractors only, and all 3,395 pages take an hour to index on two cores.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from corpora.mse_threads import ThreadFormula, read_thread_page, thread_pages
from corpora.qrels import read_qrels
from corpora.ranking import Qrels
from corpora.topic_latex import read_topic_latex
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.learning.judged import DocsOf, judged_topics
from searchapp.learning.training import Judged
from searchapp.models import Occurrence, Post

PAGES = Path("arqmath") / "threads-mathdowsers"
CORPUS = "arqmath-threads"
"""The thread pages' corpus, which `benchmark arqmath-answers` indexes too."""


@dataclass(frozen=True)
class Year:
    """A year's Task 2 files in the shared data folder: the query LaTeX and the judgments by formula and visual id."""

    topics: str
    by_formula: str
    by_visual: str

    def inputs(self, data_dir: Path) -> tuple[Path, tuple[Path, Path]]:
        arqmath = data_dir / "arqmath"
        return arqmath / "topics" / self.topics, (arqmath / "qrels" / self.by_formula, arqmath / "qrels" / self.by_visual)


ARQMATH2 = Year("topics.arqmath-2021-task2.txt", "qrel_task2_2021_formula_id_all.tsv",
                "qrels.arqmath-2021-task2-official.v3.txt")
"""Training topics: its 70 assessed topics by formula id, its 58 official ones by visual id."""
ARQMATH3 = Year("topics.arqmath-2022-task2-official.txt", "qrel_task2_2022_formula_id_official.tsv",
                "qrels.arqmath-2022-task2-official.v3.txt")
"""Reported only: nothing is chosen by it."""


def visual_judgments(by_formula: Qrels, by_visual: Qrels, visual: dict[int, str]) -> Qrels:
    """Judgments by visual id, of the visual ids on the pages: the visual-id file's grade, else the best grade
    of the formula ids judged under that visual id."""
    on_pages = set(visual.values())
    qrels: dict[str, dict[str, int]] = {}
    for topic, grades in by_formula.items():
        for formula, grade in grades.items():
            if formula.isdigit() and (doc := visual.get(int(formula))) is not None:
                kept = qrels.setdefault(topic, {})
                kept[doc] = max(grade, kept.get(doc, grade))
    for topic, grades in by_visual.items():
        for doc, grade in grades.items():
            if doc in on_pages:
                qrels.setdefault(topic, {})[doc] = grade
    return qrels


def thread_docs(visual: dict[int, str]) -> DocsOf:
    """A stored formula as the visual ids of its occurrences on the pages (one formula may stand for several
    visually distinct spellings), else `d<id>`, which no judgment names."""
    def docs_of(formula_ids: list[int]) -> dict[int, list[str]]:
        docs: dict[int, set[str]] = {}
        for formula_id, position in Occurrence.objects.filter(formula_id__in=formula_ids).values_list(
                "formula_id", "position"):
            if position in visual:
                docs.setdefault(formula_id, set()).add(visual[position])
        return {formula_id: sorted(docs.get(formula_id, {f"d{formula_id}"})) for formula_id in formula_ids}
    return docs_of


def index_judged_pages(pages: dict[Path, list[ThreadFormula]], judged: set[str], progress=print) -> None:
    """Index into CORPUS the pages that hold a `judged` visual id and whose answer it does not hold yet."""
    indexed = set(Post.objects.filter(corpus__name=CORPUS).values_list("source_id", flat=True))
    todo = [page for page, formulas in pages.items() if page.stem.partition("_")[2] not in indexed
            and any(formula.visual_id in judged for formula in formulas)]
    if not todo:
        return
    progress(f"indexing {len(todo)} thread pages that hold judged formulas …")
    with tempfile.TemporaryDirectory() as folder:
        for page in todo:
            (Path(folder) / page.name).symlink_to(page.resolve())
        run_job(start_index_job(Path(folder), "mse_html", CORPUS, enqueue=False))


def thread_topics(data_dir: Path, years: list[Year], progress=print) -> list[Judged]:
    """Each year's Task 2 topics (query LaTeX) over the thread pages that hold a judged formula of any of the
    years (indexed into the current database unless there, all before any query is read, so that a topic's
    candidates do not depend on which years were read before), with its judgments (by formula id, by visual id)
    of formulas on the pages; a topic with none is left out."""
    pages = {page: read_thread_page(page).value.formulas for page in thread_pages(data_dir / PAGES)}
    visual = {int(formula.formula_id): formula.visual_id for formulas in pages.values() for formula in formulas}
    inputs = [year.inputs(data_dir) for year in years]
    qrels = [visual_judgments(read_qrels(by_formula).checked(by_formula), read_qrels(by_visual).checked(by_visual), visual)
             for _, (by_formula, by_visual) in inputs]
    index_judged_pages(pages, {doc for year in qrels for grades in year.values() for doc in grades}, progress)
    judged = []
    for (topics_path, _), year_qrels in zip(inputs, qrels):
        queries = read_topic_latex(topics_path).checked(topics_path)
        data, unreadable = judged_topics({topic: queries[topic] for topic in year_qrels if topic in queries}, CORPUS,
                                         thread_docs(visual))
        judged.append(Judged(data, {topic: grades for topic, grades in year_qrels.items() if topic in data}, unreadable))
    return judged
