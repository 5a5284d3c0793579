"""Every staff page asks for a model permission, as the admin's model pages do: staff status alone shows nothing."""
import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from searchapp.models import Corpus, IndexJob
from tests.app.factories import staff_user

PAGES = [
    pytest.param("/admin/searchapp/feedback/by-query/", "view_feedback", id="feedback-by-query"),
    pytest.param("/admin/searchapp/feedback/rankers/", "view_feedback", id="rankers"),
    pytest.param("/admin/searchapp/indexjob/{job}/live/", "view_indexjob", id="job-live"),
    pytest.param("/admin/searchapp/indexjob/{job}/progress.json", "view_indexjob", id="job-progress"),
    pytest.param("/admin/searchapp/indexjob/upload/", "add_indexjob", id="upload"),
]


@pytest.fixture
def job(db, tmp_path):
    return IndexJob.objects.create(corpus=Corpus.objects.create(name="c"), path=str(tmp_path / "f.txt"),
                                   format="latex", total=1)


@pytest.fixture
def bare_staff(db, client):
    """A staff account with no permission at all."""
    user = staff_user("grace", password="pw")
    client.force_login(user)
    return client, user


@pytest.mark.parametrize("url, permission", PAGES)
def test_a_staff_account_without_the_permission_gets_403(bare_staff, job, url, permission):
    client, _ = bare_staff
    assert client.get(url.format(job=job.pk)).status_code == 403


@pytest.mark.parametrize("url, permission", PAGES)
def test_the_permission_opens_the_page(bare_staff, job, url, permission):
    client, user = bare_staff
    user.user_permissions.add(Permission.objects.get(codename=permission))
    assert client.get(url.format(job=job.pk)).status_code == 200


def cancel_url(job) -> str:
    return f"/admin/searchapp/indexjob/{job.pk}/cancel/"


def test_the_job_page_offers_cancel_only_to_staff_who_may_change_jobs(bare_staff, job):
    client, user = bare_staff
    user.user_permissions.add(Permission.objects.get(codename="view_indexjob"))
    assert 'id="job-cancel"' not in client.get(f"/admin/searchapp/indexjob/{job.pk}/live/").content.decode()
    assert client.post(cancel_url(job)).status_code == 403
    job.refresh_from_db()
    assert job.state == "pending"


def test_cancelling_a_job_from_its_page_says_so_and_offers_cancel_no_more(bare_staff, job):
    client, user = bare_staff
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_indexjob", "change_indexjob"]))
    live = f"/admin/searchapp/indexjob/{job.pk}/live/"
    assert 'id="job-cancel"' in client.get(live).content.decode()
    assert client.get(cancel_url(job)).status_code == 405  # a POST only
    page = client.post(cancel_url(job), follow=True)
    assert page.redirect_chain == [(live, 302)]
    job.refresh_from_db()
    assert (job.state, job.message) == ("cancelled", "cancelled by grace") and job.finished_at is not None
    assert page.context["progress"]["state"] == "cancelled" and page.context["progress"]["finished"]
    assert 'id="job-cancel"' not in page.content.decode()
    assert [str(m) for m in page.context["messages"]] == [
        f"Job {job.pk} is cancelled: it stores nothing more, and what it stored stays."]
    again = client.post(cancel_url(job), follow=True)
    assert [str(m) for m in again.context["messages"]] == [
        f"Job {job.pk} had already ended (cancelled): there was nothing to cancel."]


def test_cancelling_needs_the_csrf_token(db, job):
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff_user("ada", is_superuser=True))
    assert client.post(cancel_url(job)).status_code == 403
    job.refresh_from_db()
    assert job.state == "pending"
