"""Staff pages inside the admin: corpus upload, a job's live progress, feedback grouped by query, rankers.

Each is wrapped by `admin_site.admin_view` in `searchapp.admin`, which enforces staff login.
"""
from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from ml.evaluation.metrics import METRIC_LABELS
from searchapp.feedback.qrels import query_id
from searchapp.health import BrokerUnavailable
from searchapp.indexing.actions import index_upload
from searchapp.indexing.jobs import cancel_jobs
from searchapp.indexing.queues import place_in_queue
from searchapp.live.ranker_history import HISTORY_KEPT, under_test, without_it
from searchapp.models import Corpus, CorpusRanker, Feedback, IndexJob
from searchapp.web.forms import UploadForm
from searchapp.web.history_svg import history_chart


def upload(request: HttpRequest) -> HttpResponse:
    """A body past the limit never reaches this view (`searchapp.web.body_limits`); the form checks the file."""
    form, refusal, status = UploadForm(), "", 200
    limit = settings.MATHSEARCH_MAX_UPLOAD_BYTES
    if request.method == "POST":
        form, status = UploadForm(request.POST, request.FILES), 400
        if form.is_valid():
            try:
                job = index_upload(form.cleaned_data["file"], form.cleaned_data["format"], form.cleaned_data["corpus"])
                return redirect("admin:searchapp_indexjob_live", job.pk)
            except BrokerUnavailable as error:
                refusal, status = f"Indexing cannot start: {error}.", 503
    context = {**admin.site.each_context(request), "title": "Upload a corpus", "form": form, "refusal": refusal,
               "limit": limit, "formats": IndexJob.formats(), "recent": IndexJob.objects.select_related("corpus")[:10]}
    return render(request, "admin/searchapp/upload.html", context, status=status)


def live(request: HttpRequest, pk: int) -> HttpResponse:
    """The job's progress, and a button that cancels it while it may still run, for staff who may change jobs."""
    job = get_object_or_404(IndexJob.objects.select_related("corpus"), pk=pk)
    progress = job_progress(job)
    context = {**admin.site.each_context(request), "title": f"Indexing job {job.pk}", "job": job, "progress": progress,
               "can_cancel": not progress["finished"] and request.user.has_perm("searchapp.change_indexjob")}
    return render(request, "admin/searchapp/job_live.html", context)


@require_POST
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel the job (`jobs.cancel_jobs`), then show its page again, which says how it ended."""
    job = get_object_or_404(IndexJob, pk=pk)
    if cancel_jobs(IndexJob.objects.filter(pk=job.pk), by=request.user.get_username()):
        messages.success(request, f"Job {job.pk} is cancelled: it stores nothing more, and what it stored stays.")
    else:
        job.refresh_from_db()
        messages.warning(request, f"Job {job.pk} had already ended ({job.state}): there was nothing to cancel.")
    return redirect("admin:searchapp_indexjob_live", job.pk)


def progress(request: HttpRequest, pk: int) -> JsonResponse:
    job = get_object_or_404(IndexJob.objects.select_related("corpus"), pk=pk)
    return JsonResponse(job_progress(job))


def feedback_by_query(request: HttpRequest) -> HttpResponse:
    """One row per query: how many relevant / not relevant judgments (one per person and result) and clicks it
    received, on how many formulas and answers."""
    rows = (Feedback.objects.values("query")
            .annotate(relevant=Count("id", filter=Q(kind=Feedback.Kind.RELEVANT)),
                      not_relevant=Count("id", filter=Q(kind=Feedback.Kind.NOT_RELEVANT)),
                      clicks=Count("id", filter=Q(kind=Feedback.Kind.CLICK)),
                      formulas=Count("formula", distinct=True), answers=Count("post", distinct=True),
                      last=Max("created_at"))
            .order_by("-last"))
    queries = [{**row, "query_id": query_id(row["query"])} for row in rows[:500]]
    context = {**admin.site.each_context(request), "title": "Feedback per query", "queries": queries}
    return render(request, "admin/searchapp/feedback_by_query.html", context)


def rankers(request: HttpRequest) -> HttpResponse:
    """Per corpus: its judgments, the ranker its searches use, each training's metrics before and after, the
    candidate under test with its interleaving so far, and the decisions on earlier candidates."""
    # Rankers order formulas: judgments of answers do not train them, so they are not counted here.
    on_formulas = Feedback.objects.filter(formula__isnull=False)
    counts = {row["formula__corpus__name"]: row for row in on_formulas.values("formula__corpus__name").annotate(
        relevant=Count("id", filter=Q(kind=Feedback.Kind.RELEVANT)),
        not_relevant=Count("id", filter=Q(kind=Feedback.Kind.NOT_RELEVANT)),
        clicks=Count("id", filter=Q(kind=Feedback.Kind.CLICK)), queries=Count("query", distinct=True))}
    corpora: list[dict] = []
    for corpus in Corpus.objects.order_by("name"):
        history = CorpusRanker.objects.history(corpus.name)[-HISTORY_KEPT:]
        in_use = RANKER_SOURCES[CorpusRanker.objects.source(corpus.name)[0]]
        testing = under_test(corpus.name)
        corpora.append({"name": corpus.name, "counts": counts.get(corpus.name, {}), "in_use": in_use,
                        "history": [{**entry, "at": _when(entry.get("at")), "kept": without_it(entry)[0]}
                                    for entry in reversed(history)],
                        "under_test": testing,
                        "under_test_since": testing and _when(testing.training.get("at")),
                        "decisions": [{**entry, "at": _when(entry.get("at"))}
                                      for entry in reversed(CorpusRanker.objects.decisions(corpus.name))],
                        "charts": [history_chart(history, metric, METRIC_LABELS[metric]) for metric in CHARTED]})
    context = {**admin.site.each_context(request), "title": "Rankers per corpus", "corpora": corpora}
    return render(request, "admin/searchapp/rankers.html", context)


def _when(stamp) -> str:
    """A training's ISO time as the table shows it ("2026-11-26 09:02 UTC"); as written if it is not one."""
    try:
        return datetime.datetime.fromisoformat(stamp).astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (TypeError, ValueError):
        return str(stamp or "")


CHARTED = ("map_prime", "p10_prime")
RANKER_SOURCES = {"corpus": "its own ranker, trained on its feedback", "shipped": "the shipped ranker (models/ranker)",
                  "none": "dense fusion: no ranker is trained"}


def job_progress(job: IndexJob) -> dict:
    """What the live progress bar shows: counts, rate, ETA, a one-line summary of them, and the kept per-record
    errors. A file of records is counted first (`total` is None until then); a documents upload is measured in
    the files and bytes of its listing, known from the start."""
    documents = job.files_total is not None
    indexing = (job.seconds or 0.0) - job.timings.get("count", 0.0)
    done, total = job.work
    rate = done / indexing if indexing > 0 else 0.0
    running = job.state == IndexJob.State.RUNNING
    eta = max(total - done, 0) / rate if rate > 0 and running and total is not None else None
    progress = {
        "id": job.pk, "corpus": job.corpus.name, "state": job.state, "format": job.format,
        "total": job.total, "counted": job.counted, "processed": job.cursor, "done": job.done, "failed": job.failed,
        "formulas_added": job.formulas_added, "formula_errors": job.formula_errors,
        "files_total": job.files_total, "files_read": job.files_read, "unchanged": job.unchanged,
        "removed": job.removed,
        # with nothing to count, a done job is whole; a cancelled or failed one got nowhere
        "percent": round(100 * done / total, 1) if total else (100.0 if job.state == IndexJob.State.DONE else 0.0),
        "rate_per_s": round(rate, 1), "eta_s": None if eta is None else round(eta, 1),
        "elapsed_s": round(job.seconds or 0.0, 1), "message": job.message, "errors": job.errors, "timings": job.timings,
        "unit": job.record_unit, "errors_total": job.failed + job.formula_errors,
        "finished": job.state not in IndexJob.UNFINISHED,
    }
    if job.state == IndexJob.State.PENDING:
        progress["summary"] = _waiting(job)
    else:
        progress["summary"] = _documents_summary(job, indexing, eta) if documents else _records_summary(job, rate, eta)
    return progress


def _waiting(job: IndexJob) -> str:
    """Where a pending job stands: "waiting: 1 job ahead, about 12 min" (its queue: `searchapp.indexing.queues`)."""
    ahead, seconds = place_in_queue(job)
    if not ahead:
        return "waiting for a worker to start it"
    jobs = "1 job" if ahead == 1 else f"{ahead} jobs"
    return f"waiting: {jobs} ahead" + ("" if seconds is None else f", about {_duration(seconds)}")


def _records_summary(job: IndexJob, rate: float, eta: float | None) -> str:
    if job.total is None:
        return "no records counted" if job.finished_at else f"counting records… {job.counted} so far"
    return (f"{job.cursor} / {job.total} records ({job.done} indexed, {job.failed} failed, {job.formulas_added} new "
            f"formulas, {job.formula_errors} formula errors) · {rate:.1f} records/s{_eta(eta)}")


def _documents_summary(job: IndexJob, seconds: float, eta: float | None) -> str:
    kept = f" · {job.unchanged} documents unchanged" if job.unchanged else ""
    removed = f" · {job.removed} removed" if job.removed else ""
    rate = f" · {60 * job.files_read / seconds:.0f} files/min" if seconds > 0 and job.files_read else ""
    return (f"{job.files_read} / {job.files_total} files read ({_megabytes(job.bytes_read)} of "
            f"{_megabytes(job.bytes_total)}) · {job.done} sections indexed, {job.failed} failed, {job.formulas_added} "
            f"new formulas, {job.formula_errors} formula errors{kept}{removed}{rate}{_eta(eta)}")


def _megabytes(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 100_000 else f"{count / 1e3:.0f} KB"


def _eta(seconds: float | None) -> str:
    return "" if seconds is None else f" · ETA {_duration(seconds)}"


def _duration(seconds: float) -> str:
    """`45 s`, `12 min 5 s`, `3 h 20 min`: what a person reads at a glance."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s" if seconds % 60 else f"{seconds // 60} min"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"
