"""Visually distinct formulas with their occurrences in posts, and the read verb over them,
`Formula.objects.search` (composed in `searchapp.search.formula_search`)."""
from __future__ import annotations

import numpy as np
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from pgvector.django import HalfVectorField

from ml.text import TEXT_DIM
from searchapp.models.corpora import Corpus
from searchapp.search import formula_search
from searchapp.search.candidates import PROBES, SHORTLIST_SIZE
from searchapp.search.context import CONTEXT_WEIGHT
from searchapp.search.query import Query, stored_query
from searchapp.search.ranking import DEFAULT_ORDER, Interleave
from searchapp.search.results import SearchHit, SearchResults
from searchapp.sql import id_array
from searchapp.vectors import decode_matrix


class FormulaQuerySet(models.QuerySet):
    def copies_of(self, formula: Formula) -> FormulaQuerySet:
        """The same formula in other corpora (the same visual key), with their corpus."""
        return self.filter(visual_key=formula.visual_key).exclude(pk=formula.pk).select_related("corpus") \
            .defer("slg_matrix", "opg_matrix", "structure").order_by("corpus__name")

    def search(self, query: Query | str, k: int = 10, offset: int = 0, fusion: str = DEFAULT_ORDER, corpus: str | None = None,
               probes: int = PROBES, shortlist_size: int = SHORTLIST_SIZE, context: str = "",
               context_weight: float = CONTEXT_WEIGHT, interleave: Interleave | None = None,
               explore: int = 0) -> SearchResults:
        """The `k` formulas of this queryset most similar to `query` (a string is read as LaTeX with `corpus`'s
        macros) after `offset`, ordered by `fusion`, with the words of `context`, interleaved with a candidate ranker
        or exploring `explore` places, and moved by what people said of them: `searchapp.search.formula_search`."""
        return formula_search.search(self, query, k=k, offset=offset, fusion=fusion, corpus=corpus, probes=probes,
                                     shortlist_size=shortlist_size, context=context, context_weight=context_weight,
                                     interleave=interleave, explore=explore)

    def nearest_to(self, formula: Formula, k: int = 10) -> list[SearchHit]:
        """The formula's nearest formulas by the search itself, from its stored vectors (itself excluded, in every
        corpus: its page names the corpora that hold it too)."""
        return self.exclude(visual_key=formula.visual_key).search(stored_query(formula), k=k).hits


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
