"""Question search scored exactly over every post of a corpus: the baseline `bench_questions` compares the default
mode's top 10 with.

The search (`searchapp.search.questions`) scores only its candidates: the union of three channels (nearest by words,
BM25, posts holding the question's formulas' shortlisted hits), and of their formulas only the shortlisted ones
and every formula of the 50 posts best by words. Here every answer of the corpus is a candidate and every formula
it holds (and its question holds) is scored with the same exact maxsim (`searchapp.search.scoring.score`, fused
`f1`), then combined exactly as `ssemb` does: the mean over the question's formulas of each post's best formula,
weighed with its question's (THREAD_FORMULA_WEIGHT), and the cosine of its words, weighed with its question's
(THREAD_WEIGHT, computed by Postgres with the search's own SQL).

Cost: the corpus's formula matrices are read once for all sampled questions, in chunks of CHUNK formulas ordered by
id, and each question's formulas are scored against each chunk; per question the memory is one float32 per
(question formula, post). Each question's words are compared with every post by Postgres (one pass over the post
vectors). At 300,000 posts (~3.8 M formula occurrences at the real posts' 12.6 a post, and since variants rename
their letters, perhaps 2–3 M distinct formulas) that is one read of the whole formula table (a few GB) and, per
question formula, maxsim against every matrix: `bench_search`'s exhaustive baseline took 3.1–3.5 s a query per
million formulas here, so ~8 s per question formula, ~30–60 s per question of 4–8 formulas, 15–30 minutes for 30
questions; the words' pass per question is a second or two. `exhaustive_seconds` in the report says what it took.
"""
from __future__ import annotations

import numpy as np

from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT, ssemb, with_thread
from ml.retrieval.score_fusion import fuse
from searchapp.indexing.iterables import chunks
from searchapp.models import Formula, Occurrence, Post
from searchapp.search.questions import THREAD_FORMULA_WEIGHT, THREAD_WEIGHT, Question, _similarities
from searchapp.search.scoring import decode, score

CHUNK = 5000
TIE = 1e-4
"""Scores this close to the exact 10th count as tied with it."""


def exhaustive_overlap(corpus: str, questions: list[Question], found: list[list[int]], k: int = 10) -> list[float]:
    """Per question, the share of `found` (the search's top k post ids) whose exact score reaches the exact k-th
    best over every answer of the corpus (ties count as in, as in `search_speed.exhaustive_overlap`)."""
    posts = Post.objects.filter(corpus__name=corpus)
    ids, parents = _posts(posts)
    row_of = {post_id: row for row, post_id in enumerate(ids.tolist())}
    answers = (parents >= 0) | ~np.isin(ids, parents[parents >= 0])  # what `Post.objects.answers()` returns
    parent_rows = np.array([row_of.get(parent, -1) for parent in parents.tolist()], dtype=np.int64)
    has_thread = parent_rows >= 0
    formula_best = _formula_best(corpus, questions, row_of, len(ids))
    overlaps = []
    for question, best, top in zip(questions, formula_best, found):
        own = best.mean(axis=0) if len(best) else np.zeros(len(ids), dtype=np.float32)
        thread = np.where(has_thread, own[np.maximum(parent_rows, 0)], 0).astype(np.float32)
        formula = with_thread(own, thread, has_thread, THREAD_FORMULA_WEIGHT)
        exact = ssemb(formula, _words(posts, question, row_of, len(ids)), DEFAULT_FORMULA_WEIGHT)
        wanted = min(k, int(answers.sum()))  # a corpus of fewer answers has a shorter top
        kth = np.sort(exact[answers])[-wanted]
        overlaps.append(sum(exact[row_of[post_id]] >= kth - TIE for post_id in top) / wanted)
    return overlaps


def _posts(posts) -> tuple[np.ndarray, np.ndarray]:
    """(posts,) ids and their question's id (−1 for none), by id."""
    rows = list(posts.order_by("id").values_list("id", "parent_id"))
    return (np.array([row[0] for row in rows], dtype=np.int64),
            np.array([-1 if row[1] is None else row[1] for row in rows], dtype=np.int64))


def _formula_best(corpus: str, questions: list[Question], row_of: dict[int, int], count: int) -> list[np.ndarray]:
    """Per question, (its formulas, posts): each post's best exact similarity (clipped at 0) to each formula."""
    occurrences = np.array(list(Occurrence.objects.filter(post__corpus__name=corpus).values_list("formula_id", "post_id")
                                .iterator(chunk_size=CHUNK)), dtype=np.int64).reshape(-1, 2)
    occurrences = occurrences[np.argsort(occurrences[:, 0], kind="stable")]
    post_rows = np.array([row_of[post_id] for post_id in occurrences[:, 1].tolist()], dtype=np.int64)
    best = [np.zeros((len(question.formulas), count), dtype=np.float32) for question in questions]
    rows = Formula.objects.filter(corpus__name=corpus).order_by("id").values_list("id", "slg_matrix", "opg_matrix")
    for chunk in chunks(rows.iterator(chunk_size=CHUNK), CHUNK):
        formula_ids = np.array([row[0] for row in chunk], dtype=np.int64)
        low, high = np.searchsorted(occurrences[:, 0], [formula_ids[0], formula_ids[-1] + 1])
        if low == high:
            continue
        held = np.searchsorted(formula_ids, occurrences[low:high, 0])  # each occurrence's formula in the chunk
        decoded = {"slg": decode([row[1] for row in chunk]), "opg": decode([row[2] for row in chunk])}
        for question, question_best in zip(questions, best):
            for query, row in zip(question.formulas, question_best):
                parts = score(query, decoded)
                similarity = np.clip(fuse(parts["slg"], parts["opg"], "f1"), 0, None)
                np.maximum.at(row, post_rows[low:high], similarity[held])
    return best


def _words(posts, question: Question, row_of: dict[int, int], count: int) -> np.ndarray:
    """(posts,) the cosine of each post's words to the question's, weighed with its question's as the search does."""
    own, thread = np.zeros(count, dtype=np.float32), np.zeros(count, dtype=np.float32)
    has_thread = np.zeros(count, dtype=bool)
    similarities = _similarities(question)
    for post_id, own_words, thread_words in posts.annotate(
            own_words=similarities["own_words"], thread_words=similarities["thread_words"]).values_list(
            "id", "own_words", "thread_words").iterator(chunk_size=CHUNK):
        row = row_of[post_id]
        own[row], thread[row], has_thread[row] = own_words or 0.0, thread_words or 0.0, thread_words is not None
    return with_thread(own, thread, has_thread, THREAD_WEIGHT)
