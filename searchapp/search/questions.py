"""Question search: the answer posts that best answer a question written as text with `$…$` formulas.

A question is read once (`read_question`): its words embedded by the text encoder, its formulas parsed and
embedded like a formula search's query. Candidates are the union of three channels: the posts nearest in
words (pgvector HNSW on the post vectors; a question found so brings its answers), the best BM25 matches over
Postgres's English stems, and the posts holding the formulas most similar to the question's (the formula search's
own first stage and exact scoring). The candidates best by words, and best by the formulas the channel shortlisted,
have every formula scored, not only the shortlisted ones (COMPLETED_POSTS). Every
candidate then gets all the scores, and the mode decides which one ranks, or how they are combined: `ssemb` weighs
formulas and words (SSEmb), `marf` compares the posts' MaRF vectors, the question's words fused with its formulas
(`ml.text.marf`; without a trained fusion the search falls back to `ssemb` and says so).
"""
from __future__ import annotations

import itertools
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from django.db import transaction
from django.db.models import FloatField, Value
from django.db.models.expressions import RawSQL

from mathparse.extraction import extract_formulas
from ml.retrieval.bm25 import bm25
from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT, formula_scores, ssemb, with_thread
from ml.retrieval.score_fusion import fuse
from ml.text import text_encoder
from ml.text.encoder import EncodedPost
from searchapp.embedding import get_fusion
from searchapp.search.database import search_connection, search_database
from searchapp.search.formula_search import scored_candidates_of, scores_of
from searchapp.search.query import Macros, Query, parse_queries
from searchapp.sql import id_array
from searchapp.vectors import vector_literal

MODES = ("ssemb", "marf", "text", "bm25", "formula")
DEFAULT_MODE = "ssemb"
THREAD_WEIGHT = 0.5
"""An answer's words are scored with its question's too: (1 − w)·cos(question, answer) + w·cos(question, its
question). On the development topics w = 0.5 lifted `text` from nDCG′ / MAP′ 0.631 / 0.381 to 0.642 / 0.409 and
`ssemb` from 0.648 / 0.410 to 0.651 / 0.432 (0.3: 0.648 / 0.401 and 0.649 / 0.430)."""
THREAD_FORMULA_WEIGHT = 0.3
"""So are its formulas, with its question's: an answer seldom repeats the formulas its question asks about. On the
development topics w = 0.3 lifted `formula` from nDCG′ / MAP′ 0.554 / 0.364 to 0.597 / 0.398 and `ssemb` from
0.651 / 0.432 to 0.657 / 0.441 (0.5: 0.600 / 0.396 and 0.652 / 0.430; 0.7: 0.588 / 0.386 and 0.648 / 0.416)."""
CHANNEL_SIZE = 200
"""Posts each words channel adds to the candidates. The nearest in words are read among questions and answers, and
a question's answers join it: an answer's words count with its question's (THREAD_WEIGHT), and the answer that says
"see the proof in …" under a question worded as the searcher's is found only so. At 300 k posts, of the top 10 that
scoring every post exactly gives, the search found 98.0 % → 98.7 % (the first 30 development questions) and
93.7 % → 97.3 % (the next 30)."""
WORDS_EXACT_BELOW, WORDS_REACH, WORDS_WIDER_REACH = 20_000, 800, 6_400
"""The nearest posts in words are found exactly (every post's distance, ~4 µs a post) in a corpus of fewer posts,
and past it among the WORDS_REACH nearest posts of every corpus by the HNSW index; when fewer than CHANNEL_SIZE of
those are the searched posts (another corpus's, or a tag's), among the WORDS_WIDER_REACH nearest, and only then
exactly: at 300 k posts that scan took 1.7–2.1 s for the two slowest development questions, the wider
reach 0.3–0.7 s with the same top 10. Read through the index at every size, the thread pages' `formula` mode (which
scores whole the answers best by words) moved nDCG′ 0.5838 → 0.5775, so the index waits until the scan costs more
than the index loses (at 30 k posts the scan took 70 ms, the index 16)."""
FORMULA_SHORTLIST = 50
"""Formulas per representation each question formula scores exactly in the formula channel (a formula search's is
400). With COMPLETED_POSTS it matters little: against 100, on the development topics, `ssemb` nDCG′ / MAP′
0.6653 / 0.4423 against 0.6652 / 0.4415, and question search p50 / p95 182 / 259 ms against 203 / 296."""
COMPLETED_POSTS = 50
"""The candidates best by words, and those best by `ssemb` over the shortlisted formulas, whose every formula, and
their question's, is scored against the question's formulas, not only those the formula channel shortlisted: an
answer's formula is what it shares with the question, however far down the corpus-wide shortlist it stands. On the
development topics (every answer ranked) the best by words lifted `ssemb` from nDCG′ / MAP′ 0.650 / 0.443 to
0.665 / 0.442 at λ = 0.4 (0.650 / 0.439 to 0.659 / 0.432 at λ = 0.3); 100 posts gave 0.665 / 0.443, and scoring
every formula of the corpus 0.665 / 0.442; the best by shortlisted formulas too, 0.6604 / 0.4381 → 0.6607 / 0.4410.
At 300 k posts they found, of the exact top 10, 94.3 % → 98.0 % (the first 30 development questions) and
89.7 % → 93.7 % (the next 30). The `formula` mode keeps the shortlisted scores: ranked by these it would score
0.642 / 0.427, the words having chosen which posts are scored whole."""
FORMULA_POSTS = 1000
"""Posts the formula channel adds to the candidates: those whose own formulas score best against the question's. One
small formula among the hits can be held by thousands of posts: reading every holder made the slowest questions read
20,000–33,000 of 100 k posts (p95 757 ms)."""
COMMON_FORMULA = FORMULA_POSTS
"""Occurrences past which a formula is too common for the formula channel to list its holders
(`_selective_holders`): as many as the channel adds (FORMULA_POSTS)."""
MAX_QUESTION_FORMULAS = 8
"""The question's largest formulas that are searched (with only the 4 largest, nDCG′ / MAP′ of the answers fell from
0.651 / 0.415 to 0.638 / 0.408 on the development topics)."""


_words = ThreadPoolExecutor(max_workers=1, thread_name_prefix="question-words")
"""Encodes a question's words while its formulas are parsed and searched: the encoder keeps one core busy while
the formula channel mostly waits on Postgres (one at a time: a process has no more cores to give)."""


@dataclass(frozen=True)
class Question:
    text: str
    formulas: list[Query]
    unread: list[dict]
    """Formulas that could not be parsed: {"latex", "error"}; the question is searched without them."""
    words: Future[EncodedPost]
    """The encoded words, ready once `vector` or `tokens` is first read."""

    @property
    def vector(self) -> np.ndarray:
        return self.words.result().vector

    @property
    def macros(self) -> list[str]:
        """The corpus's macros its formulas were read with, in order of first use."""
        return list(dict.fromkeys(name for formula in self.formulas for name in formula.macros))

    @property
    def tokens(self) -> np.ndarray:
        """The question's MiniLM token vectors (MaRF's E_ctx)."""
        return self.words.result().tokens.astype(np.float32)


@dataclass(frozen=True)
class PostScores:
    ids: list[int]
    keys: list[tuple[str, str] | None]
    """Their source address and id, None for a post without an address: a post held by several corpora has one key,
    and distinct posts citing one page (a corpus's notes on one Wikipedia article) have several."""
    text: np.ndarray
    bm25: np.ndarray
    """NaN for a candidate the full-text channel did not read until `read_bm25` reads it."""
    formula: np.ndarray
    """What the question's formulas share with the post's (and its question's), as SSEmb fuses it."""
    formula_alone: np.ndarray
    """The same from the formulas the formula channel shortlisted only: the `formula` mode's ranking, where the words
    do not choose which posts are scored whole (COMPLETED_POSTS)."""
    marf: np.ndarray | None
    """The MaRF similarity, None without a trained fusion."""
    best_formula: dict[int, int]
    """Per post, its formula most similar to the question's (for highlighting)."""

    def mode_used(self, mode: str) -> str:
        return "ssemb" if mode == "marf" and self.marf is None else mode

    def combined(self, mode: str, weight: float = DEFAULT_FORMULA_WEIGHT) -> np.ndarray:
        mode = self.mode_used(mode)
        if mode == "ssemb":
            return ssemb(self.formula, self.text, weight)
        return self.formula_alone if mode == "formula" else self._signals()[mode]

    def parts(self, i: int) -> dict[str, float]:
        return {name: float(scores[i]) for name, scores in self._signals().items()}

    def _signals(self) -> dict[str, np.ndarray]:
        """Each single-signal mode's scores (no `marf` without a trained fusion)."""
        named = {"text": self.text, "bm25": self.bm25, "formula": self.formula, "marf": self.marf}
        return {name: scores for name, scores in named.items() if scores is not None}


def read_question(text: str, macros: Macros | None = None) -> Question:
    """Embed the words and parse the formulas, with the corpus's `macros` they write expanded: the largest
    MAX_QUESTION_FORMULAS of the distinct ones (a question often repeats its title's formulas in its body)."""
    found = extract_formulas(text)
    words = _words.submit(lambda: text_encoder().encode([text], [[(f.start, f.end) for f in found]])[0])
    distinct = {" ".join(f.latex.split()): f for f in found}
    largest = sorted(distinct.values(), key=lambda f: -len(f.latex))[:MAX_QUESTION_FORMULAS]
    formulas, failed = parse_queries([formula.latex for formula in largest], macros=macros)
    unread = [{"latex": latex, "error": f"{error.kind}: {error.message}"} for latex, error in failed]
    return Question(text, formulas, unread, words)


def score_posts(posts, formulas, question: Question, corpus: str | None,
                candidates: list[int] | None = None, threads=None, full_text: bool = True) -> PostScores:
    """Every score for the union of the channels' candidates among `posts` (or for the `candidates` given:
    a benchmark ranks every answer); `formulas` is the queryset the formula channel reads, `threads` the posts of
    `posts`' threads, questions included, whose nearest in words the words channel reads (`posts` without it).
    Without `full_text`, the full-text channel adds no candidates and reads no BM25 (`read_bm25` reads it for the
    posts shown): the modes but `bm25` rank by other scores, and at 300 k posts the channel added 1 of the 600
    posts that scoring every post exactly puts in the default mode's top 10 (60 development questions), and took
    64 ms a question (128 ms for the slowest 20)."""
    formula_hits = _formula_hits(formulas, question.formulas, corpus)
    hit_ids = np.array(sorted({formula_id for hits in formula_hits for formula_id in hits}), dtype=np.int64)
    lexical = _lexical_scores(corpus, question.text, candidates) if full_text else {}
    by_words = sorted(lexical, key=lexical.__getitem__, reverse=True)[:CHANNEL_SIZE]
    wanted = candidates
    if wanted is None:  # the answers of a question holding a hit or near in words too: its formulas and words
        # count for them (THREAD_FORMULA_WEIGHT, THREAD_WEIGHT); read apart by the parent index (`pk IN … OR parent
        # IN …` filtered every post), and kept to `posts` with the rest below
        holding = _best_holders(_selective_holders(hit_ids), formula_hits, FORMULA_POSTS)
        near = _nearest_in_words(posts if threads is None else threads, question.vector, corpus)
        answering = posts.model.objects.filter(parent__in=id_array({*holding, *near})).values_list("id", flat=True)
        wanted = [*near, *by_words, *holding, *answering]
    rows = {post_id: (parent, own, thread, marf, (url, source_id) if url else None)
            for post_id, parent, own, thread, marf, url, source_id
            in posts.filter(pk__in=id_array(set(wanted))).annotate(**_similarities(question)).values_list(
                "id", "parent", "own_words", "thread_words", "marf", "url", "source_id")}
    ids = sorted(rows)
    parents = [rows[i][0] for i in ids]
    words = with_thread(_scores([rows[i][1] for i in ids]), _scores([rows[i][2] for i in ids]),
                        np.array([rows[i][2] is not None for i in ids], dtype=bool), THREAD_WEIGHT)
    shortlisted = _held_formulas({*ids, *(parent for parent in parents if parent is not None)}, hit_ids)
    formula_alone = _formula_scores(shortlisted, formula_hits, ids, parents)
    best = np.union1d(np.argsort(-words, kind="stable")[:COMPLETED_POSTS],
                      np.argsort(-ssemb(formula_alone, words), kind="stable")[:COMPLETED_POSTS])
    around = _held_formulas({ids[i] for i in best} | {parents[i] for i in best if parents[i]})
    whole = _with_the_rest(formula_hits, formulas, question.formulas, set(around[:, 1].tolist()))
    marf = _scores([rows[i][3] for i in ids]) if get_fusion() is not None else None
    unread = np.nan if candidates is None else 0.0  # given candidates were all read; a post without the words is 0
    return PostScores(ids, [rows[i][4] for i in ids], words,
                      np.array([lexical.get(post_id, unread) for post_id in ids], dtype=np.float32),
                      _formula_scores(np.concatenate([shortlisted, around]), whole, ids, parents), formula_alone, marf,
                      _best_formulas(shortlisted, formula_hits, ids))


def read_bm25(scores: PostScores, question: Question, corpus: str | None, indices) -> None:
    """Fill in the BM25 of the candidates at `indices` that the full-text channel did not read: it reads only the
    posts holding the question's rarest stems, but a post found by its formulas or by HNSW may hold the common ones.
    A `bm25` ranking needs every candidate's (~0.1 ms a post); the other modes only the hits they show."""
    missing = [i for i in indices if np.isnan(scores.bm25[i])]
    if missing:
        read = _lexical_scores(corpus, question.text, [scores.ids[i] for i in missing])
        scores.bm25[missing] = [read.get(scores.ids[i], 0.0) for i in missing]


def _similarities(question: Question) -> dict:
    """Each candidate's cosine to the question's words (its own and its question's, NULL without a vector) and
    its MaRF similarity, computed by Postgres: reading three vectors a post instead took twice as long (19 against
    10 ms for 800 posts)."""
    words = vector_literal(question.vector)
    fusion = get_fusion()
    if fusion is None:
        marf: RawSQL | Value = Value(None, output_field=FloatField())
    else:  # the question's words fused with each of its formulas, averaged; the post's stored the same way
        fused = fusion.post_vector(question.tokens, [query.vectors["slg"] for query in question.formulas])
        marf = RawSQL("-(searchapp_post.fused <#> %s::halfvec)",
                      [vector_literal(fused / max(float(np.linalg.norm(fused)), 1e-12))], output_field=FloatField())
    return {"own_words": RawSQL("1 - (searchapp_post.embedding <=> %s::halfvec)", [words], output_field=FloatField()),
            "thread_words": RawSQL("(SELECT 1 - (question.embedding <=> %s::halfvec) FROM searchapp_post question"
                                   " WHERE question.id = searchapp_post.parent_id)", [words], output_field=FloatField()),
            "marf": marf}


def _scores(values: list[float | None]) -> np.ndarray:
    """float32 scores; a missing vector's NULL is 0 (similar to nothing)."""
    return np.array([value or 0.0 for value in values], dtype=np.float32)


def _formula_scores(pairs: np.ndarray, formula_hits: list[dict[int, float]], ids: list[int],
                    parents: list[int | None]) -> np.ndarray:
    """Per post of `ids`, its formulas' score (`formula_scores`) from the (post, formula) `pairs`, weighed with its
    question's (THREAD_FORMULA_WEIGHT); a formula missing from a query formula's hits counts 0 for it."""
    scored = np.array(sorted({*ids, *(parent for parent in parents if parent is not None)}), dtype=np.int64)
    kept = pairs[np.isin(pairs[:, 0], scored)]  # pairs of other posts drop out here
    scores = formula_scores(np.searchsorted(scored, kept[:, 0]), _pair_similarities(kept[:, 1], formula_hits),
                            len(scored))
    own = scores[np.searchsorted(scored, np.array(ids, dtype=np.int64))]
    has_thread = np.array([parent is not None for parent in parents], dtype=bool)
    thread = scores[np.searchsorted(scored, np.array([parent or 0 for parent in parents], dtype=np.int64))]
    return with_thread(own, np.where(has_thread, thread, 0.0).astype(np.float32), has_thread, THREAD_FORMULA_WEIGHT)


def _selective_holders(hit_ids: np.ndarray) -> np.ndarray:
    """(post, formula) pairs of the hits held at most COMMON_FORMULA times. A hit held more often (`n`, `x^2`,
    `f(x)` in a large corpus) names too many posts to choose from: like a stop word, it still scores the posts the
    channels find (`_held_formulas`), but does not list its holders. Each hit's index read stops one row past the
    bound, so a common formula costs COMMON_FORMULA + 1 index entries, not its 18,000 holders: at 300 k posts the
    slowest questions read 270,000–530,000 pairs, 60–130 ms of transfer alone."""
    if not len(hit_ids):
        return np.zeros((0, 2), dtype=np.int64)
    with search_connection().cursor() as cursor:
        cursor.execute("SELECT o.post_id, o.formula_id FROM unnest(%s::bigint[]) AS hit(id) CROSS JOIN LATERAL"
                       " (SELECT post_id, formula_id FROM searchapp_occurrence WHERE formula_id = hit.id LIMIT %s) o",
                       [hit_ids.tolist(), COMMON_FORMULA + 1])
        pairs = np.array(cursor.fetchall(), dtype=np.int64).reshape(-1, 2)
    formulas, counts = np.unique(pairs[:, 1], return_counts=True)
    return pairs[np.isin(pairs[:, 1], formulas[counts <= COMMON_FORMULA])]


def _held_formulas(posts: set[int], among: np.ndarray | None = None) -> np.ndarray:
    """(post, formula) pairs of the formulas the `posts` hold (only those `among` these, if given): one read of the
    (post, position, formula) index alone. The candidates hold ~40 formulas each, few of them hits: at 300 k posts
    reading all of them took 50–60 ms, mostly moving rows."""
    with search_connection().cursor() as cursor:
        cursor.execute("SELECT post_id, formula_id FROM searchapp_occurrence WHERE post_id = ANY(%s)"
                       + (" AND formula_id = ANY(%s)" if among is not None else ""),
                       [sorted(posts)] + ([among.tolist()] if among is not None else []))
        return np.array(cursor.fetchall(), dtype=np.int64).reshape(-1, 2)


def _best_holders(pairs: np.ndarray, formula_hits: list[dict[int, float]], limit: int) -> set[int]:
    """The `limit` posts of the (post, formula) `pairs` whose own formulas score best (`formula_scores`, the first
    of equals by id)."""
    posts, post_of = np.unique(pairs[:, 0], return_inverse=True)
    if len(posts) <= limit:
        return set(posts.tolist())
    scores = formula_scores(post_of, _pair_similarities(pairs[:, 1], formula_hits), len(posts))
    return set(posts[np.argsort(-scores, kind="stable")[:limit]].tolist())


def _pair_similarities(formula_ids: np.ndarray, formula_hits: list[dict[int, float]]) -> list[np.ndarray]:
    """Per query formula, the similarity of each of `formula_ids` (0 outside its hits), looked up once per distinct
    formula: a question's pairs repeat few formulas many times."""
    formulas, formula_of = np.unique(formula_ids, return_inverse=True)
    return [np.array([hits.get(formula_id, 0.0) for formula_id in formulas.tolist()], dtype=np.float32)[formula_of]
            for hits in formula_hits]


def _best_formulas(pairs: np.ndarray, formula_hits: list[dict[int, float]], posts: list[int]) -> dict[int, int]:
    """Per post of `posts`, its formula most similar to one of the question's among the (post, formula) `pairs` (of
    equals, the lowest id), for highlighting."""
    pairs = pairs[np.isin(pairs[:, 0], np.array(posts, dtype=np.int64))]
    if not len(pairs) or not formula_hits:
        return {}
    value = np.max(_pair_similarities(pairs[:, 1], formula_hits), axis=0)
    order = np.lexsort((pairs[:, 1], -value, pairs[:, 0]))  # by post, then best first, then lowest id
    first = order[np.r_[True, pairs[order[1:], 0] != pairs[order[:-1], 0]]]
    return dict(zip(pairs[first, 0].tolist(), pairs[first, 1].tolist()))


def _formula_hits(formulas, queries: list[Query], corpus: str | None) -> list[dict[int, float]]:
    """Per query formula, formula id → dense F1 similarity, for the formula search's exactly scored candidates."""
    hits = []
    for scored in scored_candidates_of(formulas, queries, FORMULA_SHORTLIST, corpus):
        scores = fuse(scored.parts["slg"], scored.parts["opg"], "f1")
        hits.append(dict(zip(scored.ids, scores.tolist())))
    return hits


def _with_the_rest(formula_hits: list[dict[int, float]], formulas, queries: list[Query],
                   held: set[int]) -> list[dict[int, float]]:
    """Each query formula's hits and its exact similarity to the `held` formulas the channel did not shortlist."""
    missing = held - set(formula_hits[0]).intersection(*formula_hits[1:]) if formula_hits else set()
    if not missing:
        return formula_hits
    ids, parts = scores_of(formulas, queries, missing)
    return [{**dict(zip(ids, fuse(scores["slg"], scores["opg"], "f1").tolist())), **hits}
            for hits, scores in zip(formula_hits, parts)]


def _nearest_in_words(posts, vector: np.ndarray, corpus: str | None) -> list[int]:
    """The CHANNEL_SIZE posts of `posts` nearest to `vector`: exactly while the corpus is small, through the posts'
    HNSW index past WORDS_EXACT_BELOW."""
    searched = posts.filter(embedding__isnull=False).order_by()
    literal = vector_literal(vector)
    with transaction.atomic(using=search_database()), search_connection().cursor() as cursor:
        if _corpus_totals(cursor, corpus)[0] >= WORDS_EXACT_BELOW:
            sql, params = searched.values_list("id", flat=True).query.sql_with_params()
            cursor.execute("SET LOCAL hnsw.ef_search = %s", [WORDS_REACH])
            for reach in (WORDS_REACH, WORDS_WIDER_REACH):
                cursor.execute("WITH near AS MATERIALIZED (SELECT id, embedding <=> %s::halfvec AS distance"
                               " FROM searchapp_post WHERE embedding IS NOT NULL ORDER BY distance LIMIT %s)"
                               f" SELECT id FROM near WHERE id IN ({sql}) ORDER BY distance LIMIT %s",
                               [literal, reach, *params, CHANNEL_SIZE])
                found = [row[0] for row in cursor.fetchall()]
                if len(found) == CHANNEL_SIZE:
                    return found
                # past ef_search, pgvector's index scan goes on until the LIMIT is met (near is ordered above)
                cursor.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        # Every searched post's distance, taken in their own scan, then the nearest: a plain ORDER BY … LIMIT may be
        # read through the index. Joined back by id (`id IN (…)`), Postgres misjudged the corpus's share and
        # fetched each post again through the primary key (10 k posts: 54 ms, against 27; 12 with the vectors in the
        # row, migration 0024).
        distances = searched.annotate(distance=RawSQL("searchapp_post.embedding <=> %s::halfvec", [literal],
                                                      output_field=FloatField()))
        sql, params = distances.values_list("id", "distance").query.sql_with_params()
        cursor.execute(f"WITH scored AS MATERIALIZED ({sql}) SELECT id FROM scored ORDER BY distance LIMIT %s",
                       [*params, CHANNEL_SIZE])
        return [row[0] for row in cursor.fetchall()]


def _corpus_totals(cursor, corpus: str | None) -> tuple[int, int]:
    """The searched corpus's posts and their stems in all (all corpora's without one), as Postgres keeps them
    (`CorpusWords`): one index read, where counting them took a pass over the corpus's words (70 ms for the 6,164
    thread posts, and again whenever a post was added)."""
    # sums are numeric in Postgres: cast back to integers
    cursor.execute("SELECT coalesce(sum(w.posts), 0)::bigint, coalesce(sum(w.stems), 0)::bigint"
                   f" FROM searchapp_corpuswords w JOIN searchapp_corpus c ON c.id = w.corpus_id WHERE {CORPUS_IS}",
                   [corpus, corpus])
    return cursor.fetchone()


RARE_TERMS, RARE_POSTINGS = 8, 600
"""The full-text channel reads the posts holding any of the question's rarest stems (common ones match everything):
at most RARE_TERMS of them, and no more than RARE_POSTINGS posts in all past the first (each post's terms are read,
~0.1 ms a post). When even the rarest stem is held by more posts, as a large corpus's common words are, the channel
reads the posts holding two of the rarest instead (those BM25 ranks first), and never more than READ_AT_MOST."""
READ_AT_MOST = 3 * RARE_POSTINGS


def _rare_query(frequency: dict[str, int]) -> str:
    """The tsquery of the posts the full-text channel reads (empty when the question has no stem a post holds)."""
    rarest = sorted(frequency, key=lambda term: frequency[term])[:RARE_TERMS]
    if len(rarest) > 1 and frequency[rarest[0]] > RARE_POSTINGS:
        return " | ".join(f"({_lexeme(a)} & {_lexeme(b)})" for a, b in itertools.combinations(rarest, 2))
    chosen: list[str] = []
    postings = 0
    for term in rarest:
        if chosen and postings + frequency[term] > RARE_POSTINGS:
            break
        chosen.append(_lexeme(term))
        postings += frequency[term]
    return " | ".join(chosen)


def _lexeme(term: str) -> str:
    """A stem quoted as one tsquery lexeme (quotes doubled, backslashes escaped)."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


CORPUS_IS = "(%s::text IS NULL OR c.name = %s)"
"""SQL: the corpus `c` is the one searched, or any without one."""


def _lexical_scores(corpus: str | None, text: str, ids: list[int] | None = None) -> dict[int, float]:
    """BM25 (`ml.retrieval.bm25`) of the question's English stems over Postgres's `words` of each post: of `ids`,
    or of the corpus's posts holding the question's rarest stems (`_rare_query`). The statistics are the
    corpus's (all corpora's without one), questions included. A post's length is its distinct stems."""
    with search_connection().cursor() as cursor:
        cursor.execute("SELECT tsvector_to_array(to_tsvector('english', %s))", [text])
        terms = cursor.fetchone()[0]
        if not terms:
            return {}
        documents, mean_length, frequency = _statistics(cursor, corpus, terms)
        if ids is None:
            rare = _rare_query(frequency)
            if not rare:
                return {}
            cursor.execute("SELECT p.id FROM searchapp_post p JOIN searchapp_corpus c ON c.id = p.corpus_id"
                           f" WHERE {CORPUS_IS} AND p.words @@ %s::tsquery LIMIT %s",
                           [corpus, corpus, rare, READ_AT_MOST])
            ids = [row[0] for row in cursor.fetchall()]
        # only the question's stems are unnested: setweight marks them (the stored words carry no weights) and
        # ts_filter keeps the marked ones; unnesting every stem of 600 posts took 2.5 times as long
        cursor.execute("SELECT p.id, u.lexeme, cardinality(u.positions), length(p.words) FROM searchapp_post p,"
                       " unnest(ts_filter(setweight(p.words, 'A', %s::text[]), '{a}')) u WHERE p.id = ANY(%s)",
                       [terms, list(ids)])
        counts: dict[int, dict[str, int]] = {}
        lengths = {}
        for post_id, term, count, length in cursor.fetchall():
            counts.setdefault(post_id, {})[term] = count or 1
            lengths[post_id] = length
    return bm25(counts, lengths, frequency, documents, mean_length)


def _statistics(cursor, corpus: str | None, terms: list[str]) -> tuple[int, float, dict[str, int]]:
    """The corpus's posts, their mean length (`_corpus_totals`) and the document frequency of each of `terms` that a
    post holds (`StemCount`, kept by the same triggers)."""
    documents, stems = _corpus_totals(cursor, corpus)
    cursor.execute("SELECT s.stem, sum(s.posts)::bigint FROM searchapp_stemcount s"
                   f" JOIN searchapp_corpus c ON c.id = s.corpus_id WHERE s.stem = ANY(%s) AND {CORPUS_IS}"
                   " GROUP BY s.stem", [terms, corpus, corpus])
    return documents, stems / max(documents, 1), dict(cursor.fetchall())
