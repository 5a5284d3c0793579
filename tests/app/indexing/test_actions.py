"""Starting a job saves it and leaves the file to the job: the request that uploads it does not read it. With the
broker down (a closed port), what needs it fails in one clear line: nothing saved, nothing emptied."""
import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Corpus, Formula, IndexJob
from tests.app.factories import DEAD_BROKER, run_manage
from tests.conftest import database_url

pytestmark = pytest.mark.django_db

UNREACHABLE = r"the broker is unreachable \(Error 111 connecting to 127\.0\.0\.1:1\. Connection refused\.\)"


def test_a_job_is_created_without_reading_its_file_and_counts_and_checks_it_when_it_runs(tmp_path):
    job = start_index_job(tmp_path / "not-yet.jsonl", "jsonl", "later", enqueue=False)
    assert (job.state, job.total, job.cursor) == ("pending", None, 0)
    job = run_job(job)
    assert job.state == "failed" and "No such file or directory" in job.message and job.total is None


@pytest.fixture
def formulas(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("x^2\ny^3\n")
    return path


def test_index_corpus_fails_in_one_line_and_saves_no_job(broker_down, formulas):
    with pytest.raises(CommandError, match=f"^{UNREACHABLE}; start it and try again, or index here with --sync$"):
        call_command("index_corpus", str(formulas), "--format", "latex", "--corpus", "c")
    assert not Corpus.objects.exists() and not IndexJob.objects.exists()


def test_index_corpus_sync_needs_no_broker(broker_down, formulas):
    call_command("index_corpus", str(formulas), "--format", "latex", "--corpus", "c", "--sync")
    assert Formula.objects.count() == 2


def test_reindex_fails_in_one_line_and_empties_no_corpus(broker_down, index_file):
    index_file()
    before = set(Formula.objects.values_list("pk", flat=True))
    with pytest.raises(CommandError, match=f"^{UNREACHABLE}; .*--sync; nothing was changed$"):
        call_command("reindex")
    assert set(Formula.objects.values_list("pk", flat=True)) == before
    assert IndexJob.objects.count() == 1


def test_the_command_line_gets_one_line_and_a_nonzero_status(formulas):
    result = run_manage("index_corpus", str(formulas), "--format", "latex", "--corpus", "c",
                        DATABASE_URL=database_url(connection.settings_dict), REDIS_URL=DEAD_BROKER)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("CommandError: the broker is unreachable (")


def test_the_upload_page_says_so_and_keeps_no_file(broker_down, admin_client, settings, tmp_path):
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    response = admin_client.post("/admin/searchapp/indexjob/upload/", {
        "file": SimpleUploadedFile("f.txt", b"x^2\n"), "format": "latex", "corpus": "c"})
    assert response.status_code == 503
    assert "Indexing cannot start: the broker is unreachable" in response.content.decode()
    assert not IndexJob.objects.exists() and list(settings.MATHSEARCH_UPLOAD_DIR.iterdir()) == []


def test_the_reindex_action_says_so_and_empties_nothing(broker_down, admin_client, index_file):
    index_file()
    before = Formula.objects.count()
    response = admin_client.post("/admin/searchapp/corpus/", {
        "action": "reindex", "_selected_action": [Corpus.objects.get().pk], "confirm": "yes"})
    [message] = get_messages(response.wsgi_request)
    assert message.level_tag == "error" and str(message).startswith("test was not re-indexed: the broker is unreachable")
    assert Formula.objects.count() == before
