"""The first stage of a search: which formulas deserve exact scoring (the read side of the posting lists).

pgvector's HNSW index gives every query node vector its `probes` nearest codebook centroids (per
representation); the formulas on those centroids' posting lists are ranked by approximate maxsim
(`ml.retrieval.shortlist`), and the best `shortlist_size` of each representation are kept (DESIGN.md §4).
The indexing side (`searchapp.indexing.postings`) writes the lists this module reads.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
from django.db import transaction

from ml.retrieval.codebook import REPRESENTATIONS
from ml.retrieval.shortlist import shortlist
from ml.retrieval.structure import sizes_of, subtree_terms
from searchapp.search.database import search_connection, search_database
from searchapp.vectors import ID_DTYPE, vector_literal

PROBES = 8
"""Nearest centroids asked per query node."""
SHORTLIST_SIZE = 400
"""Formulas per representation scored exactly (measured with `bench_search`: see docs/scaling.md)."""
CENTROID_TABLES = {"slg": "searchapp_slgcentroid", "opg": "searchapp_opgcentroid"}
STRUCTURE_CANDIDATES = 200
"""Formulas the structure channel adds: those sharing the most sub-expressions with the query among those that
share one of its largest."""
SELECTIVE_SUBTREES = 3
"""The query's largest sub-expressions a formula must share one of to join: large ones are rare, so the GIN
index finds few rows to count overlaps on."""
COMMON_SUBTREE = 1000
"""Formulas sharing a sub-expression past which it is too common to select by, like a stop word: at 300 k posts a
small query's largest sub-expressions (`x^2`, `a+b`) were shared by 18,000–31,000 of 1.5 M formulas, and ordering
those by overlap took up to 275 ms a query formula. Postgres's own estimate says how many share it
(`common_subtrees`)."""


def candidate_ids_of(queries: list[tuple[dict[str, np.ndarray], np.ndarray]], probes: int, size: int,
                     corpus: str | None) -> list[set[int]]:
    """Per query (its vectors, its structure terms), the shortlisted formulas of both representations and the
    structure channel's (of one corpus, by name, or of all). One codebook probe and one posting-list read per
    representation serve all the queries' nodes: a question's formulas each paid these round trips."""
    found: list[set[int]] = [set() for _ in queries]
    with transaction.atomic(using=search_database()), search_connection().cursor() as cursor:
        corpora = _corpus_ids(cursor, corpus)
        for representation in REPRESENTATIONS:
            blocks = [vectors[representation] for vectors, _ in queries]
            owner = np.repeat(np.arange(len(blocks)), [len(block) for block in blocks])
            if not len(owner):
                continue
            nearest = nearest_centroids(cursor, representation, np.concatenate(blocks), probes)
            lists = posting_lists(cursor, representation, sorted({c for _, c, _ in nearest}), corpora)
            probed: list[list] = [[] for _ in queries]
            for row, centroid, cosine in nearest:  # rows stay distinct per query: that is all `shortlist` needs
                probed[owner[row]].append((row, centroid, cosine))
            for ids, probes_of_query in zip(found, probed):
                own = {c: lists[c] for _, c, _ in probes_of_query if c in lists}
                ids.update(shortlist(probes_of_query, own, size).tolist())
        common = common_subtrees(cursor)
        for ids, (_, terms) in zip(found, queries):
            ids.update(structure_matches(cursor, terms, STRUCTURE_CANDIDATES, corpora, common))
    return found


def structure_matches(cursor, terms: np.ndarray, size: int, corpora: list[int] | None,
                      common: set[int]) -> list[int]:
    """Formulas sharing one of the query's largest sub-expressions that are not `common`, the `size` sharing most
    of them (`ml.retrieval.structure`): exact structural matches the embeddings' nearest centroids can miss. A
    query made of common sub-expressions only has none: the nearest centroids find those formulas."""
    subtrees = subtree_terms(terms)
    rare = subtrees[~np.isin(subtrees, np.fromiter(common, dtype=subtrees.dtype, count=len(common)))]
    selective = rare[np.argsort(-sizes_of(rare), kind="stable")[:SELECTIVE_SUBTREES]]
    if not len(selective):
        return []
    corpus_filter = " AND corpus_id = ANY(%s)" if corpora is not None else ""
    cursor.execute(
        "SELECT id FROM searchapp_formula WHERE subtrees && %s::int[]" + corpus_filter
        + " ORDER BY icount(subtrees & %s::int[]) DESC, id LIMIT %s",
        [selective.tolist()] + ([corpora] if corpora is not None else []) + [subtrees.tolist(), size])
    return [row[0] for row in cursor.fetchall()]


def common_subtrees(cursor) -> set[int]:
    """The sub-expressions more than COMMON_SUBTREE formulas share, as the planner's statistics of the formulas'
    `subtrees` estimate them (their most common elements and frequencies, kept by ANALYZE): one small read, where
    counting a term's formulas through the GIN index took 3–30 ms. None before the table is first analysed, when
    it is small."""
    cursor.execute("SELECT s.most_common_elems::text::int[], s.most_common_elem_freqs, c.reltuples FROM pg_stats s"
                   " JOIN pg_class c ON c.oid = 'searchapp_formula'::regclass WHERE s.schemaname = current_schema()"
                   " AND s.tablename = 'searchapp_formula' AND s.attname = 'subtrees'")
    row = cursor.fetchone()
    if row is None or row[0] is None:
        return set()
    elements, frequencies, rows = row  # the frequencies end with three summary values, which zip leaves out
    return {element for element, frequency in zip(elements, frequencies) if frequency * rows > COMMON_SUBTREE}


def _corpus_ids(cursor, corpus: str | None) -> list[int] | None:
    if not corpus:
        return None
    cursor.execute("SELECT id FROM searchapp_corpus WHERE name = %s", [corpus])
    return [row[0] for row in cursor.fetchall()]


def nearest_centroids(cursor, representation: str, vectors: np.ndarray, probes: int) -> list[tuple[int, int, float]]:
    """(query row, centroid, cosine) for the `probes` nearest centroids of each query vector, by HNSW. Equal vectors
    are looked up once: a leaf in the same surroundings gets the same vector, and a question's formulas repeat
    them (a fifth of the development questions' node vectors)."""
    distinct, row_of = np.unique(vectors, axis=0, return_inverse=True)
    cursor.execute("SET LOCAL hnsw.ef_search = %s", [max(40, 2 * probes)])
    cursor.execute(
        "SELECT q.row - 1, c.number, 1 - (c.embedding <=> q.embedding) FROM unnest(%s::halfvec[])"
        " WITH ORDINALITY AS q(embedding, row) CROSS JOIN LATERAL ("
        f" SELECT number, embedding FROM {CENTROID_TABLES[representation]}"
        " ORDER BY embedding <=> q.embedding LIMIT %s) c",
        [[vector_literal(v) for v in distinct], probes])
    found = defaultdict(list)
    for distinct_row, centroid, cosine in cursor.fetchall():
        found[distinct_row].append((centroid, cosine))
    return [(row, centroid, cosine) for row, distinct_row in enumerate(row_of.reshape(-1).tolist())
            for centroid, cosine in found[distinct_row]]


def posting_lists(cursor, representation: str, centroids: list[int], corpora: list[int] | None) -> dict[int, np.ndarray]:
    """Formula ids per centroid (across the given corpora, or all)."""
    corpus_filter = " AND corpus_id = ANY(%s)" if corpora is not None else ""
    select = "SELECT centroid, formula_ids FROM {} WHERE representation = %s AND centroid = ANY(%s)" + corpus_filter
    parameters = [representation, centroids] + ([corpora] if corpora is not None else [])
    cursor.execute(select.format("searchapp_postinglist") + " UNION ALL " + select.format("searchapp_pendingposting"),
                   parameters * 2)
    blobs = defaultdict(list)
    for centroid, data in cursor.fetchall():
        blobs[centroid].append(np.frombuffer(data, dtype=ID_DTYPE))
    return {centroid: np.concatenate(parts) for centroid, parts in blobs.items()}
