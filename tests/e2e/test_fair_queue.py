"""The fair queue in a real browser, with real Celery workers: while a big job holds the big queue, a small upload made
from the admin's page is done by the small queue's worker; and an upload that waits in its queue says where it stands
on its page. The test waits for the order of events, never for a number of seconds: how soon is for a benchmark to
measure, and a worker starting on a loaded machine once took over 30 s."""
import pytest
from playwright.sync_api import expect

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import running_job_ids
from searchapp.indexing.queues import BIG, SMALL
from searchapp.tasks import ping, run_index_job
from tests.conftest import EndlessFile, start_worker, stop_worker
from tests.polling import UNTIL_IT_HAPPENS, job_until

pytestmark = pytest.mark.e2e

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def upload(page, path, corpus: str) -> None:
    """A small LaTeX file uploaded from the admin's page; the browser is then on its job's page."""
    path.write_text("x^2 + y^2 = z^2\n\\frac{a}{b}\n")
    page.goto("/admin/searchapp/indexjob/upload/")
    page.set_input_files("#id_file", str(path))
    page.select_option("#id_format", "latex")
    page.fill("#id_corpus", corpus)
    page.click(".upload-form button[type=submit]")
    page.wait_for_url("**/live/")


def held(path, queue: str):
    """A job that its queue's worker takes and holds, running, until its file ends (`EndlessFile`)."""
    job = start_index_job(path, "latex", f"held-{queue}", enqueue=False)
    run_index_job.apply_async([job.pk], queue=queue)
    return job_until(job, lambda job: job.pk in running_job_ids())


def test_a_small_upload_is_done_beside_a_big_job_and_a_waiting_one_shows_its_place(
        staff_login, celery_worker_process, service_env, endless_file, settings, tmp_path, screenshot):
    page = staff_login
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    small_worker = start_worker(service_env, SMALL)
    second = EndlessFile(tmp_path / "second.txt")
    try:
        book = held(endless_file.path, BIG)  # the session's worker (which reads the small queue too)
        ping.apply_async(queue=SMALL).get()  # so this one answers: it is up and takes from its queue
        upload(page, tmp_path / "note.txt", "notes")
        expect(page.locator("#job-state")).to_have_text("done", timeout=UNTIL_IT_HAPPENS)
        assert book.pk in running_job_ids()  # the book still holds its queue

        held(second.path, SMALL)  # both workers busy now: the next upload waits, and its page says where it stands
        upload(page, tmp_path / "note2.txt", "notes")
        for size, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            expect(page.locator("#job-state")).to_have_text("pending")
            # both held jobs read named pipes, which have no size: the queue counts the book's as a small one too
            expect(page.locator("#job-counts")).to_contain_text("waiting: 2 jobs ahead")
            screenshot(f"queued-{size}", full_page=False)
        second.end()
        expect(page.locator("#job-state")).to_have_text("done", timeout=UNTIL_IT_HAPPENS)  # its turn came
    finally:
        endless_file.end()
        second.end()
        stop_worker(small_worker)
