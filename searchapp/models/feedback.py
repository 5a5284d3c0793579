"""What people saw of results (impressions) and said of them (clicks, judgments): what learning and the feedback
boost read."""
from __future__ import annotations

from typing import TypeVar

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone

from ml.retrieval.score_fusion import DEFAULT_FUSION
from searchapp.models.corpora import Corpus
from searchapp.search.query_keys import KEY_CHARS, feedback_key

MAX_K = 1000
"""The most results one search returns: an interleaved impression records a team for each."""


_Rows = TypeVar("_Rows", bound=models.QuerySet)


def _of_person(rows: _Rows, user_id: int | None, session_key: str) -> _Rows:
    """A person's rows: a logged-in user's wherever they were sent from, else those of the session."""
    if user_id is not None:
        return rows.filter(user_id=user_id)
    return rows.filter(user__isnull=True, session_key=session_key) if session_key else rows.none()


LOOKED_AT = ~models.Q(seen=[])
"""An impression someone saw something of (`searchapp.feedback.impressions`)."""


class ImpressionQuerySet(models.QuerySet):
    def of_person(self, user_id: int | None, session_key: str) -> ImpressionQuerySet:
        return _of_person(self, user_id, session_key)

    def looked_at(self) -> ImpressionQuerySet:
        """Pages a person saw something of: their page reported results on screen, or they clicked one (an API
        client's click names its page). Pages only served (API responses, crawlers, scripts) count nothing."""
        return self.filter(LOOKED_AT)


class Impression(models.Model):
    """One page of formula results as it was served, and what its person saw of it: what learning from clicks needs
    to know of what was seen. A click's rank alone cannot say what stood above it, how often a result was seen
    without a click, or which ranker placed it when two were interleaved (`searchapp.live.serving`)."""

    corpus = models.ForeignKey(Corpus, on_delete=models.CASCADE, null=True, blank=True, related_name="impressions",
                               help_text="the corpus searched; empty for a search of all corpora")
    query = models.TextField(help_text="the query as searched, without the spaces around it")
    query_key = models.CharField(max_length=KEY_CHARS, blank=True, db_index=True,
                                 help_text="the query's normalised form (searchapp.search.query_keys)")
    formula_ids = ArrayField(models.BigIntegerField(), help_text="the formulas shown, in order")
    offset = models.PositiveIntegerField(default=0, help_text="results before the first shown (earlier pages)")
    teams = models.CharField(max_length=MAX_K, blank=True,
                             help_text="interleaved lists: the team of each position, a (installed) or b (candidate)")
    candidate = models.CharField(max_length=40, blank=True, help_text="interleaved lists: the candidate ranker's id")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    session_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    seen = ArrayField(models.BigIntegerField(), default=list, blank=True,
                      help_text="the formulas the person's page reported on screen, in page order "
                                "(searchapp.feedback.impressions.record_looks)")

    objects = ImpressionQuerySet.as_manager()

    class Meta:
        indexes = [models.Index(fields=["corpus", "created_at"], name="impression_corpus_time"),
                   models.Index(fields=["candidate"], condition=~models.Q(candidate=""), name="impression_interleaved"),
                   # What people saw is read by query, and the latest of all pages for the position bias: a script's
                   # million pages served and never seen must not slow either down.
                   models.Index(fields=["query_key", "-id"], condition=LOOKED_AT, name="impression_looked_at_key"),
                   models.Index(fields=["-id"], condition=LOOKED_AT, name="impression_looked_at"),
                   # A person's repeat of a page is looked up at every search they make.
                   models.Index(fields=["session_key", "query_key"], condition=~models.Q(session_key=""),
                                name="impression_session_query")]

    def __str__(self) -> str:
        return f"{len(self.formula_ids)} formulas from {self.offset + 1} for {self.query[:40]}"


class FeedbackQuerySet(models.QuerySet):
    def clicks_on(self, pages) -> set[tuple[int, int]]:
        """The (page, formula) clicks made on these logged pages (Impression rows or their ids)."""
        return set(self.filter(kind=Feedback.Kind.CLICK, impression__in=pages).values_list("impression_id", "formula_id"))

    def of_person(self, user_id: int | None, session_key: str) -> FeedbackQuerySet:
        return _of_person(self, user_id, session_key)

    def judgments(self) -> FeedbackQuerySet:
        return self.filter(kind__in=Feedback.JUDGMENTS)

    def chosen(self, user_id: int | None, session_key: str, query: str, *, formulas=(), posts=()) -> dict:
        """{("formula" | "post", id): kind} of this person's judgments on these results of `query`'s meaning (its
        key: the formula's for formulas, the question's for answers, however either was spelled), in one query, so
        a results page shows each result's pressed button."""
        results = models.Q(pk__in=[])
        for field, ids, on_formula in (("formula_id", formulas, True), ("post_id", posts, False)):
            if ids:
                results |= models.Q(**{f"{field}__in": list(ids)}, query_key=feedback_key(query, on_formula))
        rows = self.of_person(user_id, session_key).judgments().filter(results)
        return {("formula", formula) if formula else ("post", post): kind
                for formula, post, kind in rows.values_list("formula_id", "post_id", "kind")}


class Feedback(models.Model):
    """A person's signal on a result, a formula or an answer: a click on it (a log: every click is a row), or an
    explicit relevant / not relevant judgment, of which a person has at most one per query meaning (`query_key`) and
    result, the latest. The person is the logged-in user, else the browser session."""

    class Kind(models.TextChoices):
        CLICK = "click"
        RELEVANT = "relevant"
        NOT_RELEVANT = "not_relevant"

    JUDGMENTS = (Kind.RELEVANT, Kind.NOT_RELEVANT)

    query = models.TextField(help_text="the query as searched, without the spaces around it")
    query_key = models.CharField(max_length=KEY_CHARS, blank=True,
                                 help_text="the query's normalised form (searchapp.search.query_keys), which equivalent "
                                           "queries share: a search reads its results' feedback by it")
    formula = models.ForeignKey("Formula", on_delete=models.CASCADE, null=True, blank=True, related_name="feedback")
    post = models.ForeignKey("Post", on_delete=models.CASCADE, null=True, blank=True, related_name="feedback")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    rank = models.PositiveIntegerField()
    fusion = models.CharField(max_length=20, default=DEFAULT_FUSION,
                              help_text="what ordered the results: a formula search's order, a question's mode")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="feedback")
    session_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now, help_text="when the signal, or the judgment now held, was sent")
    impression = models.ForeignKey(Impression, on_delete=models.SET_NULL, null=True, blank=True, related_name="clicks",
                                   help_text="a click: the results page it was made on, when the client said")

    objects = FeedbackQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["query", "kind"]), models.Index(fields=["query_key"], name="feedback_query_key")]
        constraints = [
            models.CheckConstraint(name="feedback_on_a_formula_or_a_post",
                                   condition=models.Q(formula__isnull=False, post__isnull=True)
                                   | models.Q(formula__isnull=True, post__isnull=False)),
            # One judgment per person, query meaning (its key: two spellings of a formula are one) and result;
            # NULLS NOT DISTINCT makes the empty formula (or post) of the other kind of result equal, so one
            # constraint covers both.
            models.UniqueConstraint(fields=["user", "query_key", "formula", "post"], nulls_distinct=False,
                                    condition=models.Q(kind__in=["relevant", "not_relevant"], user__isnull=False),
                                    name="one_judgment_per_user_and_key"),
            models.UniqueConstraint(fields=["session_key", "query_key", "formula", "post"], nulls_distinct=False,
                                    condition=models.Q(kind__in=["relevant", "not_relevant"], user__isnull=True),
                                    name="one_judgment_per_session_and_key"),
        ]

    def __str__(self) -> str:
        target = f"formula {self.formula_id}" if self.formula_id else f"post {self.post_id}"
        return f"{self.kind} {target} for {self.query[:40]}"

    def save(self, *args, **kwargs):
        """Keys the query when the row is first written, whoever writes it (bulk_create skips this: key those)."""
        if not self.query_key:
            self.query_key = feedback_key(self.query, on_formula=self.formula_id is not None)
        super().save(*args, **kwargs)
