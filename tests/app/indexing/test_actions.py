"""Starting a job saves it and leaves the file to the job: the request that uploads it does not read it."""
import pytest

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job

pytestmark = pytest.mark.django_db


def test_a_job_is_created_without_reading_its_file_and_counts_and_checks_it_when_it_runs(tmp_path):
    job = start_index_job(tmp_path / "not-yet.jsonl", "jsonl", "later", enqueue=False)
    assert (job.state, job.total, job.cursor) == ("pending", None, 0)
    job = run_job(job)
    assert job.state == "failed" and "No such file or directory" in job.message and job.total is None
