"""The first stage's tables: the model's node-vector codebook and, per corpus, the formulas assigned to each of its
centroids (posting lists)."""
from __future__ import annotations

from django.db import models
from pgvector.django import HalfVectorField, HnswIndex

from searchapp.models.corpora import Corpus
from searchapp.vectors import VECTOR_DIM


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
