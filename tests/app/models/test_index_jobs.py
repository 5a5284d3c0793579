"""Index jobs and their parts as rows: what a job says of its progress, its rate and its errors' unit, and the
constraints its parts are held to."""
from datetime import UTC, datetime, timedelta

import pytest
from django.db import IntegrityError, transaction

from searchapp.models import Corpus, IndexJob, IndexPart

pytestmark = pytest.mark.django_db

STARTED = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def job():
    return IndexJob.objects.create(corpus=Corpus.objects.create(name="c"), path="/uploads/f.txt", format="latex")


def test_the_upload_page_lists_every_format_with_what_it_says_of_it():
    formats = IndexJob.formats()
    assert [value for value, _, _ in formats] == list(IndexJob.Format.values)
    assert all(name and help_text for _, name, help_text in formats)


@pytest.mark.parametrize("format, unit", [("mse_html", "page"), ("documents", "section"), ("latex", "line"),
                                          ("jsonl", "line")])
def test_an_error_s_number_counts_the_format_s_records(format, unit):
    assert IndexJob(format=format).record_unit == unit


def test_a_file_s_progress_counts_records_once_they_are_counted(job):
    assert (job.progress, job.planned, job.work) == ("0 / counting… (0 so far)", False, (0, None))
    job.counted, job.cursor = 40, 10
    assert job.progress == "10 / counting… (40 so far)"
    job.total = 90
    assert (job.progress, job.planned, job.work) == ("10 / 90", True, (10, 90))


def test_a_documents_upload_s_progress_counts_files_and_its_rate_bytes(job):
    job.format, job.files_total, job.files_read, job.bytes_total, job.bytes_read = "documents", 4, 1, 1000, 250
    assert (job.progress, job.planned, job.work) == ("1 / 4 files", True, (250, 1000))


def test_a_finished_job_s_rate_is_over_its_run(job):
    assert (job.seconds, job.formulas_per_second) == (None, None)
    job.started_at, job.finished_at, job.formulas_added = STARTED, STARTED + timedelta(seconds=8), 100
    assert (job.seconds, job.formulas_per_second) == (8.0, 12.5)
    job.finished_at = STARTED  # an empty upload: no division by zero
    assert job.formulas_per_second == pytest.approx(100 / 1e-3)


def test_a_job_s_parts_are_numbered_once_and_go_with_it(job):
    IndexPart.objects.create(job=job, number=0, start=0, stop=50)
    with pytest.raises(IntegrityError), transaction.atomic():
        IndexPart.objects.create(job=job, number=0, start=50, stop=90)
    IndexPart.objects.create(job=job, number=1, start=50, stop=90)
    assert [str(part) for part in job.parts.all()] == [f"part 0 of job {job.pk} pending", f"part 1 of job {job.pk} pending"]
    job.delete()
    assert not IndexPart.objects.exists()


def test_a_new_job_waits_with_empty_counts_and_errors(job):
    job.refresh_from_db()
    assert (job.state, job.errors, job.timings, job.done, job.failed) == ("pending", [], {}, 0, 0)
    assert job.state in IndexJob.UNFINISHED and str(job) == f"job {job.pk} c pending"
