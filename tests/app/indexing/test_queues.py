"""A small upload has a queue of its own, so it never waits behind a big job; a waiting job knows its place."""

import pytest
from django.utils import timezone

from searchapp.indexing import queues
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import running_job_ids
from searchapp.indexing.queues import BIG, SMALL, place_in_queue, queue_for
from searchapp.models import IndexJob
from searchapp.tasks import run_index_job
from tests.conftest import start_worker, stop_worker
from tests.polling import job_until


def sized(path, size: int):
    with open(path, "wb") as file:
        file.truncate(size)  # sparse: the size without the writing
    return path

def test_an_upload_goes_to_the_queue_of_its_size(tmp_path):
    assert queue_for(sized(tmp_path / "note.md", 1_000)) == SMALL
    assert queue_for(sized(tmp_path / "book.zip", queues.SMALL_JOB_BYTES + 1)) == BIG
    folder = tmp_path / "papers"
    (folder / "deep").mkdir(parents=True)
    sized(folder / "a.tex", queues.SMALL_JOB_BYTES // 2)
    assert queue_for(folder) == SMALL
    sized(folder / "deep" / "b.tex", queues.SMALL_JOB_BYTES // 2 + 1)
    assert queue_for(folder) == BIG
    assert queue_for(tmp_path / "gone.zip") == BIG

@pytest.mark.django_db
def test_a_waiting_job_counts_the_jobs_of_its_queue_ahead_and_their_time(tmp_path):
    book = sized(tmp_path / "book.txt", queues.SMALL_JOB_BYTES + 1)
    running = start_index_job(book, "latex", "books", enqueue=False)
    started = timezone.now() - timezone.timedelta(seconds=100)
    IndexJob.objects.filter(pk=running.pk).update(state="running", started_at=started, total=400, cursor=100)
    waiting = start_index_job(book, "latex", "books", enqueue=False)
    note = start_index_job(sized(tmp_path / "note.txt", 10), "latex", "notes", enqueue=False)
    place, seconds = place_in_queue(waiting)
    ran = (timezone.now() - started).total_seconds()  # 100 s, and however long the test took to ask
    assert place == 1 and 300 <= seconds <= 3 * ran  # a quarter done: three times as long again to go
    assert place_in_queue(note) == (0, 0.0)  # the big job is not in its queue
    newer = start_index_job(book, "latex", "books", enqueue=False)
    assert place_in_queue(newer) == (2, None)  # the one waiting has no rate yet

@pytest.mark.django_db
def test_the_page_of_a_waiting_job_says_where_it_stands(admin_client, tmp_path):
    book = sized(tmp_path / "book.txt", queues.SMALL_JOB_BYTES + 1)
    IndexJob.objects.filter(pk=start_index_job(book, "latex", "books", enqueue=False).pk).update(
        state="running", started_at=timezone.now() - timezone.timedelta(hours=1), total=200, cursor=100)
    waiting = start_index_job(book, "latex", "books", enqueue=False)
    progress = admin_client.get(f"/admin/searchapp/indexjob/{waiting.pk}/progress.json").json()
    assert progress["summary"] == "waiting: 1 job ahead, about 1 h 0 min"  # the seconds until the page asks: not shown

@pytest.mark.django_db(transaction=True)
def test_a_small_upload_is_done_while_a_big_job_holds_the_big_queue(celery_worker_process, service_env, endless_file,
                                                                   tmp_path):
    small_worker = start_worker(service_env, SMALL)  # starting while the session's worker takes the big job
    big = start_index_job(endless_file.path, "latex", "big", enqueue=False)
    run_index_job.apply_async([big.pk], queue=BIG)  # the session's worker takes it and waits in it
    try:
        job_until(big, lambda job: job.pk in running_job_ids())
        (tmp_path / "note.txt").write_text("x^2 + y^2\n")
        small = start_index_job(tmp_path / "note.txt", "latex", "notes")
        small = job_until(small, lambda job: job.state in ("done", "failed"))
        assert small.state == "done" and IndexJob.objects.get(pk=big.pk).state == "running"
    finally:
        stop_worker(small_worker)
        endless_file.end()
        job_until(big, lambda job: job.pk not in running_job_ids())
