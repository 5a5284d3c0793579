"""A `documents` job: a folder (a file, a zip, an archive) of documents indexed into a corpus and kept in sync with
it. Indexing the same origin into the same corpus again skips each document whose files are unchanged (by their
sha256), replaces each changed one whole, and removes those gone from it.

The upload is planned from its listing (`corpora.documents.plan_upload`): the job shows its files and bytes from the
start, and each document is a part of the job (`parts`), which any worker takes and reads once: there is no counting
pass. A document is read and prepared (parsed, embedded, encoded) outside any transaction, then its old posts,
occurrences and the formulas no other post holds are replaced by the new ones in one transaction, which also ends
its part, so that a search sees each document whole, before or after, and a resumed job never stores it twice. Once
every part is done, the documents gone from the upload are removed (`finish_documents`).
"""
from __future__ import annotations

import functools
from pathlib import Path

from django.db import transaction
from django.db.models import F

from corpora.documents import Document, PlannedDocument, Unreadable, plan_upload, section_items
from corpora.documents.notation import corpus_macros
from corpora.documents.reader import Upload
from searchapp.indexing.parts import MAX_KEPT_ERRORS, ChunkOutcome, JobCancelled, advance, lock_part
from searchapp.indexing.pipeline import (
    PreparedChunk,
    Progress,
    chunk_encoder,
    prepared_chunks,
    retried_on_deadlock,
    store_prepared,
)
from searchapp.models import Corpus, Formula, IndexJob, IndexPart, Occurrence, SourceDocument


def plan_documents(job: IndexJob, progress: Progress) -> int:
    """Make a part of each document of the job's upload, and count its files and bytes; the parts made. ValueError
    when the upload cannot be opened. JobCancelled, with nothing saved, once the job is cancelled."""
    upload = planned_upload(job.pk, job.path)
    parts = [IndexPart(job=job, document=planned.path, files=len(_listed(upload, planned.covers)),
                       bytes=sum(map(upload.files.size, _listed(upload, planned.covers))))
             for planned in upload.documents]
    for number, part in enumerate(sorted(parts, key=lambda part: -part.bytes)):
        part.number = number  # the biggest taken first: runners end together, not one on a book while others idle
    with transaction.atomic():
        IndexPart.objects.bulk_create(parts)
        skipped = _listed(upload, tuple(skipped.file for skipped in upload.skipped))
        notes = [{"line": None, "message": f"{skipped.file}: {skipped.message}", "note": True}
                 for skipped in upload.skipped[:MAX_KEPT_ERRORS]]
        if not IndexJob.objects.filter(pk=job.pk).exclude(state=IndexJob.State.CANCELLED).update(
                files_total=len(upload.chosen), bytes_total=sum(upload.files.size(name) for name in upload.chosen),
                files_read=len(skipped), bytes_read=sum(map(upload.files.size, skipped)), errors=notes):
            raise JobCancelled(job.pk)
    job.refresh_from_db()
    progress(job)
    return len(upload.documents)


@functools.lru_cache(maxsize=1)
def planned_upload(job_id: int, path: str) -> Upload:
    """The plan of a job's upload, made once per process for all the parts of the job it runs (a second for 400
    documents), as the parts' documents were listed when the job was planned: an upload is never changed."""
    return plan_upload(Path(path))


def index_document(job: IndexJob, part: IndexPart, progress: Progress) -> None:
    """Index the part's document (see the module); an unchanged one is only counted as read."""
    upload = planned_upload(job.pk, job.path)
    planned = _planned(upload, part.document)
    origin = job.origin or job.path
    old = job.corpus.documents.filter(origin=origin, path=planned.path).first()
    if old is not None and _unchanged(old, upload):
        with transaction.atomic():
            job = advance(lock_part(part.pk), 0, ChunkOutcome(), finished=True, files=part.files,
                          bytes_read=part.bytes, unchanged=1)
        progress(job)
        return
    document = planned.read()
    with chunk_encoder() as encoder:
        prepared = list(prepared_chunks(job.corpus, section_items(document, 0), encoder, encode_all=True))
    if isinstance(document, Unreadable) and old is not None:  # its last readable version stays
        progress(retried_on_deadlock(_store_problems, part.pk, prepared))
    else:
        progress(retried_on_deadlock(_replace, part.pk, origin, old, document, prepared))


def finish_documents(job: IndexJob) -> None:
    """Once every part is done: remove the documents of the job's origin that its upload no longer holds, and read
    the corpus's macros again."""
    origin = job.origin or job.path
    kept = job.parts.values_list("document", flat=True)
    for gone in job.corpus.documents.filter(origin=origin).exclude(path__in=kept):
        _remove(job, gone)
    update_corpus_macros(job.corpus)


def _planned(upload: Upload, path: str) -> PlannedDocument:
    for planned in upload.documents:
        if planned.path == path:
            return planned
    raise ValueError(f"{path}: the document is no longer in the upload")


def _listed(upload: Upload, paths: tuple[str, ...]) -> list[str]:
    return [path for path in paths if path in upload.files]


def _unchanged(old: SourceDocument, upload: Upload) -> bool:
    """Whether every file the document was read from is still there with the same bytes."""
    return bool(old.files) and all(upload.files.digest(path) == digest for path, digest in old.files.items())


def _replace(part_id: int, origin: str, old: SourceDocument | None, document: Document | Unreadable,
             prepared: list[PreparedChunk]) -> IndexJob:
    """The document's new posts in place of its old ones, and its part done, in one transaction; an unreadable new
    document is stored as a problem only. The job as advanced."""
    with transaction.atomic():
        part = lock_part(part_id)  # nothing of the document is stored once its part is cancelled
        held = _formulas_of(old)
        if old is not None:
            old.posts.all().delete()
        row = None
        if isinstance(document, Document):
            row, _ = SourceDocument.objects.update_or_create(
                corpus=part.job.corpus, origin=origin, path=part.document,
                defaults={"files": document.files, "macros": document.macros, "job": part.job})
        outcomes = [store_prepared(part, chunk, row.pk if row is not None else None) for chunk in prepared]
        _delete_unheld(held)
        return _finish_part(part, prepared, outcomes)


def _store_problems(part_id: int, prepared: list[PreparedChunk]) -> IndexJob:
    """Only the problems of the chunks (an unreadable document's one line), its stored version kept."""
    with transaction.atomic():
        part = lock_part(part_id)
        return _finish_part(part, prepared, [chunk.outcome for chunk in prepared])


def _finish_part(part: IndexPart, prepared: list[PreparedChunk], outcomes: list[ChunkOutcome]) -> IndexJob:
    """The document's part done, with what its chunks stored and its files read."""
    total = ChunkOutcome()
    for outcome in outcomes:
        total.done += outcome.done
        total.failed += outcome.failed
        total.formula_errors += outcome.formula_errors
        total.added += outcome.added
        total.errors += outcome.errors
        for stage, seconds in outcome.timings.items():
            total.timings[stage] += seconds
    return advance(part, sum(chunk.consumed for chunk in prepared), total, finished=True, files=part.files,
                   bytes_read=part.bytes)


def _remove(job: IndexJob, document: SourceDocument) -> None:
    with transaction.atomic():
        held = _formulas_of(document)
        document.delete()  # its posts, their occurrences and feedback with it
        _delete_unheld(held)
        IndexJob.objects.filter(pk=job.pk).update(removed=F("removed") + 1)


def _formulas_of(document: SourceDocument | None) -> list[int]:
    if document is None:
        return []
    return list(Occurrence.objects.filter(post__document=document).values_list("formula_id", flat=True).distinct())


def _delete_unheld(formula_ids: list[int]) -> None:
    """The formulas among these that no post holds any more. Their ids may stay in posting lists until the corpus
    is indexed again: a candidate id with no formula row is never scored."""
    Formula.objects.filter(pk__in=formula_ids).exclude(occurrences__isnull=False).delete()


def update_corpus_macros(corpus: Corpus) -> None:
    """The corpus's macros, which its queries are read with (`corpora.documents.notation.corpus_macros`)."""
    by_path = corpus.documents.order_by("path", "pk")  # a tie goes the same way however the workers shared the job
    corpus.macros, corpus.other_macros = corpus_macros(by_path.values_list("macros", flat=True))
    Corpus.objects.filter(pk=corpus.pk).update(macros=corpus.macros, other_macros=corpus.other_macros)
