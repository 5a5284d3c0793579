"""Actions that start indexing: create a job and enqueue it, index an uploaded file, re-index a corpus."""
from __future__ import annotations

from pathlib import Path

from django.db import transaction

from searchapp.health import require_broker
from searchapp.indexing.queues import queue_for
from searchapp.indexing.uploads import release_upload, save_upload
from searchapp.models import Corpus, IndexJob
from searchapp.tasks import run_index_job


def start_index_job(path: Path, format: str, corpus_name: str, enqueue: bool = True, origin: str = "") -> IndexJob:
    """Create the job and enqueue it once the row is committed; the file is not read here: the job counts and
    checks it in the worker (counting five 19 MB pages held an upload's request for a minute).

    The documents of a `documents` job are kept in sync with what was indexed before from the same `origin`
    (by default its path): unchanged ones are skipped, changed ones replaced, those gone removed.
    With `enqueue`, raises BrokerUnavailable and saves nothing when the broker is down. A small upload goes to a
    queue of its own (`queues`), so that it never waits behind a big one.
    """
    if enqueue:
        require_broker()
    corpus, _ = Corpus.objects.get_or_create(name=corpus_name)
    resolved = str(Path(path).resolve())
    job = IndexJob.objects.create(corpus=corpus, path=resolved, format=format, origin=origin or resolved)
    if enqueue:
        transaction.on_commit(lambda: run_index_job.apply_async([job.pk], queue=queue_for(resolved)))
    return job


def index_upload(uploaded, format: str, corpus_name: str) -> IndexJob:
    """Store an uploaded file and start its job; if the job cannot start (the broker is down, say), the file
    goes again unless a job was saved to read it. Documents uploaded again under the same name replace those of
    the earlier upload (kept in sync with its origin, `upload:NAME`)."""
    path = save_upload(uploaded)
    try:
        return start_index_job(path, format, corpus_name, origin=f"upload:{path.name}")
    except Exception:
        release_upload(path)
        raise


def reindex_corpus(corpus: Corpus, enqueue: bool = True) -> list[IndexJob]:
    """Empty the corpus and index again every file its jobs read that is still on disk: of an origin indexed more
    than once (documents uploaded again under one name), the latest that ended done, if one did."""
    latest: dict[str, tuple[str, str, str, str]] = {}
    for path, format, origin, state in corpus.jobs.order_by("created_at").values_list("path", "format", "origin", "state"):
        if state == IndexJob.State.DONE or latest.get(origin or path, ("", "", "", ""))[3] != IndexJob.State.DONE:
            latest[origin or path] = (path, format, origin, state)
    jobs = sorted(job[:3] for job in latest.values() if Path(job[0]).exists())  # a file, or a folder of pages
    if enqueue:
        require_broker()  # before emptying the corpus: a rollback would undo that only after all the work
    with transaction.atomic():
        _delete_contents(corpus)
        return [start_index_job(Path(path), format, corpus.name, enqueue, origin) for path, format, origin in jobs]


def _delete_contents(corpus: Corpus) -> None:
    """Everything stored under the corpus (posts, formulas, node vectors, …) except its job history."""
    for relation in Corpus._meta.related_objects:
        if relation.related_model is not IndexJob:
            relation.related_model._default_manager.filter(**{relation.field.name: corpus}).delete()
