"""Storage: corpora and their posts (formulas, node vectors and jobs are added by the index layer)."""
from django.db import models


class Corpus(models.Model):
    name = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "corpora"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Post(models.Model):
    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, related_name="posts")
    source_id = models.CharField(max_length=200, help_text="The post's id in its source file.")
    title = models.CharField(max_length=500, blank=True)
    body = models.TextField(blank=True)
    url = models.URLField(max_length=1000, blank=True)
    tags = models.JSONField(default=list, blank=True)
    date = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["corpus", "id"]
        constraints = [
            models.UniqueConstraint(fields=["corpus", "source_id"], name="post_unique_source_id"),
        ]

    def __str__(self) -> str:
        return self.title or self.source_id
