"""As staff, cancel a running job from its page in a real browser, with a real Celery worker running it: the page says
"cancelled" and offers cancel no more, and the worker stops without storing anything more."""
import pytest
from playwright.sync_api import expect

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import cancel_jobs, running_job_ids
from searchapp.models import IndexJob
from tests.e2e.factories import page_problems
from tests.polling import job_until

pytestmark = pytest.mark.e2e

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def test_staff_cancel_a_running_job_from_its_page(staff_login, axe, celery_worker_process, endless_file, screenshot):
    page = staff_login
    job = start_index_job(endless_file.path, "latex", "endless")  # the worker waits in it, running, until it ends
    job_until(job, lambda job: job.pk in running_job_ids())  # once the worker is up
    live = f"/admin/searchapp/indexjob/{job.pk}/live/"
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        assert page_problems(page, live) == []
        expect(page.locator("#job-state")).to_have_text("running")
        expect(page.locator("#job-cancel button")).to_be_visible()
        screenshot(f"running-{size}", full_page=False)

    page.once("dialog", lambda dialog: dialog.dismiss())  # asked first: a cancelled job cannot be resumed
    page.click("#job-cancel button")
    expect(page.locator("#job-state")).to_have_text("running")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#job-cancel button")
    expect(page.locator("#job-state")).to_have_text("cancelled")
    expect(page.locator(".messagelist")).to_have_text(f"Job {job.pk} is cancelled: it stores nothing more, and what it "
                                                      "stored stays.")
    expect(page.locator("#job-cancel")).to_have_count(0)
    expect(page.locator("#job-message")).to_have_text("cancelled by ada")
    screenshot("cancelled-phone", full_page=False)

    endless_file.end()  # the worker reads on, sees the cancel at its next count and stops
    job = job_until(job, lambda job: job.pk not in running_job_ids())
    assert (job.state, job.total, job.done) == ("cancelled", None, 0)


def test_a_job_page_open_while_the_job_is_cancelled_elsewhere_stops_offering_cancel(staff_login, celery_worker_process,
                                                                                    endless_file, tmp_path):
    """The page follows the job as it polls: a job queued behind another, cancelled in another tab, is shown so."""
    page = staff_login
    running = start_index_job(endless_file.path, "latex", "endless")
    (tmp_path / "next.txt").write_text("x^2\n")
    queued = start_index_job(tmp_path / "next.txt", "latex", "next")
    page.goto(f"/admin/searchapp/indexjob/{queued.pk}/live/")
    expect(page.locator("#job-state")).to_have_text("pending")
    expect(page.locator("#job-cancel button")).to_be_visible()
    cancel_jobs(IndexJob.objects.filter(pk=queued.pk), by="grace")
    expect(page.locator("#job-state")).to_have_text("cancelled")
    expect(page.locator("#job-cancel")).to_be_hidden()
    expect(page.locator("#job-message")).to_have_text("cancelled by grace")
    cancel_jobs(IndexJob.objects.filter(pk=running.pk), by="grace")
    endless_file.end()
    job_until(running, lambda job: job.pk not in running_job_ids())
