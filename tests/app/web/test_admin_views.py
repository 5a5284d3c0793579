"""Every staff page asks for a model permission, as the admin's model pages do: staff status alone shows nothing."""
import pytest
from django.contrib.auth.models import Permission

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
