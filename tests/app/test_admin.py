"""Staff pages: corpus upload, job progress, corpus re-index / delete, feedback per query."""
import io
import re
import zipfile

import psycopg
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from corpora import corpus_files
from searchapp.indexing import jobs
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job, running_job_ids
from searchapp.models import Corpus, CorpusRanker, Feedback, Formula, IndexJob, Post, PostingList
from searchapp.tasks import ping
from tests.app.factories import staff_user
from tests.app.indexing.test_worker_crash import arqmath_tsv
from tests.conftest import database_url
from tests.ml.factories import formula_span
from tests.polling import job_until

pytestmark = pytest.mark.django_db

UPLOAD = "/admin/searchapp/indexjob/upload/"


@pytest.fixture
def staff(db, client):
    user = staff_user("ada", password="pw", is_superuser=True)
    client.force_login(user)
    return client


@pytest.fixture
def upload_dir(settings, tmp_path):
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    return settings.MATHSEARCH_UPLOAD_DIR


def latex_file(lines, name="f.txt"):
    return SimpleUploadedFile(name, ("\n".join(lines) + "\n").encode(), content_type="text/plain")


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


def test_the_job_list_shows_each_jobs_rate_and_where_its_time_went(staff, upload_dir):
    staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3", r"\sqrt{z}"]), "format": "latex", "corpus": "c"})
    job = run_job(IndexJob.objects.get())
    IndexJob.objects.filter(pk=job.pk).update(timings={"parse": 12.4, "embed": 3.2, "store": 30.0, "text": 0.01})
    page = staff.get("/admin/searchapp/indexjob/").content.decode()
    assert "Formulas/s" in page and "Seconds per stage" in page
    assert "store 30 · parse 12 · embed 3" in page  # slowest first; stages under half a second left out
    detail = staff.get(f"/admin/searchapp/indexjob/{job.pk}/change/").content.decode()
    assert "store 30 · parse 12 · embed 3" in detail


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


def test_reindex_rebuilds_a_corpus_from_its_files(staff, upload_dir):
    staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3"]), "format": "latex", "corpus": "c"})
    run_job(IndexJob.objects.get())
    corpus = Corpus.objects.get(name="c")
    before = set(Formula.objects.values_list("id", flat=True))
    Feedback.objects.create(query="x^2", formula=Formula.objects.first(), kind="relevant", rank=1)
    asked = staff.post("/admin/searchapp/corpus/", {"action": "reindex", "_selected_action": [corpus.pk]})
    html = asked.content.decode()
    table = html[html.index('id="reindex-summary"'):]
    cells = re.findall(r"<td>([^<]*)</td>", table[:table.index("</table>")])
    assert cells == ["c", "2", "2", "1", "1"]  # corpus, formulas, posts, feedback rows, files
    assert Formula.objects.filter(pk__in=before).count() == 2  # nothing deleted before the answer
    staff.post("/admin/searchapp/corpus/", {"action": "reindex", "_selected_action": [corpus.pk], "confirm": "yes"})
    assert not Formula.objects.filter(pk__in=before).exists() and not Feedback.objects.exists()
    new_job = IndexJob.objects.filter(state="pending").get()
    run_job(new_job)
    assert Formula.objects.filter(corpus=corpus).count() == 2


def test_delete_removes_a_corpus_with_everything_in_it(staff, index_file):
    index_file()
    index_file(["z^9"], corpus="keep", name="keep.txt")
    corpus = Corpus.objects.get(name="test")
    Feedback.objects.create(query="q", formula=corpus.formulas.first(), kind="relevant", rank=1)
    selection = {"action": "delete_selected", "_selected_action": [corpus.pk]}
    confirm = staff.post("/admin/searchapp/corpus/", selection).content.decode()
    assert "Are you sure" in confirm and re.search(r"[Ff]ormulas: 7", confirm)
    response = staff.post("/admin/searchapp/corpus/", {**selection, "post": "yes"})
    assert response.status_code == 302
    assert list(Corpus.objects.values_list("name", flat=True)) == ["keep"]
    assert not Feedback.objects.exists()
    assert set(PostingList.objects.values_list("corpus_id", flat=True)) == {Corpus.objects.get().pk}


def test_the_post_list_names_answers_after_their_question_and_finds_them_by_it(staff, tmp_path):
    from tests.app.factories import index_thread_pages

    index_thread_pages(tmp_path / "pages", {"11_12.html": ("Eigenvalues of a symmetric matrix", "<p>Why real?</p>",
                                                           "<p>Take an eigenvector.</p>")})
    listing = staff.get("/admin/searchapp/post/").content.decode()
    assert "Answer to: Eigenvalues of a symmetric matrix" in listing
    found = staff.get("/admin/searchapp/post/", {"q": "symmetric"}).context["cl"].result_list
    assert sorted(post.source_id for post in found) == ["11", "12"]



def test_posts_are_looked_up_not_edited_and_link_to_their_page(staff, index_file):
    """A post edited or added by hand would miss its text vectors and formulas: posts change by re-indexing."""
    index_file([r"x^2"])
    post = Post.objects.get()
    page = staff.get(f"/admin/searchapp/post/{post.pk}/change/").content.decode()
    assert '<textarea name="body"' not in page
    view_on_site = re.search(r'href="([^"]+)" class="viewsitelink"', page).group(1)
    assert staff.get(view_on_site).url.endswith(f"/post/{post.pk}")
    assert staff.post(f"/admin/searchapp/post/{post.pk}/change/", {"body": "changed"}).status_code == 403
    assert staff.get("/admin/searchapp/post/add/").status_code == 403
    assert staff.post(f"/admin/searchapp/post/{post.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Post.objects.get().body == post.body


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


def test_a_deleted_corpus_takes_its_own_rankers_with_it(staff, index_file, corpus_rankers,
                                                      django_capture_on_commit_callbacks):
    """Their rows by cascade, their folders once that is committed."""
    from searchapp.learning.training import feedback_topics
    from searchapp.live.loop import train

    index_file()
    index_file(["z^9"], corpus="keep", name="keep.txt")
    formulas = list(Formula.objects.filter(corpus__name="test").order_by("id"))
    for query in ("x^2 + y^2", "a+b"):
        Feedback.objects.create(query=query, formula=formulas[0], kind="relevant", rank=1)
        Feedback.objects.create(query=query, formula=formulas[2], kind="not_relevant", rank=2)
    installed, _ = train("test", feedback_topics("test"), install=True)
    kept = CorpusRanker.objects.record_training(Corpus.objects.get(name="keep").pk, installed.training)
    selection = {"action": "delete_selected", "_selected_action": [Corpus.objects.get(name="test").pk], "post": "yes"}
    assert (corpus_rankers / installed.weights / "model.txt").is_file()
    with django_capture_on_commit_callbacks(execute=True):
        staff.post("/admin/searchapp/corpus/", selection)
    assert list(corpus_rankers.iterdir()) == [] and list(CorpusRanker.objects.all()) == [kept]


def test_a_corpus_page_lists_its_ranker_history_newest_first_read_only(staff, index_file):
    index_file()
    corpus = Corpus.objects.get()
    for day, state in ((1, "discarded"), (2, "worse offline")):
        CorpusRanker.objects.create(corpus=corpus, trained_at=f"2026-01-0{day}T00:00:00+00:00", state=state,
                                    training={"at": "", "queries": day, "before": {"dense": {"map_prime": 0.25,
                                                                                            "p10_prime": 0.5}},
                                              "after": {"map_prime": 0.75, "p10_prime": 0.5}},
                                    decision={"why": "interleaving shows it worse", "wins": 1, "losses": 9, "ties": 0}
                                    if state == "discarded" else None)
    page = staff.get(f"/admin/searchapp/corpus/{corpus.pk}/change/").content.decode()
    assert page.index("worse offline") < page.index("discarded")  # newest first
    assert "0.250 → 0.750" in page and "interleaving shows it worse (1 wins, 9 losses, 0 ties)" in page
    assert 'name="rankers-0-state"' not in page and "rankers-0-DELETE" not in page  # nothing to edit or delete


def test_a_corpus_keeps_its_name(staff, index_file):
    """Searches and uploads go by the name; the description may change."""
    index_file()
    corpus = Corpus.objects.get()
    change = f"/admin/searchapp/corpus/{corpus.pk}/change/"
    assert 'name="name"' not in staff.get(change).content.decode()
    staff.post(change, {"name": "renamed", "description": "ten formulas",  # and its rankers' (read-only) formset's count
                        "rankers-TOTAL_FORMS": "0", "rankers-INITIAL_FORMS": "0"})
    corpus.refresh_from_db()
    assert (corpus.name, corpus.description) == ("test", "ten formulas")
    assert 'name="name"' in staff.get("/admin/searchapp/corpus/add/").content.decode()


def test_staff_without_permissions_can_neither_upload_nor_reindex(client, django_user_model, index_file, upload_dir):
    from django.contrib.auth.models import Permission

    index_file()
    user = staff_user("bob", password="pw")
    user.user_permissions.add(Permission.objects.get(codename="view_corpus"))
    client.force_login(user)
    assert client.get(UPLOAD).status_code == 403
    assert client.post(UPLOAD, {"corpus": "x", "format": "latex", "file": latex_file(["x^2"])}).status_code == 403
    corpus = Corpus.objects.get(name="test")
    response = client.post("/admin/searchapp/corpus/", {"action": "reindex", "_selected_action": [corpus.pk]})
    assert response.status_code == 200 and not IndexJob.objects.exclude(corpus=corpus, state="done").exists()
    assert Formula.objects.filter(corpus=corpus).count() == 7  # nothing was emptied


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


DELETES = [
    pytest.param(lambda corpus: (f"/admin/searchapp/corpus/{corpus.pk}/delete/", {"post": "yes"}), id="its-page"),
    pytest.param(lambda corpus: ("/admin/searchapp/corpus/", {"action": "delete_selected", "post": "yes",
                                                             "_selected_action": [corpus.pk]}), id="selected"),
]


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


@pytest.fixture
def other_session():
    """A second database session: a worker's, holding a job's run lock as `run_job` does."""
    session = psycopg.connect(database_url(connection.settings_dict), autocommit=True)
    yield session
    session.close()


@pytest.mark.parametrize("delete", DELETES)
def test_a_corpus_whose_job_is_still_held_is_not_deleted_and_the_page_says_why(staff, tmp_path, other_session,
                                                                              monkeypatch, delete):
    monkeypatch.setattr(jobs, "STOP_WAIT_SECONDS", 0.2)
    (tmp_path / "f.txt").write_text("x^2\n")
    run_job(start_index_job(tmp_path / "f.txt", "latex", "held", enqueue=False))
    job = start_index_job(tmp_path / "f.txt", "latex", "held", enqueue=False)
    other_session.execute("SELECT pg_advisory_lock(%s, %s)", [jobs.JOB_LOCK_CLASS, job.pk])  # its runner
    url, form = delete(job.corpus)
    response = staff.post(url, form, follow=True)
    assert response.status_code == 200
    assert messages_of(response) == [
        f"The indexing job {job.pk} was still to run: cancelled first.",
        "Nothing was deleted: the corpus held is busy: an indexing job of it had not stopped within 0.2 s (cancelled, "
        "it stops after its current chunk), or other work held its rows. Try again in a moment."]
    assert Corpus.objects.filter(name="held").exists() and Formula.objects.filter(corpus__name="held").exists()
    job.refresh_from_db()
    assert job.state == "cancelled"
    other_session.execute("SELECT pg_advisory_unlock_all()")  # its runner stopped
    assert staff.post(url, form).status_code == 302
    assert not Corpus.objects.filter(name="held").exists() and not IndexJob.objects.exists()


def delete_corpus_page(staff, corpus):
    return staff.post(f"/admin/searchapp/corpus/{corpus.pk}/delete/", {"post": "yes"}, follow=True)


@pytest.mark.django_db(transaction=True)
def test_deleting_a_corpus_whose_job_a_real_worker_is_indexing_cancels_it_first_and_deletes_it(
        staff, celery_worker_process, tmp_path):
    """The worker stops after its current chunk, normally within the wait: the corpus is deleted at once; or the page
    says it is busy, and a second try once the worker has let go deletes it. Never a 503."""
    path = tmp_path / "many.tsv"
    path.write_text(arqmath_tsv())
    job = start_index_job(path, "arqmath", "doomed")
    job_until(job, lambda job: job.cursor > 0)  # a chunk committed, more to come
    response = delete_corpus_page(staff, job.corpus)
    assert response.status_code == 200
    assert messages_of(response)[0] == f"The indexing job {job.pk} was still to run: cancelled first."
    if Corpus.objects.filter(pk=job.corpus_id).exists():
        assert messages_of(response)[1].startswith("Nothing was deleted: the corpus doomed is busy")
        job_until(job, lambda job: job.pk not in running_job_ids())
        assert IndexJob.objects.get(pk=job.pk).state == "cancelled"
        assert delete_corpus_page(staff, job.corpus).status_code == 200
    assert not Corpus.objects.filter(pk=job.corpus_id).exists() and not IndexJob.objects.filter(pk=job.pk).exists()
    assert ping.delay().get()["pong"]  # the worker went on to its next task


@pytest.mark.django_db(transaction=True)
def test_a_corpus_whose_worker_cannot_stop_yet_is_said_busy_then_deleted_once_it_has(staff, celery_worker_process,
                                                                                    endless_file):
    """The worker waits in a read (the job counts an endless file): it holds the job past the wait, whatever the
    machine's speed. Once the file ends it sees the cancel, stops, and lets go."""
    job = start_index_job(endless_file.path, "latex", "endless")
    job_until(job, lambda job: job.pk in running_job_ids())
    response = delete_corpus_page(staff, job.corpus)
    assert messages_of(response) == [
        f"The indexing job {job.pk} was still to run: cancelled first.",
        f"Nothing was deleted: the corpus endless is busy: an indexing job of it had not stopped within "
        f"{jobs.STOP_WAIT_SECONDS} s (cancelled, it stops after its current chunk), or other work held its rows. Try "
        "again in a moment."]
    endless_file.end()
    job = job_until(job, lambda job: job.pk not in running_job_ids())
    assert (job.state, job.total) == ("cancelled", None)  # it stopped at its count, before indexing anything
    assert messages_of(delete_corpus_page(staff, job.corpus)) == ["The corpus “endless” was deleted successfully."]
    assert not Corpus.objects.filter(name="endless").exists()


@pytest.mark.django_db
def test_add_corpus_explains_and_links_to_the_upload(admin_client):
    page = admin_client.get("/admin/searchapp/corpus/add/").content.decode()
    assert 'href="/admin/searchapp/indexjob/upload/">uploading documents or a corpus file into it</a>' in page
    corpus = Corpus.objects.create(name="papers")
    assert "uploading documents" not in admin_client.get(f"/admin/searchapp/corpus/{corpus.pk}/change/").content.decode()
