"""The staff pages of `admin_views`: upload, a job's live page and progress, feedback per query, the rankers page.
Every one asks for a model permission, as the admin's model pages do: staff status alone shows nothing."""
import io
import re
import zipfile

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from corpora import corpus_files
from searchapp.indexing import jobs
from searchapp.indexing.jobs import run_job
from searchapp.models import Corpus, Feedback, Formula, IndexJob, Post
from tests.app.factories import UPLOAD, latex_file, staff_user
from tests.ml.factories import formula_span

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


@pytest.mark.parametrize("path", [
    pytest.param(UPLOAD, id="upload"),
    pytest.param("/admin/searchapp/indexjob/1/progress.json", id="progress"),
    pytest.param("/admin/searchapp/feedback/by-query/", id="feedback-by-query"),
    pytest.param("/admin/searchapp/feedback/rankers/", id="rankers"),
])
def test_staff_pages_need_a_staff_login(client, django_user_model, path):
    assert client.get(path).status_code == 302
    client.force_login(django_user_model.objects.create_user("bob", password="pw"))
    assert client.get(path).status_code == 302


def test_upload_page_explains_every_format_the_form_offers(staff):
    """The help lists the model's formats (the form's choices), each by name with what it reads."""
    page = staff.get(UPLOAD).content.decode()
    listed = re.findall(r'<li><strong>([^<]+)</strong> \(<code>(\w+)</code>\): (.+?)</li>',
                        page.split('class="help upload-formats"')[1], re.S)
    offered = re.findall(r'<option value="(\w+)"', page)
    assert [value for _, value, _ in listed] == offered == [value for value, _ in IndexJob.Format.choices]
    assert len(offered) == 7 and all(help.strip() for _, _, help in listed)
    assert "<code>\\input</code>" in page  # markup of the help, not escaped


def test_upload_stores_the_file_and_starts_a_job(staff, upload_dir):
    response = staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3", r"\frac{1}{"], "my corpus!.txt"),
                                   "format": "latex", "corpus": "uploaded"})
    job = IndexJob.objects.get()
    assert response.status_code == 302 and response.url == f"/admin/searchapp/indexjob/{job.pk}/live/"
    stored = list(upload_dir.glob("*/*"))
    assert len(stored) == 1 and stored[0].name == "my_corpus_.txt"
    assert (job.corpus.name, job.format, job.total, job.path) == ("uploaded", "latex", None, str(stored[0]))


def test_an_upload_returns_before_its_file_is_read_and_its_page_says_the_job_counts_it(staff, upload_dir, monkeypatch):
    def unread(*args):
        raise AssertionError("the upload's request read the file")

    monkeypatch.setattr(corpus_files, "read_records", unread)  # what counting reads with
    monkeypatch.setattr(jobs, "read_records", unread)
    response = staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3", "z"]), "format": "latex", "corpus": "c"})
    job = IndexJob.objects.get()
    assert response.status_code == 302 and job.total is None
    IndexJob.objects.filter(pk=job.pk).update(state="running", started_at=timezone.now())  # a worker counts it
    progress = staff.get(f"/admin/searchapp/indexjob/{job.pk}/progress.json").json()
    assert (progress["total"], progress["percent"], progress["eta_s"], progress["finished"]) == (None, 0.0, None, False)
    assert "counting records…" in staff.get(f"/admin/searchapp/indexjob/{job.pk}/live/").content.decode()
    assert "0 / counting…" in staff.get("/admin/searchapp/indexjob/").content.decode()
    monkeypatch.undo()
    assert (run_job(job).state, job.total) == ("done", 3)


def test_a_folder_of_thread_pages_is_uploaded_as_a_zip(staff, upload_dir):
    from tests.ml.factories import thread_page

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("threads/11_12.html", thread_page(f"<p>Is {formula_span(1, 'a^2+b^2')} a square?</p>", "<p>No.</p>"))
        written.writestr("threads/21_22.html", thread_page("<p>Q</p>", "<p>A</p>").replace('"11"', '"21"')
                         .replace('"12"', '"22"'))
    upload = SimpleUploadedFile("threads.zip", archive.getvalue(), content_type="application/zip")
    staff.post(UPLOAD, {"file": upload, "format": "mse_html", "corpus": "pages"})
    job = run_job(IndexJob.objects.get())
    assert (job.state, job.total, job.done, job.failed) == ("done", 4, 4, 0)
    assert sorted(job.corpus.posts.values_list("source_id", flat=True)) == ["11", "12", "21", "22"]
    assert job.corpus.formulas.filter(latex="a^2+b^2").exists()


def _notes_zip(files: dict) -> SimpleUploadedFile:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as written:
        for name, text in files.items():
            written.writestr(name, text)
    return SimpleUploadedFile("notes.zip", archive.getvalue(), content_type="application/zip")


def test_uploading_documents_again_under_the_same_name_replaces_the_earlier_upload(staff, upload_dir):
    first = {"euler.md": "# Euler\n\n$$e^{i\\pi} + 1 = 0$$\n", "gauss.md": "# Gauss\n\n$$\\int e^{-x^2} dx$$\n"}
    staff.post(UPLOAD, {"file": _notes_zip(first), "format": "documents", "corpus": "notes"})
    run_job(IndexJob.objects.get())
    staff.post(UPLOAD, {"file": _notes_zip({"euler.md": first["euler.md"], "basel.md": "# Basel\n\n$$\\zeta(2)$$\n"}),
                        "format": "documents", "corpus": "notes"})
    job = run_job(IndexJob.objects.order_by("-pk").first())
    assert (job.state, job.unchanged, job.removed, job.done) == ("done", 1, 1, 1)
    assert sorted(Post.objects.values_list("source_id", flat=True)) == ["basel.md", "euler.md"]
    progress = staff.get(f"/admin/searchapp/indexjob/{job.pk}/progress.json").json()
    assert progress["summary"].startswith("2 / 2 files read (") and "1 documents unchanged · 1 removed" in progress["summary"]


def test_progress_reports_counts_rate_and_errors(staff, upload_dir):
    staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3", r"\frac{1}{"]), "format": "latex", "corpus": "c"})
    job = IndexJob.objects.get()
    url = f"/admin/searchapp/indexjob/{job.pk}/progress.json"
    assert staff.get(url).json()["state"] == "pending"
    run_job(job)
    progress = staff.get(url).json()
    assert (progress["state"], progress["total"], progress["processed"], progress["finished"]) == ("done", 3, 3, True)
    assert progress["percent"] == 100.0 and progress["rate_per_s"] > 0
    assert progress["formula_errors"] == 1 and progress["errors"][0]["line"] == 3 and progress["unit"] == "line"
    page = staff.get(f"/admin/searchapp/indexjob/{job.pk}/live/").content.decode()
    assert 'id="job-bar"' in page and "3 / 3 records" in page and "<li>line 3: formula 0: unbalanced_braces" in page


def test_errors_of_thread_pages_count_pages_and_say_how_many_were_not_kept(staff, tmp_path, monkeypatch):
    from searchapp.indexing import parts
    from tests.app.factories import index_thread_pages

    monkeypatch.setattr(parts, "MAX_KEPT_ERRORS", 3)
    pages = {f"{n}1_{n}2.html": ("Broken", "<p>Why?</p>", f"<p>{formula_span(n, chr(92) + 'frac{1}{')}</p>")
             for n in range(1, 5)}
    job = index_thread_pages(tmp_path / "pages", pages)
    progress = staff.get(f"/admin/searchapp/indexjob/{job.pk}/progress.json").json()
    assert (progress["unit"], progress["errors_total"], len(progress["errors"])) == ("page", 4, 3)
    page = staff.get(f"/admin/searchapp/indexjob/{job.pk}/live/").content.decode()
    assert "(3 of 4)" in page and "<li>page 2: formula 2: unbalanced_braces" in page


def test_oversized_uploads_are_refused(staff, upload_dir, settings):
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 10
    response = staff.post(UPLOAD, {"file": latex_file(["x^2 + y^2 + z^2"]), "format": "latex", "corpus": "c"})
    assert response.status_code == 400
    assert "the limit is 10" in response.content.decode()
    assert not IndexJob.objects.exists() and not upload_dir.exists()


def test_a_declared_huge_body_is_refused_before_reading(staff, upload_dir, settings):
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 10
    response = staff.generic("POST", UPLOAD, b"x" * 10, CONTENT_TYPE="multipart/form-data; boundary=zz",
                             CONTENT_LENGTH=str(10**9))
    assert response.status_code == 413
    assert not IndexJob.objects.exists()


def test_invalid_upload_form_shows_field_errors(staff, upload_dir):
    response = staff.post(UPLOAD, {"format": "pdf", "corpus": "not a slug"})
    assert response.status_code == 400
    assert response.content.decode().count('class="errornote"') >= 3


def test_feedback_is_listed_per_query(staff, index_file):
    index_file()
    formulas = list(Formula.objects.all()[:3])
    for formula, kind in zip(formulas, ["relevant", "not_relevant", "click"]):
        Feedback.objects.create(query="x^2+y^2", formula=formula, kind=kind, rank=1)
    Feedback.objects.create(query="e^x", formula=formulas[0], kind="click", rank=4)
    html = staff.get("/admin/searchapp/feedback/by-query/").content.decode()
    rows = html[html.index("<tbody>"):].split("<tr>")[1:]
    assert len(rows) == 2
    assert "x^2+y^2" in rows[1] and "<td>1</td><td>1</td><td>1</td><td>3</td>" in rows[1]
    listing = staff.get("/admin/searchapp/feedback/", {"query__exact": "e^x"})
    assert listing.status_code == 200 and "1 feedback" in listing.content.decode()


def test_rankers_page_counts_one_judgment_per_person(staff, index_file):
    """As measured before judgments were unique: 12 presses of Relevant and one of Not relevant were 13 judgments."""
    from django.core.cache import cache
    from django.test import Client

    cache.clear()  # the address's rate-limit counter, which other tests' signals may have raised
    index_file()
    formula = Formula.objects.first()
    person, other = Client(), Client()
    signal = {"query": "x^2", "formula_id": formula.pk, "rank": 1}
    for kind in ["relevant"] * 12 + ["not_relevant"]:
        person.post("/api/feedback", {**signal, "kind": kind})
    other.post("/api/feedback", {**signal, "kind": "relevant"})
    page = staff.get("/admin/searchapp/feedback/rankers/").content.decode()
    assert "1 relevant, 1 not relevant" in page


def test_rankers_page_shows_judgments_and_each_training_before_and_after(staff, index_file, corpus_rankers):
    from io import StringIO

    from django.core.management import call_command

    index_file()
    formulas = list(Formula.objects.order_by("id"))
    for query in ("x^2 + y^2", "a+b"):
        Feedback.objects.create(query=query, formula=formulas[0], kind="relevant", rank=1)
        Feedback.objects.create(query=query, formula=formulas[2], kind="not_relevant", rank=2)
    before = staff.get("/admin/searchapp/feedback/rankers/").content.decode()
    assert "2 relevant, 2 not relevant" in before and "No ranker trained on this corpus" in before
    call_command("train_ranker", "--feedback", "--corpus", "test", stdout=StringIO(), stderr=StringIO())
    after = staff.get("/admin/searchapp/feedback/rankers/").content.decode()
    assert "its own ranker" in after and after.count('<svg class="history-chart"') == 2
    assert re.search(r"<td>1</td><td>\d{4}-\d\d-\d\d \d\d:\d\d UTC</td><td>2</td><td>4</td>", after)  # training 1: 2 queries, 4 judgments
    assert after.count("<td>installed</td>") == 1  # it ranks the judged queries at least as well as the shipped ranker


def test_rankers_page_shows_the_candidate_under_test_its_interleaving_and_past_decisions(staff, judged, settings,
                                                                                         tmp_path):
    from searchapp.live.loop import learning_round
    from tests.app.factories import log_page

    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"
    settings.MATHSEARCH_INTERLEAVE_SHARE = 0.25
    candidate = learning_round("test", retrain_after=5).trained["candidate"]
    formulas = list(Formula.objects.order_by("id")[:2])
    for clicked in ([1], [1], [1], [0], [0, 1]):
        log_page("p^2 + q^2 = r^2", formulas, clicked, teams="ab", candidate=candidate)
    page = staff.get("/admin/searchapp/feedback/rankers/").content.decode()
    assert "Candidate under test" in page and "Interleaved on 25 % of searches" in page
    assert re.search(r"<td>3</td><td>1</td><td>1</td><td>5</td>\s*<td>0\.400 \[", page)  # wins, losses, ties
    assert "under test</td>" in page
    for _ in range(10):
        log_page("p^2 + q^2 = r^2", formulas, [1], teams="ab", candidate=candidate)
    assert learning_round("test", min_compared=5).decision["decision"] == "installed"
    page = staff.get("/admin/searchapp/feedback/rankers/").content.decode()
    assert "Candidate under test" not in page and "Decisions on candidates" in page
    assert f"<td>{candidate}</td><td>installed</td>" in page and "its own ranker" in page
