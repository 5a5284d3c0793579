"""Posts (a question, an answer, a document's section) and the read verb over them, `Post.objects.search`, which
answers a question by words and formulas (composed in `searchapp.search.question_search`)."""
from __future__ import annotations

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import GeneratedField
from django.urls import reverse
from pgvector.django import CosineDistance, HalfVectorField, HnswIndex

from ml.retrieval.post_scores import DEFAULT_FORMULA_WEIGHT
from ml.text import TEXT_DIM
from searchapp.models.corpora import Corpus, SourceDocument
from searchapp.search import question_search
from searchapp.search.questions import DEFAULT_MODE, Question
from searchapp.search.results import PostResults

RELATED_POSTS = 5
"""Related threads a post's page lists."""


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

    def search(self, question: Question | str, k: int = 10, offset: int = 0, mode: str = DEFAULT_MODE,
               corpus: str | None = None, weight: float = DEFAULT_FORMULA_WEIGHT) -> PostResults:
        """The `k` answers of this queryset after `offset` that best answer `question` (text with `$…$` formulas, read
        with `corpus`'s macros), by words and formulas combined as `mode` says: `searchapp.search.question_search`."""
        return question_search.search(self, question, k=k, offset=offset, mode=mode, corpus=corpus, weight=weight)


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
