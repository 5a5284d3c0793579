"""As staff, upload a small corpus in a real browser and watch a real Celery worker finish its job."""
import pytest

from searchapp.models import Formula, IndexJob
from tests.polling import UNTIL_IT_HAPPENS

pytestmark = pytest.mark.e2e

CORPUS = "\n".join([r"x^2 + y^2 = z^2", r"\frac{a}{b}", r"\frac{1}{", r"\sqrt{2}", r"e^{i\pi} + 1 = 0"]) + "\n"


def test_staff_upload_shows_live_progress_until_done(staff_login, celery_worker_process, settings, tmp_path,
                                                     screenshot):
    page = staff_login
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    source = tmp_path / "small.txt"
    source.write_text(CORPUS)
    page.goto("/admin/searchapp/indexjob/upload/")
    page.set_input_files("#id_file", str(source))
    page.select_option("#id_format", "latex")
    page.fill("#id_corpus", "uploaded")
    screenshot("form")
    page.click(".upload-form button[type=submit]")
    page.wait_for_url("**/live/")
    page.wait_for_selector('#job-state[data-state="done"]', timeout=UNTIL_IT_HAPPENS)
    assert "5 / 5 records" in page.inner_text("#job-counts")
    assert page.locator("#job-errors li").count() == 1  # the unbalanced \frac{1}{
    assert page.inner_text("#job-errors li").startswith("line ") and page.inner_text("#job-error-count") == "(1)"
    assert page.eval_on_selector("#job-bar", "bar => bar.value") == 100
    screenshot("done")
    job = IndexJob.objects.get()
    assert (job.state, job.formulas_added) == ("done", 4)
    assert Formula.objects.filter(corpus__name="uploaded").count() == 4
