"""Corpora and what they hold beside posts: the documents they were read from (what indexing a folder again
compares with) and BM25's statistics of their words."""
from __future__ import annotations

from django.apps import apps
from django.db import models

NAMED_CORPORA = 10
"""How many corpus names an unknown name's error lists."""


class CorpusQuerySet(models.QuerySet):
    def searchable(self) -> CorpusQuerySet:
        """Corpora with a post stored: what the public menus offer and searches accept. A corpus whose jobs stored
        nothing (an upload of bad records) would answer every search "No formula matched"; its jobs and their errors
        stay on the staff pages."""
        post = apps.get_model("searchapp", "Post")  # by name: its module imports this one
        return self.filter(models.Exists(post.objects.filter(corpus=models.OuterRef("pk"))))

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
