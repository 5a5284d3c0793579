"""Actions that start indexing: create a job and enqueue it, store an uploaded file, re-index a corpus."""
from __future__ import annotations

import re
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction

from ml.data.corpus_files import count_records
from searchapp.models import Corpus, IndexJob
from searchapp.tasks import run_index_job


def start_index_job(path: Path, format: str, corpus_name: str, enqueue: bool = True) -> IndexJob:
    """Create the job (counting the file's records) and enqueue it once the row is committed."""
    corpus, _ = Corpus.objects.get_or_create(name=corpus_name)
    job = IndexJob.objects.create(corpus=corpus, path=str(Path(path).resolve()), format=format,
                                  total=count_records(path, format))
    if enqueue:
        transaction.on_commit(lambda: run_index_job.delay(job.pk))
    return job


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


def reindex_corpus(corpus: Corpus, enqueue: bool = True) -> list[IndexJob]:
    """Empty the corpus and index again every file its jobs read that is still on disk."""
    formats = dict(corpus.jobs.order_by("created_at").values_list("path", "format"))
    paths = sorted(path for path in formats if Path(path).exists())  # a file, or a folder of pages
    with transaction.atomic():
        _delete_contents(corpus)
        return [start_index_job(Path(path), formats[path], corpus.name, enqueue) for path in paths]


def _delete_contents(corpus: Corpus) -> None:
    """Everything stored under the corpus (posts, formulas, node vectors, …) except its job history."""
    for relation in Corpus._meta.related_objects:
        if relation.related_model is not IndexJob:
            relation.related_model.objects.filter(**{relation.field.name: corpus}).delete()
