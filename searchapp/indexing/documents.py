"""A `documents` job: a folder (a file, a zip, an archive) of documents indexed into a corpus and kept in sync with
it. Indexing the same origin into the same corpus again skips each document whose files are unchanged (by their
sha256), replaces each changed one whole, and removes those gone from it.

The upload is planned from its listing (`ml.data.documents.plan_upload`), so the job shows its files and bytes
from the start and reads each document once: there is no counting pass. A document is read and prepared (parsed,
embedded, encoded) outside any transaction, then its old posts, occurrences and the formulas no other post holds
are replaced by the new ones in one transaction, so that a search sees each document whole, before or after. A
resumed job skips the documents it stored itself.
"""
from __future__ import annotations

from pathlib import Path

from django.db import transaction
from django.db.models import F

from ml.data.documents import Document, Unreadable, plan_upload, section_items
from ml.data.documents.notation import corpus_macros
from ml.data.documents.reader import Upload
from searchapp.indexing.pipeline import (
    MAX_KEPT_ERRORS,
    PreparedChunk,
    Progress,
    chunk_encoder,
    prepared_chunks,
    stop_if_cancelled,
    store_chunk,
)
from searchapp.models import Corpus, Formula, IndexJob, Occurrence, SourceDocument


def sync_documents(job: IndexJob, progress: Progress) -> None:
    """Index the job's upload into its corpus, in sync with what was indexed from the same origin before; ValueError
    when the upload cannot be opened (see the module)."""
    upload = plan_upload(Path(job.path))
    origin = job.origin or job.path
    IndexJob.objects.filter(pk=job.pk).update(  # counted anew when a job resumes
        files_total=len(upload.chosen), bytes_total=sum(upload.files.size(name) for name in upload.chosen),
        files_read=0, bytes_read=0, unchanged=0)
    job.refresh_from_db()
    progress(job)
    _note_skipped(job, upload)
    stored = {document.path: document for document in job.corpus.documents.filter(origin=origin)}
    number = job.cursor
    with chunk_encoder() as encoder:
        for planned in upload.documents:
            old = stored.pop(planned.path, None)
            if old is not None and (old.job_id == job.pk or _unchanged(old, upload)):
                _read_files(job, upload, planned.covers, unchanged=old.job_id != job.pk)
                progress(job)
                continue
            document = planned.read()
            items = section_items(document, number)
            number += len(items)
            prepared = list(prepared_chunks(job.corpus, items, encoder, encode_all=True))
            if isinstance(document, Unreadable) and old is not None:  # its last readable version stays
                _store_problems(job, prepared)
            else:
                _replace(job, origin, planned.path, old, document, prepared)
            _read_files(job, upload, planned.covers)  # the job refreshed with its counters
            progress(job)
    for gone in stored.values():
        _remove(job, gone)
    update_corpus_macros(job.corpus)


def _unchanged(old: SourceDocument, upload: Upload) -> bool:
    """Whether every file the document was read from is still there with the same bytes."""
    return bool(old.files) and all(upload.files.digest(path) == digest for path, digest in old.files.items())


def _replace(job: IndexJob, origin: str, path: str, old: SourceDocument | None, document: Document | Unreadable,
             prepared: list[PreparedChunk]) -> None:
    """The document's new posts in place of its old ones, in one transaction; an unreadable new document is
    stored as a problem only."""
    with transaction.atomic():
        held = _formulas_of(old)
        if old is not None:
            old.posts.all().delete()
        row = None
        if isinstance(document, Document):
            row, _ = SourceDocument.objects.update_or_create(
                corpus=job.corpus, origin=origin, path=path,
                defaults={"files": document.files, "macros": document.macros, "job": job})
        for chunk in prepared:
            store_chunk(job.pk, chunk, row.pk if row is not None else None)
        _delete_unheld(held)


def _store_problems(job: IndexJob, prepared: list[PreparedChunk]) -> None:
    """Only the problems of the chunks (an unreadable document's one line), its stored version kept."""
    for chunk in prepared:
        store_chunk(job.pk, PreparedChunk(chunk.consumed, [], [], [], [], {}, {}, chunk.outcome))


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


def _read_files(job: IndexJob, upload: Upload, covers: tuple[str, ...], unchanged: bool = False) -> None:
    listed = [path for path in covers if path in upload.files]
    IndexJob.objects.filter(pk=job.pk).update(
        files_read=F("files_read") + len(listed), bytes_read=F("bytes_read") + sum(map(upload.files.size, listed)),
        unchanged=F("unchanged") + int(unchanged))
    job.refresh_from_db()
    stop_if_cancelled(job)  # before the next document, or the removal of those gone from the upload


def _note_skipped(job: IndexJob, upload: Upload) -> None:
    """Files another document covers are read with it, and said so on the job's page (not as failures)."""
    notes = [{"line": None, "message": f"{skipped.file}: {skipped.message}", "note": True}
             for skipped in upload.skipped[:MAX_KEPT_ERRORS]]
    if notes and not any(error.get("note") for error in job.errors):
        IndexJob.objects.filter(pk=job.pk).update(errors=(notes + job.errors)[:MAX_KEPT_ERRORS])
    for skipped in upload.skipped:
        _read_files(job, upload, (skipped.file,))


def update_corpus_macros(corpus: Corpus) -> None:
    """The corpus's macros, which its queries are read with (`ml.data.documents.notation.corpus_macros`)."""
    corpus.macros = corpus_macros(corpus.documents.order_by("pk").values_list("macros", flat=True))
    Corpus.objects.filter(pk=corpus.pk).update(macros=corpus.macros)
