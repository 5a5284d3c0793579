"""Uploaded files are kept while a corpus needs them (re-index reads them again) and deleted once none does."""
from pathlib import Path

import psycopg
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import JOB_LOCK_CLASS
from searchapp.indexing.uploads import release_upload, save_upload
from searchapp.models import Corpus, Formula, IndexJob
from searchapp.tasks import run_index_job
from tests.app.factories import latex_file
from tests.conftest import database_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("upload_dir")]

BAD_RECORDS = ["not json", '{"broken"']


def upload(lines, format="latex", corpus="up") -> IndexJob:
    """What the admin's upload does, short of queueing the job: the site stores the file, the job reads it."""
    path = save_upload(latex_file(lines))
    return start_index_job(path, format, corpus, enqueue=False)


def test_an_upload_that_stored_records_is_kept_and_reindex_rebuilds_from_it():
    job = upload(["x^2", "y^3"])
    assert run_index_job(job.pk) == "done"
    assert Path(job.path).exists()
    call_command("reindex", sync=True)
    assert Formula.objects.filter(corpus__name="up").count() == 2
    assert Path(job.path).exists()


def test_an_upload_keeps_its_name_in_a_folder_of_its_own(upload_dir):
    first, second = (save_upload(SimpleUploadedFile("../My notes.tex", b"x")) for _ in range(2))
    assert first.name == second.name == "My_notes.tex" and first != second
    assert first.parent.parent == second.parent.parent == upload_dir


def test_an_upload_whose_job_stored_nothing_is_deleted_when_it_ends():
    job = upload(BAD_RECORDS, format="jsonl")
    assert run_index_job(job.pk) == "failed"
    assert not Path(job.path).exists() and not Path(job.path).parent.exists()
    call_command("reindex", sync=True)  # the corpus has no file left to read: nothing to do, nothing broken
    assert not Formula.objects.exists()


def test_an_interrupted_job_keeps_its_upload_and_resumes_from_it():
    job = upload(["x^2", "y^3"])
    IndexJob.objects.filter(pk=job.pk).update(state=IndexJob.State.RUNNING)  # its worker died before a chunk
    other_worker = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    try:  # a second delivery while the job still runs elsewhere returns at once, and must keep the file
        other_worker.execute("SELECT pg_advisory_lock(%s, %s)", [JOB_LOCK_CLASS, job.pk])
        assert run_index_job(job.pk) == "running"
        assert Path(job.path).exists()
    finally:
        other_worker.close()
    assert run_index_job(job.pk) == "done"
    assert Formula.objects.count() == 2


def test_a_file_indexed_by_path_is_never_deleted(tmp_path):
    path = tmp_path / "mine.jsonl"
    path.write_text("\n".join(BAD_RECORDS) + "\n")
    job = start_index_job(path, "jsonl", "mine", enqueue=False)
    assert run_index_job(job.pk) == "failed"
    assert path.exists()
    assert not release_upload(path)


def test_deleting_a_corpus_deletes_its_uploads_once_committed(django_capture_on_commit_callbacks):
    kept, deleted = upload(["x^2"], corpus="kept"), upload(["y^3"], corpus="deleted")
    for job in (kept, deleted):
        run_index_job(job.pk)
    with django_capture_on_commit_callbacks(execute=True):
        Corpus.objects.get(name="deleted").delete()
    assert Path(kept.path).exists() and not Path(deleted.path).exists()


def documents_upload(notes: dict[str, str], corpus="notes") -> IndexJob:
    """What the admin's upload does with a folder of notes, zipped under one name."""
    import io
    import zipfile

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as written:
        for name, text in notes.items():
            written.writestr(name, text)
    path = save_upload(SimpleUploadedFile("notes.zip", archive.getvalue()))
    return start_index_job(path, "documents", corpus, enqueue=False, origin=f"upload:{path.name}")


def test_an_upload_of_the_same_name_replaces_the_earlier_one_on_disk_and_in_a_reindex():
    first = documents_upload({"a.md": "# A\n\n$$a^2$$\n"})
    assert run_index_job(first.pk) == "done"
    other = documents_upload({"a.md": "# A\n\n$$a^2$$\n"}, corpus="elsewhere")  # the same name, another corpus
    assert run_index_job(other.pk) == "done"
    second = documents_upload({"a.md": "# A\n\n$$a^3$$\n", "b.md": "# B\n\n$$b$$\n"})
    assert run_index_job(second.pk) == "done"
    assert not Path(first.path).exists() and Path(second.path).exists() and Path(other.path).exists()
    call_command("reindex", corpus=["notes"], sync=True)
    assert sorted(Formula.objects.filter(corpus__name="notes").values_list("latex", flat=True)) == ["a^3", "b"]
