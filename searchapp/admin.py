from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.auth.decorators import permission_required
from django.db import models
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.html import format_html

from searchapp.health import BrokerUnavailable
from searchapp.indexing.actions import reindex_corpus
from searchapp.indexing.jobs import CorporaBusy, cancel_jobs, delete_corpora
from searchapp.live.ranker_history import without_it
from searchapp.models import Corpus, CorpusRanker, Feedback, IndexJob, Post
from searchapp.web import admin_views


def staff_page(model_admin: admin.ModelAdmin, permission: str, view):
    """A staff page that asks for a model permission (`view_feedback`, …) as the admin's own model pages do: a staff
    account without it gets 403, not every user's queries or a job's per-record errors."""
    return model_admin.admin_site.admin_view(permission_required(f"searchapp.{permission}", raise_exception=True)(view))


class CorpusRankerInline(admin.TabularInline):
    """The corpus's ranker history, newest first: what each training measured and what became of it. The learning
    loop writes it (`searchapp.rankers`); here it is only read."""

    model = CorpusRanker
    verbose_name = "ranker trained on its feedback"
    fields = ("trained_at", "state", "candidate", "queries", "map_prime", "p10_prime", "decided")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-trained_at", "-pk")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="judged queries")
    def queries(self, ranker):
        return ranker.training.get("queries")

    @admin.display(description="MAP′ before → after")
    def map_prime(self, ranker):
        return _before_after(ranker.training, "map_prime")

    @admin.display(description="P′@10 before → after")
    def p10_prime(self, ranker):
        return _before_after(ranker.training, "p10_prime")

    @admin.display(description="interleaving's decision")
    def decided(self, ranker):
        decision = ranker.decision
        if not decision:
            return "–"
        return f"{decision['why']} ({decision['wins']} wins, {decision['losses']} losses, {decision['ties']} ties)"


def _before_after(training: dict, metric: str) -> str:
    """`0.412 → 0.455`: what the corpus's judged queries got without it (`without_it`), then with it
    (cross-validated)."""
    return f"{without_it(training)[1][metric]:.3f} → {training['after'][metric]:.3f}"


@admin.register(Corpus)
class CorpusAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")
    search_fields = ("name",)
    actions = ["reindex"]
    inlines = [CorpusRankerInline]

    def get_readonly_fields(self, request, obj=None):
        """A corpus keeps its name: searches and uploads go by it."""
        return ("name",) if obj is not None else ()

    @admin.action(description="Re-index selected corpora from their uploaded files", permissions=["change"])
    def reindex(self, request, queryset):
        """Asks first, naming what will be deleted: re-indexing empties the corpus, so its formulas get new ids
        and the feedback on them goes with them."""
        if request.POST.get("confirm") != "yes":
            return render(request, "admin/searchapp/reindex_confirm.html", {
                **self.admin_site.each_context(request), "title": "Re-index corpora?", "corpora": [
                    {"corpus": corpus, "formulas": corpus.formulas.count(), "posts": corpus.posts.count(),
                     "feedback": Feedback.objects.filter(
                         models.Q(formula__corpus=corpus) | models.Q(post__corpus=corpus)).count(),
                     "files": corpus.jobs.values("path").distinct().count()} for corpus in queryset]})
        for corpus in queryset:
            try:
                jobs = reindex_corpus(corpus)
            except BrokerUnavailable as error:
                self.message_user(request, f"{corpus} was not re-indexed: {error}", messages.ERROR)
                return
            level = messages.SUCCESS if jobs else messages.WARNING
            self.message_user(request, f"{corpus}: {len(jobs)} indexing job(s) started"
                              + ("" if jobs else " — none of its files is still on disk"), level)

    def delete_view(self, request, object_id, extra_context=None):
        """A confirmed deletion (a POST) cancels the corpus's jobs first, committed before the admin's transaction
        that deletes it begins: their runners see the cancel only then."""
        corpus = self.get_object(request, unquote(object_id)) if request.POST else None
        if corpus is not None and self.has_delete_permission(request, corpus):
            self._cancel_jobs(request, [corpus])
        return self._unless_busy(request, super().delete_view, object_id, extra_context)

    def changelist_view(self, request, extra_context=None):
        """Where "Delete selected corpora" runs (`delete_queryset`)."""
        return self._unless_busy(request, super().changelist_view, extra_context)

    def delete_model(self, request, corpus):
        delete_corpora([corpus])

    def delete_queryset(self, request, queryset):
        """Outside any transaction (Django's bulk delete opens none), so the cancel reaches the runners at once."""
        corpora = list(queryset)
        self._cancel_jobs(request, corpora)
        delete_corpora(corpora)

    def _cancel_jobs(self, request, corpora: list[Corpus]) -> None:
        cancelled = cancel_jobs(IndexJob.objects.filter(corpus__in=corpora), by=request.user.get_username())
        if cancelled:
            jobs = f"indexing job {cancelled[0]} was" if len(cancelled) == 1 else \
                f"indexing jobs {', '.join(map(str, cancelled))} were"
            self.message_user(request, f"The {jobs} still to run: cancelled first.", messages.WARNING)

    def _unless_busy(self, request, view, *args):
        """`view`'s answer, or the page again saying why nothing was deleted (`CorporaBusy`), not a 503 after 35 s."""
        try:
            return view(request, *args)
        except CorporaBusy as busy:
            self.message_user(request, f"Nothing was deleted: {busy}. Try again in a moment.", messages.ERROR)
            return redirect(request.get_full_path())

    def get_deleted_objects(self, objs, request):
        """Row counts per model instead of Django's list of every related row (millions for a big corpus).

        Deleting a corpus means deleting what it holds, so no per-model permission is asked for.
        """
        corpora = list(objs)
        counts = {relation.related_model._meta.verbose_name_plural:
                  relation.related_model._default_manager.filter(**{f"{relation.field.name}__in": corpora}).count()
                  for relation in Corpus._meta.related_objects}
        return [str(corpus) for corpus in corpora], counts, set(), []


@admin.register(Post)
class PostAdmin(admin.ModelAdmin):
    """Posts to look up, not to edit: a post changed here would keep its old text vectors and formulas, and one
    added here would have none. They change by re-indexing their corpus; "View on site" opens the post's page."""

    list_display = ("display_title", "corpus", "source_id")
    list_select_related = ("corpus", "parent")
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}  # Django 6's default, without its warning
    list_filter = ("corpus",)
    search_fields = ("title", "parent__title", "source_id")

    @admin.display(description="title", ordering="title")
    def display_title(self, post):
        return post.display_title

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(IndexJob)
class IndexJobAdmin(admin.ModelAdmin):
    """Job history; new jobs come from the upload page (or `manage.py index_corpus`)."""

    list_display = ("id", "corpus", "format", "state", "progress", "formulas_added", "failed", "rate", "stage_times",
                    "created_at", "finished_at", "live_link")
    list_filter = ("state", "format", "corpus")
    readonly_fields = [field.name for field in IndexJob._meta.fields] + ["rate", "stage_times"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="processed")
    def progress(self, job):
        return job.progress

    @admin.display(description="formulas/s")
    def rate(self, job):
        return f"{job.formulas_per_second:.0f}" if job.formulas_per_second and job.formulas_added else "–"

    @admin.display(description="seconds per stage")
    def stage_times(self, job):
        """Where the job's time went (parse, embed, store, …): what to look at when indexing is slow."""
        return " · ".join(f"{stage} {seconds:.0f}" for stage, seconds in
                          sorted(job.timings.items(), key=lambda item: -item[1]) if seconds >= 0.5) or "–"

    @admin.display(description="live")
    def live_link(self, job):
        return format_html('<a href="{}">progress</a>', reverse("admin:searchapp_indexjob_live", args=[job.pk]))

    def get_urls(self):
        return [
            path("upload/", staff_page(self, "add_indexjob", admin_views.upload), name="searchapp_indexjob_upload"),
            path("<int:pk>/live/", staff_page(self, "view_indexjob", admin_views.live), name="searchapp_indexjob_live"),
            path("<int:pk>/progress.json", staff_page(self, "view_indexjob", admin_views.progress),
                 name="searchapp_indexjob_progress"),
            path("<int:pk>/cancel/", staff_page(self, "change_indexjob", admin_views.cancel),
                 name="searchapp_indexjob_cancel"),
        ] + super().get_urls()


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ("query", "formula", "post", "kind", "rank", "fusion", "user", "session_key", "created_at")
    list_filter = ("kind", "fusion")
    search_fields = ("query",)
    list_select_related = ("formula", "post", "user")
    readonly_fields = [field.name for field in Feedback._meta.fields]

    def has_add_permission(self, request):
        return False

    def get_urls(self):
        return [
            path("by-query/", staff_page(self, "view_feedback", admin_views.feedback_by_query),
                 name="searchapp_feedback_by_query"),
            path("rankers/", staff_page(self, "view_feedback", admin_views.rankers), name="searchapp_feedback_rankers"),
        ] + super().get_urls()
