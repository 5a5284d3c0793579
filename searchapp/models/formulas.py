"""Visually distinct formulas with their occurrences in posts, and the read verb over them,
`Formula.objects.search` (its stages live in `searchapp.search`)."""
from __future__ import annotations

import time

import numpy as np
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from pgvector.django import HalfVectorField

from ml.ranking.features import Candidates
from ml.retrieval.structure import unpack_terms
from ml.text import TEXT_DIM
from searchapp.models.corpora import Corpus
from searchapp.models.corpus_rankers import CorpusRanker
from searchapp.models.feedback import MAX_K, Feedback, Impression
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
from searchapp.search.query_keys import searched_key
from searchapp.search.ranking import DEFAULT_ORDER, LEARNED, ORDERS, Interleave, order_candidates
from searchapp.search.readings import search_readings
from searchapp.search.results import SearchHit, SearchResults
from searchapp.search.scoring import Scored, alignment, decode, score
from searchapp.sql import binary_rows, id_array
from searchapp.vectors import decode_matrix


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
    post = models.ForeignKey("Post", on_delete=models.CASCADE, related_name="occurrences",
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
