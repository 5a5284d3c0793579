"""Files the site stores from admin uploads (`MATHSEARCH_UPLOAD_DIR`), and when they are deleted.

Re-index rebuilds a corpus from the files its jobs read (`actions.reindex_corpus`), so an upload is kept as long
as a corpus may need it: while a job that reads it is pending or running (an interrupted job resumes from it), or
once any job stored records from it, until a later upload of the same name into the same corpus replaces it (its
documents are kept in sync with the latest). An upload whose jobs all ended without storing a record is deleted
when the last of them ends, and a deleted corpus's uploads go with its jobs. Files indexed by path from the command
line are the user's: they are never deleted.
"""
from __future__ import annotations

import re
import shutil
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.db.models.signals import post_delete
from django.dispatch import receiver

from searchapp.models import IndexJob

NEEDED = Q(state__in=[IndexJob.State.PENDING, IndexJob.State.RUNNING]) | Q(done__gt=0)
"""Jobs that make their file needed: one still to read it, or one whose records re-index would read again."""


def save_upload(uploaded) -> Path:
    """Copy an uploaded (size-checked) file chunk by chunk into a folder of its own in the upload folder, under the
    name it came with (a document's posts are named after their file); return its path."""
    folder = Path(settings.MATHSEARCH_UPLOAD_DIR) / uuid.uuid4().hex[:12]
    folder.mkdir(parents=True)
    safe_name = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(uploaded.name).name)[-100:].lstrip(".") or "upload"
    path = folder / safe_name
    with open(path, "wb") as handle:
        for chunk in uploaded.chunks():
            handle.write(chunk)
    return path


def release_upload(path: str | Path) -> bool:
    """Delete the file at `path` if the site stored it from an upload and no job needs it; True if deleted."""
    path = Path(path).resolve()
    if not path.is_relative_to(Path(settings.MATHSEARCH_UPLOAD_DIR).resolve()):
        return False
    if any(not _replaced(job) for job in IndexJob.objects.filter(path=str(path)).filter(NEEDED)):
        return False
    path.unlink(missing_ok=True)
    if path.parent != Path(settings.MATHSEARCH_UPLOAD_DIR).resolve():  # an upload's own folder (older ones had none)
        shutil.rmtree(path.parent, ignore_errors=True)
    return True


def _replaced(job: IndexJob) -> bool:
    """A documents job whose upload a later upload of the same name into the same corpus replaced, done."""
    return job.format == IndexJob.Format.DOCUMENTS and bool(job.origin) and IndexJob.objects.filter(
        corpus_id=job.corpus_id, origin=job.origin, format=job.format, state=IndexJob.State.DONE,
        created_at__gt=job.created_at).exists()


def release_replaced_uploads(job: IndexJob) -> None:
    """The uploads that `job`, done, replaced: earlier uploads of the same name into its corpus."""
    if job.state == IndexJob.State.DONE and job.format == IndexJob.Format.DOCUMENTS and job.origin:
        earlier = IndexJob.objects.filter(corpus_id=job.corpus_id, origin=job.origin, created_at__lt=job.created_at)
        for path in set(earlier.exclude(path=job.path).values_list("path", flat=True)):
            release_upload(path)


@receiver(post_delete, sender=IndexJob)
def release_upload_of_deleted_job(sender, instance: IndexJob, **kwargs) -> None:
    """A job deleted (with its corpus, usually) may leave its upload needed by nothing; decided once the
    deletion is committed, so a rolled-back one keeps the file."""
    transaction.on_commit(lambda: release_upload(instance.path))
