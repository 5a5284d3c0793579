"""Storage: corpora, posts, visually distinct formulas with their occurrences, node vectors, index jobs;
and the read verb over formulas, `Formula.objects.search` (its stages live in `searchapp.search`)."""
from __future__ import annotations

import time
from typing import TypeVar

import numpy as np
from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import GeneratedField
from django.urls import reverse
from django.utils import timezone
from pgvector.django import CosineDistance, HalfVectorField, HnswIndex

from ml.ranking.features import Candidates
from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT
from ml.retrieval.score_fusion import DEFAULT_FUSION
from ml.retrieval.structure import unpack_terms
from ml.text import TEXT_DIM
from searchapp.rankers import CorpusRankerQuerySet, RankerState
from searchapp.search.candidates import PROBES, SHORTLIST_SIZE, candidate_ids_of
from searchapp.search.context import CONTEXT_WEIGHT, context_similarity, context_vector, with_context
from searchapp.search.database import reads_the_index
from searchapp.search.duplicates import first_of_each, with_copies
from searchapp.search.exploration import explored
from searchapp.search.feedback_boost import boosted, evidence_for, settled, with_places
from searchapp.search.long_queries import parse_formula, search_parts
from searchapp.search.notation import corpus_macros
from searchapp.search.patterns import pattern_matches
from searchapp.search.query import Query
from searchapp.search.query_keys import KEY_CHARS, feedback_key, question_key, searched_key
from searchapp.search.questions import DEFAULT_MODE, MODES, Question, read_bm25, read_question, score_posts
from searchapp.search.ranking import DEFAULT_ORDER, LEARNED, ORDERS, Interleave, order_candidates
from searchapp.search.readings import search_readings
from searchapp.search.results import PostHit, PostResults, SearchHit, SearchResults
from searchapp.search.scoring import Scored, alignment, decode, score
from searchapp.sql import binary_rows, id_array
from searchapp.vectors import VECTOR_DIM, decode_matrix

MAX_K = 1000


NAMED_CORPORA = 10
"""How many corpus names an unknown name's error lists."""
RELATED_POSTS = 5
"""Related threads a post's page lists."""


class CorpusQuerySet(models.QuerySet):
    def searchable(self) -> CorpusQuerySet:
        """Corpora with a post stored: what the public menus offer and searches accept. A corpus whose jobs stored
        nothing (an upload of bad records) would answer every search "No formula matched"; its jobs and their errors
        stay on the staff pages."""
        return self.filter(models.Exists(Post.objects.filter(corpus=models.OuterRef("pk"))))

    def unknown(self, name: str) -> str:
        """Why no corpus is named `name`, naming those there are so that a typo shows at once; "" if one is."""
        if self.filter(name=name).exists():
            return ""
        names = list(self.order_by("name").values_list("name", flat=True)[:NAMED_CORPORA + 1])
        listed = ", ".join(names[:NAMED_CORPORA]) + (", …" if len(names) > NAMED_CORPORA else "")
        return f"no corpus named {name!r}; " + (f"the corpora are {listed}" if names else "none is indexed yet")


CORPUS_NAME_CHARS = 100


class Corpus(models.Model):
    name = models.SlugField(max_length=CORPUS_NAME_CHARS, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    macros = models.JSONField(default=dict, blank=True,
                              help_text="its documents' own LaTeX macros, the most common definition of each "
                                        "(name → corpora.documents.latex_macros.Macro.to_json()): queries are read "
                                        "with them")
    other_macros = models.JSONField(default=dict, blank=True,
                                    help_text="the other definitions its documents give a name of `macros`, most "
                                              "common first (name → [Macro.to_json()]): a query is read with each "
                                              "that fits it too")

    objects = CorpusQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "corpora"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class PostQuerySet(models.QuerySet):
    def copies_of(self, post: Post) -> PostQuerySet:
        """The same post in other corpora (the same source address and id), with their corpus; none without an
        address."""
        if not post.url:
            return self.none()
        return self.filter(url=post.url, source_id=post.source_id).exclude(pk=post.pk).select_related("corpus") \
            .defer("embedding", "fused").order_by("corpus__name")

    def for_page(self) -> PostQuerySet:
        """With what a post's page (and its API answer) shows: its corpus, its question, its answers, its formulas."""
        return self.select_related("corpus", "parent").prefetch_related(
            models.Prefetch("answers", queryset=Post.objects.order_by("id").defer("embedding", "fused")), "occurrences")

    def related_to(self, post: Post, k: int = RELATED_POSTS) -> PostQuerySet:
        """The `k` questions of `post`'s corpus nearest in words to its thread's question (to `post` itself when it
        answers nothing), as a Q&A site lists "related" threads: found by the posts' HNSW index."""
        thread = post.parent or post
        if thread.embedding is None:
            return self.none()
        return self.filter(corpus_id=post.corpus_id, parent__isnull=True, embedding__isnull=False) \
            .exclude(pk=thread.pk).order_by(CosineDistance("embedding", thread.embedding)).defer("embedding", "fused")[:k]

    def tagged(self, tag: str) -> PostQuerySet:
        """Posts tagged `tag` and the answers to questions tagged so (a thread's tags are its question's); an empty
        tag filters nothing."""
        if not tag:
            return self
        return self.filter(models.Q(tags__contains=[tag]) | models.Q(parent__tags__contains=[tag]))

    def answers(self) -> PostQuerySet:
        """The posts a question search returns: answers, and posts that are neither question nor answer."""
        answered = Post.objects.filter(parent=models.OuterRef("pk"))
        return self.filter(models.Q(parent__isnull=False) | ~models.Exists(answered))

    @reads_the_index
    def search(self, question: Question | str, k: int = 10, offset: int = 0, mode: str = DEFAULT_MODE,
               corpus: str | None = None, weight: float = DEFAULT_FORMULA_WEIGHT) -> PostResults:
        """The `k` answers of this queryset after `offset` that best answer `question` (text with `$…$` formulas, read
        with `corpus`'s macros), by words and formulas combined as `mode` says (`searchapp.search.questions`)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
        started = time.perf_counter()
        if isinstance(question, str):
            question = read_question(question, corpus_macros(question, corpus, Corpus.objects).macros)
        threads = self.filter(corpus__name=corpus) if corpus else self
        scores = score_posts(threads.answers(), Formula.objects, question, corpus, threads=threads,
                             full_text=mode == "bm25")
        if scores.mode_used(mode) == "bm25":
            read_bm25(scores, question, corpus, range(len(scores.ids)))
        evidence = evidence_for(Feedback.objects, "post", question_key(question.text), question.text)
        combined = scores.combined(mode, weight)
        ordered, feedback = boosted(combined, scores.ids, evidence)
        distinct, copies = first_of_each(np.argsort(-ordered, kind="stable"), scores.keys)
        if feedback:
            unmoved, _ = first_of_each(np.argsort(-combined, kind="stable"), scores.keys)
            feedback = with_places(feedback, unmoved, distinct, scores.keys)
        order = distinct[offset:offset + min(k, MAX_K)]
        read_bm25(scores, question, corpus, order)
        by_id = Post.objects.select_related("corpus", "parent").defer("embedding", "fused").in_bulk(
            [scores.ids[i] for i in with_copies(order, copies)])
        hits = [PostHit(by_id[scores.ids[i]], float(combined[i]), rank, scores.parts(i), scores.best_formula.get(scores.ids[i]),
                        [by_id[scores.ids[j]] for j in copies.get(i, ())], feedback.get(i))
                for rank, i in enumerate(order, start=offset + 1)]
        return PostResults(question, scores.mode_used(mode), hits, len(distinct), (time.perf_counter() - started) * 1000)


class SourceDocument(models.Model):
    """A document of a corpus as it was last indexed (the `documents` format): what indexing the same folder again
    compares with, so that an unchanged document is skipped and a changed or removed one is replaced whole."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="documents")
    origin = models.CharField(max_length=1000, help_text="what was indexed: a path given to index_corpus, or an "
                                                         "upload's file name")
    path = models.CharField(max_length=200, help_text="the document's id: its main file, relative to the origin")
    files = models.JSONField(default=dict, help_text="the files it was read from: relative path → sha256")
    macros = models.JSONField(default=dict, blank=True, help_text="the macros it defines (name → Macro.to_json())")
    job = models.ForeignKey("IndexJob", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                            help_text="the job that last stored it")
    indexed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["corpus", "origin", "path"], name="document_unique_path")]

    def __str__(self) -> str:
        return self.path


class Post(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="posts")
    document = models.ForeignKey(SourceDocument, on_delete=models.CASCADE, null=True, blank=True,
                                 related_name="posts", help_text="the document it is a section of")
    source_id = models.CharField(max_length=200, help_text="The post's id in its source file.")
    title = models.CharField(max_length=500, blank=True)
    body = models.TextField(blank=True, help_text="text with its formulas written $…$ where they stand")
    url = models.URLField(max_length=1000, blank=True)
    tags = models.JSONField(default=list, blank=True)
    date = models.DateTimeField(null=True, blank=True)
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="answers",
                               help_text="the question this post answers")
    embedding = HalfVectorField(dimensions=TEXT_DIM, null=True, blank=True,
                                help_text="the title and text embedded by the text encoder (ml.text), unit length")
    fused = HalfVectorField(dimensions=TEXT_DIM, null=True, blank=True,
                            help_text="MaRF: the mean of the post's words fused with each of its formulas (ml.text.marf)")
    words = GeneratedField(expression=SearchVector("title", "body", config="english"), output_field=SearchVectorField(),
                           db_persist=True, help_text="Postgres full-text terms of the title and text (the BM25-like baseline)")

    objects = PostQuerySet.as_manager()

    class Meta:
        ordering = ["corpus", "id"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "source_id"], name="post_unique_source_id"),
        ]
        indexes = [HnswIndex(name="post_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                             opclasses=["halfvec_cosine_ops"]),
                   GinIndex(name="post_words_gin", fields=["words"])]

    def __str__(self) -> str:
        return self.title or self.source_id

    def get_absolute_url(self) -> str:
        return reverse("post", args=[self.pk])

    @property
    def display_title(self) -> str:
        """Its title; an answer has none of its own, so it is named after its question (select_related("parent"))."""
        if self.title or self.parent is None:  # a post without a parent reads none
            return self.title or self.source_id
        return f"Answer to: {self.parent.title or self.parent.source_id}"


class CorpusWords(models.Model):
    """BM25's collection statistics of a corpus's posts: how many there are and their stems in all (a post's length
    is its distinct stems). Kept by Postgres triggers on the posts (migration 0014), so every search reads them in
    one row instead of counting a whole corpus, and no process keeps a copy that an indexed post makes stale."""
    corpus = models.OneToOneField(Corpus, on_delete=models.CASCADE, primary_key=True, related_name="words")
    posts = models.BigIntegerField(default=0)
    stems = models.BigIntegerField(default=0)


class StemCount(models.Model):
    """How many of a corpus's posts hold a stem in their `words` (BM25's document frequency), kept by the same
    triggers; a stem no post holds any more has no row."""
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="stems")
    stem = models.TextField()
    posts = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stem", "corpus"], name="stemcount_unique_stem")]


class FormulaQuerySet(models.QuerySet):
    def copies_of(self, formula: Formula) -> FormulaQuerySet:
        """The same formula in other corpora (the same visual key), with their corpus."""
        return self.filter(visual_key=formula.visual_key).exclude(pk=formula.pk).select_related("corpus") \
            .defer("slg_matrix", "opg_matrix", "structure").order_by("corpus__name")

    @reads_the_index
    def search(self, query: Query | str, k: int = 10, offset: int = 0, fusion: str = DEFAULT_ORDER, corpus: str | None = None,
               probes: int = PROBES, shortlist_size: int = SHORTLIST_SIZE, context: str = "",
               context_weight: float = CONTEXT_WEIGHT, interleave: Interleave | None = None,
               explore: int = 0) -> SearchResults:
        """The `k` formulas of this queryset most similar to `query` after `offset` (DESIGN.md §4).

        A string is read as LaTeX, with `corpus`'s macros (`searchapp.search.notation`; `mathparse.ParseError` if it
        cannot be); a query with several readings of them is searched in each (`searchapp.search.readings`), and one
        too long to search whole by its largest parts (`searchapp.search.long_queries`).
        Candidates come from the codebook's
        posting lists and from shared sub-expressions, or are the whole queryset when it is no larger than a
        shortlist (then exact scoring is as cheap, and complete). `fusion` orders them: the learned ranker
        (`searchapp.search.ranking`), or a dense fusion of the mean cosines, in [-1, 1]. A query with query variables
        ranks the formulas that hold it exactly, whatever stands in the variables' places, first
        (`searchapp.search.patterns`). Words of `context` (what
        surrounds the formula the user looks for) are fused with the words around each candidate's occurrences
        (`searchapp.search.context`); the hits' `parts` then carry their "context" similarity. With `interleave`,
        the hits are its team-draft interleaving of this order and its candidate ranker's, which gets every
        adjustment made to the ranker's scores here too; the results' `teams` say who placed each hit. Otherwise, with
        `explore` places, a query asked often shows as many candidates its logs have hardly shown from rank 11 on
        (`searchapp.search.exploration`); their hits are `explored`. What people said of the query's results reorders
        them, never changing a score, and never past the query's exact match (`searchapp.search.feedback_boost`).
        """
        if fusion not in ORDERS:
            raise ValueError(f"unknown fusion {fusion!r}; choose one of {', '.join(ORDERS)}")
        started = time.perf_counter()
        if isinstance(query, str):
            query = parse_formula(query, "latex", *corpus_macros(query, corpus, Corpus.objects))
        if query.parts:  # neither interleaved nor explored, as a query's readings
            return search_parts(self, query, k=k, offset=offset, fusion=fusion, corpus=corpus, context=context)
        if query.readings:
            return search_readings(self, query, k=k, offset=offset, fusion=fusion, corpus=corpus, probes=probes,
                                   shortlist_size=shortlist_size, context=context, context_weight=context_weight)
        scored = self.scored_candidates(query, max(shortlist_size, offset + k), corpus, probes)
        ranker = CorpusRanker.objects.ranker_for(corpus) if fusion == LEARNED else None
        ordering = order_candidates(fusion, query, scored.candidates, ranker)
        scores, parts = ordering.scores, scored.parts
        if context.strip():
            similarity = context_similarity(scored.ids, context_vector(context))
            scores, parts = with_context(ordering, similarity, context_weight), {**parts, "context": similarity}
        key = searched_key(query.graphs)
        evidence = evidence_for(Feedback.objects, "formula", key, query.text, Impression.objects)
        ordered, feedback = boosted(scores, scored.ids, evidence)  # the order people moved; the scores stay
        patterns = pattern_matches(query, scored, ordered, offset + min(k, MAX_K), self)
        exact = np.zeros(len(scores), dtype=bool)
        exact[list(patterns)] = True
        distinct, copies = first_of_each(np.lexsort((-ordered, ~exact)), scored.keys)  # exact matches of a pattern first
        if feedback:
            unmoved, _ = first_of_each(np.lexsort((-scores, ~exact)), scored.keys)
            distinct = settled(unmoved, distinct, scored.keys, key)
            feedback = with_places(feedback, unmoved, distinct, scored.keys)
        candidates = len(distinct)
        teams, trying = "", set[int]()
        if interleave is not None:
            rival = interleave.rival_scores(query, ordering, scored.candidates) + (ordered - ordering.scores)
            distinct, teams = interleave.merge(distinct, rival, exact, offset + min(k, MAX_K))
            teams = teams[offset:]
        elif explore and not patterns:
            looks = np.array([evidence[i].looks if i in evidence else 0.0 for i in scored.ids])
            distinct, trying = explored(distinct, looks, explore)
        order = distinct[offset:offset + min(k, MAX_K)]
        by_id = Formula.objects.select_related("corpus").defer("slg_matrix", "opg_matrix", "structure").in_bulk(
            [scored.ids[i] for i in with_copies(order, copies)])
        hits = []
        for rank, i in enumerate(order, start=offset + 1):
            formula = by_id[scored.ids[i]]
            hits.append(SearchHit(formula, float(scores[i]), {name: float(part[i]) for name, part in parts.items()}, rank,
                                  alignment(query.vectors, query.labels, formula.node_labels, scored.decoded, i),
                                  ordering.signals(i), [by_id[scored.ids[j]] for j in copies.get(i, ())],
                                  patterns.get(i), feedback.get(i), i in trying))
        return SearchResults(query, ordering.order, hits, candidates, (time.perf_counter() - started) * 1000, teams)

    def scored_candidates(self, query: Query, size: int, corpus: str | None = None, probes: int = PROBES) -> Scored:
        """The first stage and exact scoring: `size` is the shortlist per representation. A collection no
        larger than `size` is scored whole."""
        return self.scored_candidates_of([query], size, corpus, probes)[0]

    def scored_candidates_of(self, queries: list[Query], size: int, corpus: str | None = None,
                             probes: int = PROBES) -> list[Scored]:
        """`scored_candidates` of several queries (a question's formulas) with one first stage and one read of
        their candidates' rows: each query cost ~15 ms of round trips on its own."""
        formulas = self.filter(corpus__name=corpus) if corpus else self
        everything = formulas._all_if_at_most(size)
        found = [set(everything) for _ in queries] if everything is not None else candidate_ids_of(
            [(query.free_vectors, query.terms) for query in queries], probes, size, corpus)
        rows = {row[0]: row for row in formulas.filter(pk__in=id_array(set().union(*found)))._matrices()}
        return [_scored(query, [rows[i] for i in sorted(ids) if i in rows]) for query, ids in zip(queries, found)]

    def scores_of(self, queries: list[Query], ids: set[int]) -> tuple[list[int], list[dict[str, np.ndarray]]]:
        """The formulas `ids` as read, and each query's exact scores (`score`) against them: their node matrices are
        read and decoded once for all the queries."""
        rows = binary_rows(self.filter(pk__in=id_array(ids)).values_list("id", "slg_matrix", "opg_matrix"))
        decoded = {name: decode([row[column] for row in rows]) for column, name in ((1, "slg"), (2, "opg"))}
        return [row[0] for row in rows], [score(query, decoded) for query in queries]

    def _all_if_at_most(self, size: int) -> list[int] | None:
        ids = list(self.values_list("id", flat=True)[:size + 1])
        return ids if len(ids) <= size else None

    def _matrices(self) -> list[tuple[int, bytes, bytes, bytes, str]]:
        """(id, slg blob, opg blob, packed structure terms, visual key) rows, ~2 MB of node matrices per query: read
        in binary."""
        return binary_rows(self.values_list("id", "slg_matrix", "opg_matrix", "structure", "visual_key"))


def _scored(query: Query, rows: list[tuple[int, bytes, bytes, bytes, str]]) -> Scored:
    """Exact scores and ranking inputs of `query` against its candidates' (id, slg, opg, structure, key) rows."""
    decoded = {"slg": decode([row[1] for row in rows]), "opg": decode([row[2] for row in rows])}
    parts = score(query, decoded)
    structures = [unpack_terms(row[3]) for row in rows]
    candidates = Candidates(np.concatenate(structures) if rows else np.zeros(0, dtype=np.int32),
                            np.array([len(terms) for terms in structures], dtype=np.int64),
                            decoded["slg"].sizes, parts["slg"], parts["opg"])
    return Scored([row[0] for row in rows], [row[4] for row in rows], decoded, parts, candidates)


def slg_matrices(formula_ids: list[int]) -> dict[int, np.ndarray]:
    """Formula id → its SLG node vectors (float32), for MaRF's fusion of a post's words with its formulas."""
    rows = Formula.objects.filter(pk__in=id_array(set(formula_ids))).values_list("id", "slg_matrix")
    return {formula_id: decode_matrix(blob) for formula_id, blob in rows}


class Formula(models.Model):
    """One visually distinct formula of a corpus (its canonical SLT string is the key)."""

    class Notation(models.TextChoices):
        LATEX = "latex", "LaTeX"
        MATHML = "mathml", "MathML"
        SLT = "slt", "Tangent SLT string"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="formulas")
    visual_key = models.CharField(max_length=64, help_text="sha256 of the canonical SLT string")
    slt_string = models.TextField()
    notation = models.CharField(max_length=6, choices=Notation.choices, default=Notation.LATEX,
                                help_text="the notation of the first occurrence seen")
    latex = models.TextField(help_text="LaTeX shown for the formula: the first occurrence's source when its notation "
                                       "is LaTeX, else rendered from its SLT")
    slg_matrix = models.BinaryField(help_text="4-bit node vectors (n_slt, dim), two components a byte, pre-order")
    opg_matrix = models.BinaryField(
        help_text="4-bit node vectors (n_opt, dim), two components a byte; empty without an OPT")
    opt_error = models.CharField(max_length=300, blank=True)
    node_labels = models.JSONField(default=dict, blank=True,
                                   help_text='{"slt": [...], "opt": [...]}: labels in the matrices\' row order')
    structure = models.BinaryField(default=bytes, blank=True,
                                   help_text="sorted hashed structure terms (ml.retrieval.structure), packed int32: "
                                             "what the ranker's structural features compare")
    subtrees = ArrayField(models.IntegerField(), default=list, blank=True,
                          help_text="the structure's sub-expression terms: the structure channel's GIN lookup key")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = FormulaQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["corpus", "visual_key"], name="formula_unique_visual_key"),
        ]
        # intarray's operator class: `&&` finds formulas sharing sub-expressions, `icount(a & b)` counts them.
        # Only sub-expressions are indexed: all terms made the index 2.5 KB a formula.
        indexes = [GinIndex(name="formula_subtrees_gin", fields=["subtrees"], opclasses=["gin__int_ops"])]

    def __str__(self) -> str:
        return self.latex[:80]


class Occurrence(models.Model):
    """Where a formula appears: a post and the formula's position in it."""

    formula = models.ForeignKey(Formula, on_delete=models.CASCADE, related_name="occurrences",
                                db_index=False)  # occurrence_formula_post serves it
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="occurrences",
                             db_index=False)  # occurrence_unique_position serves it
    position = models.PositiveIntegerField(help_text="0-based index among the post's formulas")
    latex = models.TextField(help_text="this occurrence's LaTeX: its source, or rendered from its SLT for another notation")
    start = models.PositiveIntegerField(default=0, help_text="where the formula's $…$ starts in the post's body")
    end = models.PositiveIntegerField(default=0, help_text="where it ends; 0 for a formula of the title")
    anchor = models.CharField(max_length=100, blank=True, help_text="its name in its document (a LaTeX \\label)")
    number = models.CharField(max_length=20, blank=True, help_text="the number its document prints for it (2.14)")
    context = HalfVectorField(dimensions=TEXT_DIM, null=True, blank=True,
                              help_text="the words around the formula embedded by the text encoder, unit length")

    class Meta:
        ordering = ["post_id", "position"]
        constraints = [
            # the formulas a post holds, read from the index alone: the question search reads those of its
            # ~2,500 candidates (searchapp.search.questions), 48–88 ms through the heap at 300 k posts
            models.UniqueConstraint(fields=["post", "position"], include=["formula"],
                                    name="occurrence_unique_position"),
        ]
        # The posts holding a formula, read from the index alone: the question search's formula channel reads
        # ~100,000 of them for some questions at 100 k posts (searchapp.search.questions)
        indexes = [models.Index(fields=["formula", "post"], name="occurrence_formula_post")]

    @property
    def page_anchor(self) -> str:
        """The id of the formula on its post's page, which a result links to: its label, else its position."""
        return page_anchor(self.anchor, self.position)


def page_anchor(anchor: str, position: int) -> str:
    """An HTML id for a formula: its label as the document wrote it (`eq:trace`, spaces joined by dashes), else
    `formula-N` after its position."""
    return "-".join(anchor.split()) if anchor else f"formula-{position}"


class Centroid(models.Model):
    """One entry of the model's node-vector codebook (`ml.retrieval.codebook`), for the HNSW first stage.

    A query node's nearest centroids name, through their posting lists, the formulas worth scoring
    exactly. The codebook is fixed per model, so indexing only assigns nodes and never grows a graph.
    """

    number = models.PositiveIntegerField(help_text="row of the centroid in the model's codebook")
    embedding = HalfVectorField(dimensions=VECTOR_DIM)

    class Meta:
        abstract = True


class SlgCentroid(Centroid):
    class Meta:
        constraints = [models.UniqueConstraint(fields=["number"], name="slgcentroid_unique_number")]
        indexes = [HnswIndex(name="slgcentroid_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                             opclasses=["halfvec_cosine_ops"])]


class OpgCentroid(Centroid):
    class Meta:
        constraints = [models.UniqueConstraint(fields=["number"], name="opgcentroid_unique_number")]
        indexes = [HnswIndex(name="opgcentroid_embedding_hnsw", fields=["embedding"], m=16, ef_construction=64,
                             opclasses=["halfvec_cosine_ops"])]


class CodebookState(models.Model):
    """The fingerprint of the codebook loaded into the centroid tables; stored postings refer to its rows."""

    fingerprint = models.CharField(max_length=64)
    loaded_at = models.DateTimeField(auto_now=True)


class PostingRows(models.Model):
    """Formulas of a corpus with a node assigned to centroid `centroid`: packed little-endian uint32 ids."""

    class Representation(models.TextChoices):
        SLG = "slg"
        OPG = "opg"

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE)
    representation = models.CharField(max_length=3, choices=Representation.choices)
    centroid = models.PositiveIntegerField()
    formula_ids = models.BinaryField()

    class Meta:
        abstract = True


class PostingList(PostingRows):
    """One row per centroid: a job's appended postings (`PendingPosting`) are merged in when it ends, so a query
    reads one blob per probed centroid instead of thousands of rows.
    """

    class Meta:
        indexes = [models.Index(fields=["representation", "centroid", "corpus"], name="postinglist_lookup")]


class PendingPosting(PostingRows):
    """Postings an indexing chunk appended (one row per centroid it touched) and its job has not merged yet.

    Searches read them beside `PostingList`, so a formula is found as soon as its chunk is stored. Kept in a
    table of their own because a job appends millions of small rows that merging deletes: here they leave
    an empty table to shrink (`searchapp.indexing.postings.merge_postings`), not dead space in the index.
    """

    class Meta:
        indexes = [models.Index(fields=["representation", "centroid", "corpus"], name="pendingposting_lookup")]


class IndexJob(models.Model):
    """Indexing of one corpus file; `cursor` (records done) lets a killed job resume where it stopped."""

    class State(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"
        CANCELLED = "cancelled"

    UNFINISHED = (State.PENDING, State.RUNNING)
    """States of a job that may still run: a worker that starts resumes it, and staff may cancel it."""

    class Format(models.TextChoices):
        JSONL = "jsonl", "JSONL posts"
        ARQMATH = "arqmath", "ARQMath formula TSV"
        VISUAL_IDS = "visual_ids", "visual_id_file.tsv"
        SLT_TSV = "slt_tsv", "Tangent SLT strings TSV"
        LATEX_LINES = "latex", "LaTeX, one formula per line"
        MSE_HTML = "mse_html", "Math StackExchange thread pages (HTML)"
        DOCUMENTS = "documents", "Documents: LaTeX, Markdown, notebooks, web pages (a file, a folder, a zip or a tar.gz)"

    FORMAT_HELP = {
        Format.JSONL: 'one <code>{"id", "title", "body", "url", "tags"}</code> a line, formulas written '
                      '<code>$…$</code> in the body; an answer\'s <code>"parent"</code> is its question\'s id.',
        Format.ARQMATH: "<code>id post_id thread_id type visual_id formula</code> a line after a header "
                        "(<code>latex_representation_v3</code>): each formula indexed under its post.",
        Format.VISUAL_IDS: "ARQMath-1's judged formulas, <code>visual_id, SLT string, LaTeX</code> a line.",
        Format.SLT_TSV: "<code>formula_id post_id slt</code> a line (ARQMath's "
                        "<code>formulas_slt_string.tsv</code>).",
        Format.LATEX_LINES: "each line a formula, and a post of its own.",
        Format.MSE_HTML: "a page, or a <code>.zip</code> of pages: each page's question (title, tags, text, "
                         "comments) and its answer.",
        Format.DOCUMENTS: "LaTeX papers or projects, Markdown notes, Jupyter notebooks, web pages with MathML, KaTeX "
                          "or MathJax; one file, or a folder as a <code>.zip</code>, or arXiv's <code>.tar.gz</code> "
                          "source. Each section becomes a post; a project's own macros are expanded and its "
                          "<code>\\input</code> files followed. Uploading a file of the same name again keeps the "
                          "corpus in sync with it: unchanged documents are skipped, changed ones replaced, and "
                          "those no longer in it removed.",
    }
    """What the upload page says of each format (markup): every one of `Format`, which the page lists."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="jobs")
    path = models.CharField(max_length=1000)
    format = models.CharField(max_length=20, choices=Format.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    total = models.PositiveIntegerField(null=True, blank=True, help_text="records in the file; empty until the job, "
                                                                         "in the worker, has counted them")
    counted = models.PositiveIntegerField(default=0, help_text="records counted so far, while the job counts them")
    origin = models.CharField(max_length=1000, blank=True,
                              help_text="documents: what the documents are kept in sync with (SourceDocument.origin)")
    files_total = models.PositiveIntegerField(null=True, blank=True, help_text="documents: files in the upload")
    files_read = models.PositiveIntegerField(default=0, help_text="documents: files read or found unchanged")
    bytes_total = models.PositiveBigIntegerField(default=0, help_text="documents: bytes of those files")
    bytes_read = models.PositiveBigIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0, help_text="documents found unchanged since their last indexing")
    removed = models.PositiveIntegerField(default=0, help_text="documents gone from the upload, and their posts")
    cursor = models.PositiveIntegerField(default=0, help_text="records processed so far")
    done = models.PositiveIntegerField(default=0, help_text="records indexed")
    failed = models.PositiveIntegerField(default=0, help_text="records that failed")
    formulas_added = models.PositiveIntegerField(default=0, help_text="new visually distinct formulas")
    formula_errors = models.PositiveIntegerField(default=0, help_text="formulas that could not be parsed")
    errors = models.JSONField(default=list, blank=True, help_text="the first 100 per-record errors")
    message = models.TextField(blank=True, help_text="why the job failed, or who cancelled it")
    timings = models.JSONField(default=dict, blank=True, help_text="seconds spent per stage")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"job {self.pk} {self.corpus} {self.state}"

    @classmethod
    def formats(cls) -> list[tuple[str, str, str]]:
        """(value, name, help) of every format, as the upload page lists them."""
        return [(value, name, cls.FORMAT_HELP[cls.Format(value)]) for value, name in cls.Format.choices]

    @property
    def record_unit(self) -> str:
        """What an error's number counts: thread pages are read page by page, documents section by section, every other
        format by line."""
        units: dict[str, str] = {self.Format.MSE_HTML: "page", self.Format.DOCUMENTS: "section"}
        return units.get(self.format, "line")

    @property
    def progress(self) -> str:
        """Records processed of all (a documents upload: files read of all), as lists and commands show it."""
        if self.files_total is not None:
            return f"{self.files_read} / {self.files_total} files"
        return f"{self.cursor} / {f'counting… ({self.counted} so far)' if self.total is None else self.total}"

    @property
    def planned(self) -> bool:
        """Whether its parts are made (`searchapp.indexing.parts`): a documents upload listed, a file's records
        counted."""
        return self.files_total is not None or self.total is not None

    @property
    def work(self) -> tuple[int, int | None]:
        """(done, total) of what its rate and ETA are measured in: bytes of a documents upload's listing, else records
        (total None until counted)."""
        if self.files_total is not None:
            return self.bytes_read, self.bytes_total
        return self.cursor, self.total

    @property
    def seconds(self) -> float | None:
        """How long the job ran (so far, while it runs); None before it starts."""
        if self.started_at is None:
            return None
        return ((self.finished_at or timezone.now()) - self.started_at).total_seconds()

    @property
    def formulas_per_second(self) -> float | None:
        """New formulas a second over a finished job's run; None before it finishes."""
        seconds = self.seconds
        if self.finished_at is None or seconds is None:
            return None
        return self.formulas_added / max(seconds, 1e-3)


class IndexPart(models.Model):
    """A share of an index job that any worker may take: a document of a `documents` upload, or a range of records
    of a file. One runner at a time takes it (a Postgres session lock, `searchapp.indexing.parts`) and indexes it from
    its cursor on; its counts are added to its job's as it goes."""

    job = models.ForeignKey(IndexJob, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField(help_text="its place in the job, from 0")
    document = models.CharField(max_length=1000, blank=True,
                                help_text="documents: the document's path in the upload (its main file)")
    files = models.PositiveIntegerField(default=0, help_text="documents: the upload's files the document covers")
    bytes = models.PositiveBigIntegerField(default=0, help_text="documents: the bytes of those files")
    start = models.PositiveIntegerField(default=0, help_text="records: the first record of its range")
    stop = models.PositiveIntegerField(default=0, help_text="records: the record after its range")
    state = models.CharField(max_length=10, choices=IndexJob.State.choices, default=IndexJob.State.PENDING)
    cursor = models.PositiveIntegerField(default=0, help_text="records (or sections) processed so far")
    done = models.PositiveIntegerField(default=0, help_text="records indexed")
    failed = models.PositiveIntegerField(default=0, help_text="records that failed")
    formulas_added = models.PositiveIntegerField(default=0, help_text="new visually distinct formulas")
    formula_errors = models.PositiveIntegerField(default=0, help_text="formulas that could not be parsed")
    errors = models.JSONField(default=list, blank=True, help_text="its first 100 per-record errors")

    class Meta:
        ordering = ["job", "number"]
        constraints = [models.UniqueConstraint(fields=["job", "number"], name="indexpart_unique_number")]

    def __str__(self) -> str:
        return f"part {self.number} of job {self.job_id} {self.state}"


class UnlinkedAnswer(models.Model):
    """An answer stored before its question: another part of its job holds the question, and links it when the job
    ends (`searchapp.indexing.parts.link_answers`)."""

    part = models.ForeignKey(IndexPart, on_delete=models.CASCADE, related_name="+")
    post = models.ForeignKey(Post, on_delete=models.CASCADE, related_name="+")
    parent_source_id = models.CharField(max_length=200, help_text="the source id of the question it answers")


_Rows = TypeVar("_Rows", bound=models.QuerySet)


def _of_person(rows: _Rows, user_id: int | None, session_key: str) -> _Rows:
    """A person's rows: a logged-in user's wherever they were sent from, else those of the session."""
    if user_id is not None:
        return rows.filter(user_id=user_id)
    return rows.filter(user__isnull=True, session_key=session_key) if session_key else rows.none()


LOOKED_AT = ~models.Q(seen=[])
"""An impression someone saw something of (`searchapp.feedback.impressions`)."""


class ImpressionQuerySet(models.QuerySet):
    def of_person(self, user_id: int | None, session_key: str) -> ImpressionQuerySet:
        return _of_person(self, user_id, session_key)

    def looked_at(self) -> ImpressionQuerySet:
        """Pages a person saw something of: their page reported results on screen, or they clicked one (an API
        client's click names its page). Pages only served (API responses, crawlers, scripts) count nothing."""
        return self.filter(LOOKED_AT)


class Impression(models.Model):
    """One page of formula results as it was served, and what its person saw of it: what learning from clicks needs
    to know of what was seen. A click's rank alone cannot say what stood above it, how often a result was seen
    without a click, or which ranker placed it when two were interleaved (`searchapp.learning.online`)."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, null=True, blank=True, related_name="impressions",
                               help_text="the corpus searched; empty for a search of all corpora")
    query = models.TextField(help_text="the query as searched, without the spaces around it")
    query_key = models.CharField(max_length=KEY_CHARS, blank=True, db_index=True,
                                 help_text="the query's normalised form (searchapp.search.query_keys)")
    formula_ids = ArrayField(models.BigIntegerField(), help_text="the formulas shown, in order")
    offset = models.PositiveIntegerField(default=0, help_text="results before the first shown (earlier pages)")
    teams = models.CharField(max_length=MAX_K, blank=True,
                             help_text="interleaved lists: the team of each position, a (installed) or b (candidate)")
    candidate = models.CharField(max_length=40, blank=True, help_text="interleaved lists: the candidate ranker's id")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    session_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    seen = ArrayField(models.BigIntegerField(), default=list, blank=True,
                      help_text="the formulas the person's page reported on screen, in page order "
                                "(searchapp.feedback.impressions.record_looks)")

    objects = ImpressionQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["corpus", "created_at"], name="impression_corpus_time"),
                   models.Index(fields=["candidate"], condition=~models.Q(candidate=""), name="impression_interleaved"),
                   # What people saw is read by query, and the latest of all pages for the position bias: a script's
                   # million pages served and never seen must not slow either down.
                   models.Index(fields=["query_key", "-id"], condition=LOOKED_AT, name="impression_looked_at_key"),
                   models.Index(fields=["-id"], condition=LOOKED_AT, name="impression_looked_at"),
                   # A person's repeat of a page is looked up at every search they make.
                   models.Index(fields=["session_key", "query_key"], condition=~models.Q(session_key=""),
                                name="impression_session_query")]

    def __str__(self) -> str:
        return f"{len(self.formula_ids)} formulas from {self.offset + 1} for {self.query[:40]}"


class FeedbackQuerySet(models.QuerySet):
    def clicks_on(self, pages) -> set[tuple[int, int]]:
        """The (page, formula) clicks made on these logged pages (Impression rows or their ids)."""
        return set(self.filter(kind=Feedback.Kind.CLICK, impression__in=pages).values_list("impression_id", "formula_id"))

    def of_person(self, user_id: int | None, session_key: str) -> FeedbackQuerySet:
        return _of_person(self, user_id, session_key)

    def judgments(self) -> FeedbackQuerySet:
        return self.filter(kind__in=Feedback.JUDGMENTS)

    def chosen(self, user_id: int | None, session_key: str, query: str, *, formulas=(), posts=()) -> dict:
        """{("formula" | "post", id): kind} of this person's judgments on these results of `query`'s meaning (its
        key: the formula's for formulas, the question's for answers, however either was spelled), in one query, so
        a results page shows each result's pressed button."""
        results = models.Q(pk__in=[])
        for field, ids, on_formula in (("formula_id", formulas, True), ("post_id", posts, False)):
            if ids:
                results |= models.Q(**{f"{field}__in": list(ids)}, query_key=feedback_key(query, on_formula))
        rows = self.of_person(user_id, session_key).judgments().filter(results)
        return {("formula", formula) if formula else ("post", post): kind
                for formula, post, kind in rows.values_list("formula_id", "post_id", "kind")}


class Feedback(models.Model):
    """A person's signal on a result, a formula or an answer: a click on it (a log: every click is a row), or an
    explicit relevant / not relevant judgment, of which a person has at most one per query meaning (`query_key`) and
    result, the latest. The person is the logged-in user, else the browser session."""

    class Kind(models.TextChoices):
        CLICK = "click"
        RELEVANT = "relevant"
        NOT_RELEVANT = "not_relevant"

    JUDGMENTS = (Kind.RELEVANT, Kind.NOT_RELEVANT)

    query = models.TextField(help_text="the query as searched, without the spaces around it")
    query_key = models.CharField(max_length=KEY_CHARS, blank=True,
                                 help_text="the query's normalised form (searchapp.search.query_keys), which equivalent "
                                           "queries share: a search reads its results' feedback by it")
    formula = models.ForeignKey(Formula, on_delete=models.CASCADE, null=True, blank=True, related_name="feedback")
    post = models.ForeignKey(Post, on_delete=models.CASCADE, null=True, blank=True, related_name="feedback")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    rank = models.PositiveIntegerField()
    fusion = models.CharField(max_length=20, default=DEFAULT_FUSION,
                              help_text="what ordered the results: a formula search's order, a question's mode")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="feedback")
    session_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now, help_text="when the signal, or the judgment now held, was sent")
    impression = models.ForeignKey(Impression, on_delete=models.SET_NULL, null=True, blank=True, related_name="clicks",
                                   help_text="a click: the results page it was made on, when the client said")

    objects = FeedbackQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["query", "kind"]), models.Index(fields=["query_key"], name="feedback_query_key")]
        constraints = [
            models.CheckConstraint(name="feedback_on_a_formula_or_a_post",
                                   condition=models.Q(formula__isnull=False, post__isnull=True)
                                   | models.Q(formula__isnull=True, post__isnull=False)),
            # One judgment per person, query meaning (its key: two spellings of a formula are one) and result;
            # NULLS NOT DISTINCT makes the empty formula (or post) of the other kind of result equal, so one
            # constraint covers both.
            models.UniqueConstraint(fields=["user", "query_key", "formula", "post"], nulls_distinct=False,
                                    condition=models.Q(kind__in=["relevant", "not_relevant"], user__isnull=False),
                                    name="one_judgment_per_user_and_key"),
            models.UniqueConstraint(fields=["session_key", "query_key", "formula", "post"], nulls_distinct=False,
                                    condition=models.Q(kind__in=["relevant", "not_relevant"], user__isnull=True),
                                    name="one_judgment_per_session_and_key"),
        ]

    def __str__(self) -> str:
        target = f"formula {self.formula_id}" if self.formula_id else f"post {self.post_id}"
        return f"{self.kind} {target} for {self.query[:40]}"

    def save(self, *args, **kwargs):
        """Keys the query when the row is first written, whoever writes it (bulk_create skips this: key those)."""
        if not self.query_key:
            self.query_key = feedback_key(self.query, on_formula=self.formula_id is not None)
        super().save(*args, **kwargs)


class CorpusRanker(models.Model):
    """A ranker trained on a corpus's feedback: its training's offline numbers, its state and, once interleaving has
    settled it, the decision. `searchapp.rankers` (its QuerySet) reads and writes these rows and their weights."""

    State = RankerState

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="rankers")
    trained_at = models.DateTimeField()
    state = models.CharField(max_length=16, choices=State.choices)
    training = models.JSONField(help_text="its training's entry: its judged queries and judgments, and their MAP′, "
                                          "P′@10 and nDCG′ before (dense fusion, the shipped ranker) and after it "
                                          "(cross-validated)")
    decision = models.JSONField(null=True, blank=True,
                                help_text="interleaving's decision on it: when, which, why, wins, losses, ties and the "
                                          "95 % interval of (wins − losses) / compared")
    candidate = models.CharField(max_length=64, blank=True,
                                 help_text="the id its interleaved impressions record (none when worse offline)")
    weights = models.CharField(max_length=20, blank=True,
                               help_text="its folder under MATHSEARCH_CORPUS_RANKERS_DIR (its id) while it is under "
                                         "test or installed; empty otherwise")

    objects = CorpusRankerQuerySet.as_manager()

    class Meta:
        ordering = ["-trained_at", "-pk"]
        indexes = [models.Index(fields=["corpus", "state"], name="corpusranker_corpus_state")]
        constraints = [
            models.UniqueConstraint(fields=["corpus"], condition=models.Q(state=RankerState.INSTALLED),
                                    name="one_installed_ranker_per_corpus"),
            models.UniqueConstraint(fields=["corpus"], condition=models.Q(state=RankerState.UNDER_TEST),
                                    name="one_ranker_under_test_per_corpus"),
        ]

    def __str__(self) -> str:
        return f"{self.corpus_id}: {self.state} ranker trained {self.trained_at:%Y-%m-%d %H:%M}"
