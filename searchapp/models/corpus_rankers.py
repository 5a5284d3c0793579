"""A corpus's rankers as rows; `searchapp.rankers` (their QuerySet) is the one reader and writer of them."""
from __future__ import annotations

from django.db import models

from searchapp.models.corpora import Corpus
from searchapp.rankers import CorpusRankerQuerySet, RankerState


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
