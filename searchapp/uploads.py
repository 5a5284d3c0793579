"""Corpus uploads and maintenance: store an uploaded file, re-index a corpus, report a job's progress."""
from __future__ import annotations

import re
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from searchapp.indexing import start_index_job
from searchapp.models import Corpus, IndexJob


def save_upload(uploaded) -> Path:
    """Copy an uploaded (size-checked) file to the upload folder chunk by chunk; return its path."""
    folder = Path(settings.MATHSEARCH_UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    safe_name = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(uploaded.name).name)[-100:] or "upload"
    path = folder / f"{uuid.uuid4().hex[:12]}-{safe_name}"
    with open(path, "wb") as handle:
        for chunk in uploaded.chunks():
            handle.write(chunk)
    return path


def reindex_corpus(corpus: Corpus) -> list[IndexJob]:
    """Empty the corpus and index again every file its jobs read that is still on disk."""
    formats = dict(corpus.jobs.order_by("created_at").values_list("path", "format"))
    paths = sorted(path for path in formats if Path(path).is_file())
    with transaction.atomic():
        _delete_contents(corpus)
        return [start_index_job(Path(path), formats[path], corpus.name) for path in paths]


def _delete_contents(corpus: Corpus) -> None:
    """Everything stored under the corpus (posts, formulas, node vectors, …) except its job history."""
    for relation in Corpus._meta.related_objects:
        if relation.related_model is not IndexJob:
            relation.related_model.objects.filter(**{relation.field.name: corpus}).delete()


def job_progress(job: IndexJob) -> dict:
    """What the live progress bar shows: counts, rate since start, ETA, and the kept per-record errors."""
    elapsed = ((job.finished_at or timezone.now()) - job.started_at).total_seconds() if job.started_at else 0.0
    rate = job.cursor / elapsed if elapsed > 0 else 0.0
    remaining = max(job.total - job.cursor, 0)
    eta = remaining / rate if rate > 0 and job.state == IndexJob.State.RUNNING else None
    return {
        "id": job.pk, "corpus": job.corpus.name, "state": job.state, "format": job.format,
        "total": job.total, "processed": job.cursor, "done": job.done, "failed": job.failed,
        "formulas_added": job.formulas_added, "formula_errors": job.formula_errors,
        "percent": round(100 * job.cursor / job.total, 1) if job.total else (100.0 if job.finished_at else 0.0),
        "rate_per_s": round(rate, 1), "eta_s": None if eta is None else round(eta, 1),
        "elapsed_s": round(elapsed, 1), "message": job.message, "errors": job.errors, "timings": job.timings,
        "finished": job.state in (IndexJob.State.DONE, IndexJob.State.FAILED),
    }
