"""Formula search, from a query to its hits: the one place that composes the stages of this package
(`Formula.objects.search` is its way in; DESIGN.md §4).

A string is read as LaTeX, with its corpus's macros (`searchapp.search.notation`; `mathparse.ParseError` if it cannot
be); a query with several readings of them is searched in each (`searchapp.search.readings`), and one too long to
search whole by its largest parts (`searchapp.search.long_queries`). Candidates come from the codebook's posting lists
and from shared sub-expressions (`searchapp.search.candidates`), or are the whole queryset when it is no larger than a
shortlist (then exact scoring is as cheap, and complete; `searchapp.search.scoring`). The fusion orders them: the
learned ranker (`searchapp.search.ranking`), or a dense fusion of the mean cosines, in [-1, 1]. A query with query
variables ranks the formulas that hold it exactly, whatever stands in the variables' places, first
(`searchapp.search.patterns`). Words of the context (what surrounds the formula the user looks for) are fused with the
words around each candidate's occurrences (`searchapp.search.context`); the hits' `parts` then carry their "context"
similarity. With an `Interleave`, the hits are its team-draft interleaving of this order and its candidate ranker's,
which gets every adjustment made to the ranker's scores here too; the results' `teams` say who placed each hit.
Otherwise, with `explore` places, a query asked often shows as many candidates its logs have hardly shown from rank 11
on (`searchapp.search.exploration`); their hits are `explored`. What people said of the query's results reorders them,
never changing a score, and never past the query's exact match (`searchapp.search.feedback_boost`).

It receives the Formula queryset to search rather than importing `searchapp.models`, whose verbs import it; the
models it reads besides (corpora, rankers, feedback) come from their own modules, which import nothing of it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from django.db.models import QuerySet

from ml.ranking.features import Candidates
from ml.retrieval.structure import unpack_terms
from searchapp.models.corpora import Corpus
from searchapp.models.corpus_rankers import CorpusRanker
from searchapp.models.feedback import MAX_K, Feedback, Impression
from searchapp.search.candidates import PROBES, SHORTLIST_SIZE, candidate_ids_of
from searchapp.search.context import CONTEXT_WEIGHT, context_similarity, context_vector, with_context
from searchapp.search.database import reads_the_index
from searchapp.search.duplicates import first_of_each, with_copies
from searchapp.search.exploration import explored
from searchapp.search.feedback_boost import Evidence, boosted, evidence_for, settled, with_places
from searchapp.search.long_queries import parse_formula, search_parts
from searchapp.search.notation import corpus_macros
from searchapp.search.patterns import Bindings, pattern_matches
from searchapp.search.query import Query
from searchapp.search.query_keys import searched_key
from searchapp.search.ranking import DEFAULT_ORDER, LEARNED, ORDERS, Interleave, Ordering, order_candidates
from searchapp.search.readings import search_readings
from searchapp.search.results import SearchHit, SearchResults
from searchapp.search.scoring import Scored, alignment, decode, score
from searchapp.search.stages import Stopwatch
from searchapp.sql import binary_rows, id_array

Row = tuple[int, bytes, bytes, bytes, str]
"""A candidate's (id, slg blob, opg blob, packed structure terms, visual key)."""


def read_formula(text: str, notation: str = "latex", corpus: str | None = None) -> Query:
    """`text` read in `notation`, a LaTeX one searched in `corpus` with that corpus's macros (the query's `macros`
    name them); a formula over the node limit as its largest parts (its `parts`). Raises `mathparse.ParseError`."""
    return parse_formula(text, notation, *corpus_macros(text, corpus, Corpus.objects))


@reads_the_index
def search(formulas: QuerySet, query: Query | str, k: int = 10, offset: int = 0, fusion: str = DEFAULT_ORDER,
           corpus: str | None = None, probes: int = PROBES, shortlist_size: int = SHORTLIST_SIZE, context: str = "",
           context_weight: float = CONTEXT_WEIGHT, interleave: Interleave | None = None,
           explore: int = 0) -> SearchResults:
    """The `k` formulas of `formulas` (a Formula queryset) most similar to `query` after `offset`, as the module's
    docstring says. A long query's parts and a query's readings are each searched as `formulas.search` searches one,
    neither interleaved nor explored."""
    if fusion not in ORDERS:
        raise ValueError(f"unknown fusion {fusion!r}; choose one of {', '.join(ORDERS)}")
    watch = Stopwatch()
    if isinstance(query, str):
        query = read_formula(query, "latex", corpus)
    if query.parts:
        return search_parts(formulas, query, k=k, offset=offset, fusion=fusion, corpus=corpus, context=context)
    if query.readings:
        return search_readings(formulas, query, k=k, offset=offset, fusion=fusion, corpus=corpus, probes=probes,
                               shortlist_size=shortlist_size, context=context, context_weight=context_weight)
    watch.lap("read")
    searched = _in_corpus(formulas, corpus)
    found = _candidate_ids(searched, [query], max(shortlist_size, offset + k), corpus, probes)
    watch.lap("first_stage")
    scored = _scored_of(searched, [query], found)[0]
    watch.lap("exact")
    ranker = CorpusRanker.objects.ranker_for(corpus) if fusion == LEARNED else None
    ordering = order_candidates(fusion, query, scored.candidates, ranker)
    scores, parts = ordering.scores, scored.parts
    if context.strip():
        similarity = context_similarity(scored.ids, context_vector(context))
        scores, parts = with_context(ordering, similarity, context_weight), {**parts, "context": similarity}
    watch.lap("order")
    needed = offset + min(k, MAX_K)
    placed = _people_order(formulas, query, scored, scores, needed)
    if interleave is not None:
        placed = _interleaved(placed, interleave, query, scored, ordering, needed, offset)
    elif explore and not placed.patterns:
        placed = _explored(placed, scored, explore)
    watch.lap("people")
    hits = _hits(formulas, query, scored, ordering, scores, parts, placed, offset, needed)
    watch.lap("hits")
    return SearchResults(query, ordering.order, hits, placed.candidates, sum(watch.ms.values()),
                         placed.teams, watch.ms)


@dataclass(frozen=True)
class _Placed:
    """The distinct candidates (indices into `Scored`) in the order shown, and what placed them."""
    distinct: list[int]
    copies: dict[int, list[int]]
    """Candidate → its copies in other corpora (the same visual key), shown with it."""
    candidates: int
    """Distinct candidates, before any interleaving or exploring moved them."""
    patterns: dict[int, Bindings]
    exact: np.ndarray
    """Per candidate: whether it holds the query's pattern exactly."""
    ordered: np.ndarray
    """The scores with people's feedback added: what ordered them."""
    evidence: dict[int, Evidence]
    """By formula id: what people said of it for this query."""
    feedback: dict[int, Evidence]
    """By candidate: the evidence of those it moved, with how far."""
    teams: str = ""
    trying: set[int] = field(default_factory=set)
    """Candidates moved up to be seen (`searchapp.search.exploration`)."""


def _people_order(formulas: QuerySet, query: Query, scored: Scored, scores: np.ndarray, needed: int) -> _Placed:
    """The candidates by their `scores` as people's feedback moved them (never past the query's exact match), the
    exact matches of a pattern first, each visual key once."""
    key = searched_key(query.graphs)
    evidence = evidence_for(Feedback.objects, "formula", key, query.text, Impression.objects)
    ordered, feedback = boosted(scores, scored.ids, evidence)  # the order people moved; the scores stay
    patterns = pattern_matches(query, scored, ordered, needed, formulas)
    exact = np.zeros(len(scores), dtype=bool)
    exact[list(patterns)] = True
    distinct, copies = first_of_each(np.lexsort((-ordered, ~exact)), scored.keys)
    if feedback:
        unmoved, _ = first_of_each(np.lexsort((-scores, ~exact)), scored.keys)
        distinct = settled(unmoved, distinct, scored.keys, key)
        feedback = with_places(feedback, unmoved, distinct, scored.keys)
    return _Placed(distinct, copies, len(distinct), patterns, exact, ordered, evidence, feedback)


def _interleaved(placed: _Placed, interleave: Interleave, query: Query, scored: Scored, ordering: Ordering,
                 needed: int, offset: int) -> _Placed:
    """The candidate ranker's order gets the same adjustments (feedback) as the ranker's in use."""
    rival = interleave.rival_scores(query, ordering, scored.candidates) + (placed.ordered - ordering.scores)
    distinct, teams = interleave.merge(placed.distinct, rival, placed.exact, needed)
    return replace(placed, distinct=distinct, teams=teams[offset:])


def _explored(placed: _Placed, scored: Scored, places: int) -> _Placed:
    looks = np.array([placed.evidence[i].looks if i in placed.evidence else 0.0 for i in scored.ids])
    distinct, trying = explored(placed.distinct, looks, places)
    return replace(placed, distinct=distinct, trying=trying)


def _hits(formulas: QuerySet, query: Query, scored: Scored, ordering: Ordering, scores: np.ndarray,
          parts: dict[str, np.ndarray], placed: _Placed, offset: int, needed: int) -> list[SearchHit]:
    """The page's hits, their rows and their copies' read in one query."""
    order = placed.distinct[offset:needed]
    by_id = formulas.model._default_manager.select_related("corpus").defer("slg_matrix", "opg_matrix", "structure") \
        .in_bulk([scored.ids[i] for i in with_copies(order, placed.copies)])
    hits = []
    for rank, i in enumerate(order, start=offset + 1):
        formula = by_id[scored.ids[i]]
        hits.append(SearchHit(formula, float(scores[i]), {name: float(part[i]) for name, part in parts.items()}, rank,
                              alignment(query.vectors, query.labels, formula.node_labels, scored.decoded, i),
                              ordering.signals(i), [by_id[scored.ids[j]] for j in placed.copies.get(i, ())],
                              placed.patterns.get(i), placed.feedback.get(i), i in placed.trying))
    return hits


def scored_candidates(formulas: QuerySet, query: Query, size: int, corpus: str | None = None,
                      probes: int = PROBES) -> Scored:
    """The first stage and exact scoring of `query` among `formulas`: `size` is the shortlist per representation. A
    collection no larger than `size` is scored whole."""
    return scored_candidates_of(formulas, [query], size, corpus, probes)[0]


def scored_candidates_of(formulas: QuerySet, queries: list[Query], size: int, corpus: str | None = None,
                         probes: int = PROBES) -> list[Scored]:
    """`scored_candidates` of several queries (a question's formulas) with one first stage and one read of their
    candidates' rows: each query cost ~15 ms of round trips on its own."""
    formulas = _in_corpus(formulas, corpus)
    return _scored_of(formulas, queries, _candidate_ids(formulas, queries, size, corpus, probes))


def _in_corpus(formulas: QuerySet, corpus: str | None) -> QuerySet:
    return formulas.filter(corpus__name=corpus) if corpus else formulas


def _candidate_ids(formulas: QuerySet, queries: list[Query], size: int, corpus: str | None,
                   probes: int) -> list[set[int]]:
    """The first stage: each query's candidates, or all of `formulas` when they are no more than `size`."""
    everything = _all_if_at_most(formulas, size)
    return [set(everything) for _ in queries] if everything is not None else candidate_ids_of(
        [(query.free_vectors, query.terms) for query in queries], probes, size, corpus)


def _scored_of(formulas: QuerySet, queries: list[Query], found: list[set[int]]) -> list[Scored]:
    """Exact scoring: the candidates' rows read once for all the queries, and each query scored against its own."""
    rows = {row[0]: row for row in _rows(formulas.filter(pk__in=id_array(set().union(*found))))}
    return [_scored(query, [rows[i] for i in sorted(ids) if i in rows]) for query, ids in zip(queries, found)]


def scores_of(formulas: QuerySet, queries: list[Query], ids: set[int]) -> tuple[list[int], list[dict[str, np.ndarray]]]:
    """The `formulas` of `ids` as read, and each query's exact scores (`score`) against them: their node matrices are
    read and decoded once for all the queries."""
    rows = binary_rows(formulas.filter(pk__in=id_array(ids)).values_list("id", "slg_matrix", "opg_matrix"))
    decoded = {name: decode([row[column] for row in rows]) for column, name in ((1, "slg"), (2, "opg"))}
    return [row[0] for row in rows], [score(query, decoded) for query in queries]


def _all_if_at_most(formulas: QuerySet, size: int) -> list[int] | None:
    ids = list(formulas.values_list("id", flat=True)[:size + 1])
    return ids if len(ids) <= size else None


def _rows(formulas: QuerySet) -> list[Row]:
    """The candidates' rows, ~2 MB of node matrices per query: read in binary."""
    return binary_rows(formulas.values_list("id", "slg_matrix", "opg_matrix", "structure", "visual_key"))


def _scored(query: Query, rows: list[Row]) -> Scored:
    """Exact scores and ranking inputs of `query` against its candidates' rows."""
    decoded = {"slg": decode([row[1] for row in rows]), "opg": decode([row[2] for row in rows])}
    parts = score(query, decoded)
    structures = [unpack_terms(row[3]) for row in rows]
    candidates = Candidates(np.concatenate(structures) if rows else np.zeros(0, dtype=np.int32),
                            np.array([len(terms) for terms in structures], dtype=np.int64),
                            decoded["slg"].sizes, parts["slg"], parts["opg"])
    return Scored([row[0] for row in rows], [row[4] for row in rows], decoded, parts, candidates)
