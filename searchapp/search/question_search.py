"""Question search, from a question's text to its ranked answers: the one place that composes its stages
(`Post.objects.search` is its way in). The question is read once and its candidates scored by words and formulas
(`searchapp.search.questions`); the mode decides which score ranks them, or how they are combined; what people said
of the answers reorders them, never changing a score (`searchapp.search.feedback_boost`); a post held by several
corpora is shown once, its copies with it (`searchapp.search.duplicates`).

The one box asks a question with its formulas beside the answers (`answers_with_formulas`): the formulas most like
each of the question's first formulas, by the formula search.

It receives the Post queryset to search rather than importing `searchapp.models`, whose verbs import it; the models
it reads besides come from their own modules, which import nothing of it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT
from searchapp.models.corpora import Corpus
from searchapp.models.feedback import MAX_K, Feedback
from searchapp.models.formulas import Formula
from searchapp.search.database import reads_the_index
from searchapp.search.duplicates import first_of_each, with_copies
from searchapp.search.feedback_boost import Evidence, boosted, evidence_for, with_places
from searchapp.search.notation import corpus_macros
from searchapp.search.query_keys import question_key
from searchapp.search.questions import DEFAULT_MODE, MODES, PostScores, Question, read_bm25, read_question, score_posts
from searchapp.search.results import PostHit, PostResults, SearchHit

FORMULAS_BESIDE = 3
"""A question's formulas that get their own hits beside the answers, in the order written."""
HITS_BESIDE = 3


@reads_the_index
def search(posts, question: Question | str, k: int = 10, offset: int = 0, mode: str = DEFAULT_MODE,
           corpus: str | None = None, weight: float = DEFAULT_FORMULA_WEIGHT) -> PostResults:
    """The `k` answers of `posts` (a Post queryset) after `offset` that best answer `question` (text with `$…$`
    formulas, read with `corpus`'s macros), by words and formulas combined as `mode` says, `weight` the formulas'
    share (`searchapp.search.questions`)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    started = time.perf_counter()
    if isinstance(question, str):
        question = read_question(question, corpus_macros(question, corpus, Corpus.objects).macros)
    threads = posts.filter(corpus__name=corpus) if corpus else posts
    scores = score_posts(threads.answers(), Formula.objects, question, corpus, threads=threads,
                         full_text=mode == "bm25")
    if scores.mode_used(mode) == "bm25":
        read_bm25(scores, question, corpus, range(len(scores.ids)))
    combined = scores.combined(mode, weight)
    distinct, copies, feedback = _people_order(question, scores, combined)
    order = distinct[offset:offset + min(k, MAX_K)]
    read_bm25(scores, question, corpus, order)
    by_id = posts.model._default_manager.select_related("corpus", "parent").defer("embedding", "fused").in_bulk(
        [scores.ids[i] for i in with_copies(order, copies)])
    hits = [PostHit(by_id[scores.ids[i]], float(combined[i]), rank, scores.parts(i), scores.best_formula.get(scores.ids[i]),
                    [by_id[scores.ids[j]] for j in copies.get(i, ())], feedback.get(i))
            for rank, i in enumerate(order, start=offset + 1)]
    return PostResults(question, scores.mode_used(mode), hits, len(distinct), (time.perf_counter() - started) * 1000)


def _people_order(question: Question, scores: PostScores,
                  combined: np.ndarray) -> tuple[list[int], dict[int, list[int]], dict[int, Evidence]]:
    """The candidates by their `combined` scores as people's feedback moved them, each post once (its copies
    apart), and the evidence of those it moved, with how far."""
    evidence = evidence_for(Feedback.objects, "post", question_key(question.text), question.text)
    ordered, feedback = boosted(combined, scores.ids, evidence)
    distinct, copies = first_of_each(np.argsort(-ordered, kind="stable"), scores.keys)
    if feedback:
        unmoved, _ = first_of_each(np.argsort(-combined, kind="stable"), scores.keys)
        feedback = with_places(feedback, unmoved, distinct, scores.keys)
    return distinct, copies, feedback


@dataclass(frozen=True)
class FormulasBeside:
    latex: str
    """One of the question's formulas, as written."""
    hits: list[SearchHit]


def answers_with_formulas(posts, question: str, *, corpus: str | None = None,
                          **options) -> tuple[PostResults, list[FormulasBeside]]:
    """`posts.search` of the one box's question (`options`: k, offset, mode), and the formulas most like each of its
    first FORMULAS_BESIDE formulas, in the question's corpus: people who type a question into the box that also
    finds formulas see both."""
    results = posts.search(question, corpus=corpus, **options)
    return results, [FormulasBeside(query.text, Formula.objects.search(query, k=HITS_BESIDE, corpus=corpus).hits)
                     for query in results.question.formulas[:FORMULAS_BESIDE]]
