"""A query, parsed and embedded once: every later stage of a search reads this one object.

A query comes from text in one of the notations (`mathparse.NOTATIONS`) or from a stored formula,
whose node vectors and labels are already in its row (a formula page's neighbours need no parsing).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from corpora.documents.notation import OtherDefinitions, readings
from mathparse import FormulaGraphs, ParseError, parse
from mathparse.query_variables import for_embedding
from mathparse.tree import is_query_variable
from mathparse.unicode_math import from_unicode
from ml.retrieval.structure import structure_terms, unpack_terms
from searchapp.embedding import embed_graphs, node_labels
from searchapp.vectors import as_stored, decode_matrix

TREES = {"slg": "slt", "opg": "opt"}
"""The tree whose labels name each representation's rows."""
Macros = Mapping[str, dict[str, Any]]
"""A corpus's macros: name → `corpora.documents.latex_macros.Macro.to_json()`."""
MAX_QUERY_CHARS = 5000
MAX_QUERY_NODES = 168
"""Three times the largest of the 485 ARQMath 2020-2022 Task 2 topic queries (56 SLT nodes, B.26). Search cost grows
with the query's nodes (each probes the codebook and is scored against every candidate node), so a 5,000-character
query of 5,000 nodes took 2.3 s against 492 formulas; characters alone do not bound it, `x+x+…` is one node each."""


@dataclass(frozen=True)
class Query:
    text: str
    notation: str
    vectors: dict[str, np.ndarray]
    """{"slg": (n_slt, d), "opg": (n_opt, d)} unit node vectors, in tree pre-order."""
    labels: dict[str, list[str] | None]
    """{"slt": [...], "opt": [...] or None}: node labels in the vectors' row order."""
    terms: np.ndarray
    """Sorted int32 structure terms (`ml.retrieval.structure`)."""
    graphs: FormulaGraphs | None = None
    """The parsed trees, for a query given as text (drawn on the results page)."""
    macros: tuple[str, ...] = ()
    """The corpus's macros `text` was read with (`parse_query`'s `macros`), expanded before parsing; `text` stays as
    typed, as the logs and people's feedback name the query."""
    latex_from_unicode: str = ""
    """The LaTeX that LaTeX `text` written with Unicode math (`x²`, `∑`, `ℝ`) was read as
    (`mathparse.unicode_math`); "" when it has none."""
    parts: tuple[Query, ...] = ()
    """For a formula over MAX_QUERY_NODES, its largest parts that fit, searched in its place
    (`searchapp.search.long_queries`); it has no vectors of its own then."""
    readings: tuple[Query, ...] = ()
    """Its other readings in its corpus's notation, where the documents define a macro it writes in more than one
    way, searched beside it (`searchapp.search.readings`)."""

    @cached_property
    def variables(self) -> dict[str, int]:
        """Per representation, how many of its rows are query variables: each matches anything."""
        return {representation: int(rows.sum()) for representation, rows in self._variable_rows.items()}

    @cached_property
    def free_vectors(self) -> dict[str, np.ndarray]:
        """The rows that must find a match: all but the query variables'."""
        return {representation: matrix[~self._variable_rows[representation]]
                for representation, matrix in self.vectors.items()}

    @cached_property
    def _variable_rows(self) -> dict[str, np.ndarray]:
        """Per representation, which rows are query variables: read once, however often a search scores."""
        found = {}
        for representation, matrix in self.vectors.items():
            labels = self.labels.get(TREES[representation])
            found[representation] = (np.zeros(len(matrix), dtype=bool) if labels is None or len(labels) != len(matrix)
                                     else np.array([is_query_variable(label) for label in labels], dtype=bool))
        return found


def parse_query(text: str, notation: str = "latex", macros: Macros | None = None,
                others: OtherDefinitions | None = None) -> Query:
    """Raises `mathparse.ParseError` for text that cannot be read in `notation`, or (kind `too_large`) whose tree
    has more than MAX_QUERY_NODES nodes: refused after parsing, before the costly embedding and search (the search
    page and the API search its parts instead: `searchapp.search.long_queries`).

    LaTeX is read with the `macros` it writes expanded (a corpus's: `searchapp.search.notation`), and, where the
    corpus's documents define one of them in `others` ways too, in each of those that fits it (its `readings`); an
    expansion that cannot be parsed is parsed as typed, so an error points into what was typed."""
    first, *other = _embedded(_readings(text, notation, macros, others), notation)
    return replace(first, readings=tuple(other)) if other else first


def parse_queries(texts: list[str], notation: str = "latex",
                  macros: Macros | None = None) -> tuple[list[Query], list[tuple[str, ParseError]]]:
    """Several queries embedded in one batch (a question's formulas), each read with the `macros`' first reading:
    those read, and each other text with its error."""
    parsed, failed = [], []
    for text in texts:
        try:
            parsed.append(_readings(text, notation, macros)[0])
        except ParseError as error:
            failed.append((text, error))
    return _embedded(parsed, notation), failed


def read_graphs(text: str, notation: str, macros: Macros | None) -> tuple[FormulaGraphs, list[str]]:
    """The graphs of a query of any size (`searchapp.search.long_queries` cuts one too large to search), and the
    macros expanded to read it."""
    _, graphs, names = _readings(text, notation, macros, bounded=False)[0]
    return graphs, names


def _readings(text: str, notation: str, macros: Macros | None, others: OtherDefinitions | None = None,
              bounded: bool = True) -> list[tuple[str, FormulaGraphs, list[str]]]:
    """The text, its graphs and the macros expanded to read it, for each reading that can be parsed; the text
    parsed as typed when none can."""
    parsed = []
    if macros and notation == "latex":
        for expanded, names in readings(text, macros, others or {}):
            if names:
                try:
                    parsed.append((text, _parsed(expanded, notation, bounded), names))
                except ParseError:
                    pass
    return parsed or [(text, _parsed(text, notation, bounded), [])]


def _parsed(text: str, notation: str, bounded: bool) -> FormulaGraphs:
    graphs = parse(text, notation, query=True)
    if bounded and len(graphs.slt) > MAX_QUERY_NODES:
        raise ParseError(f"the formula has {len(graphs.slt)} symbols; a search compares at most {MAX_QUERY_NODES}",
                         None, "too_large")
    if all(is_query_variable(label) for label in graphs.slt.labels):
        raise ParseError(r"the query is only query variables (\qvar), which match every formula: write what "
                         "surrounds them", None, "only_variables")
    return graphs


def _embedded(parsed: list[tuple[str, FormulaGraphs, list[str]]], notation: str) -> list[Query]:
    vectors = [{representation: as_stored(matrix) for representation, matrix in formula.items()}
               for formula in embed_graphs([for_embedding(graphs) for _, graphs, _ in parsed])]
    return [Query(text, notation, formula_vectors, node_labels(graphs), structure_terms(graphs.slt, graphs.opt), graphs,
                  tuple(macros), latex_from_unicode(text, notation))
            for (text, graphs, macros), formula_vectors in zip(parsed, vectors)]


def latex_from_unicode(text: str, notation: str) -> str:
    """The LaTeX a LaTeX query's Unicode math reads as (the parser reads it so: `mathparse.parse`), "" for none."""
    if notation != "latex":
        return ""
    reading = from_unicode(text)
    return reading.latex if reading.changed else ""


def stored_query(formula) -> Query:
    """The query of a stored `Formula` row: no parsing, no embedding."""
    return Query(formula.latex, formula.notation, {"slg": decode_matrix(formula.slg_matrix),
                                                   "opg": decode_matrix(formula.opg_matrix)},
                 formula.node_labels, unpack_terms(formula.structure))
