"""The admin's own pages: the job list, corpus re-index and delete, posts looked up, a corpus's ranker history."""
import re

import psycopg
import pytest
from django.db import connection

from searchapp.indexing import jobs
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job, running_job_ids
from searchapp.models import Corpus, CorpusRanker, Feedback, Formula, IndexJob, Post, PostingList
from searchapp.tasks import ping
from tests.app.factories import UPLOAD, latex_file, staff_user
from tests.app.indexing.test_worker_crash import arqmath_tsv
from tests.conftest import database_url
from tests.polling import job_until

pytestmark = pytest.mark.django_db


def test_the_job_list_shows_each_jobs_rate_and_where_its_time_went(staff, upload_dir):
    staff.post(UPLOAD, {"file": latex_file(["x^2", "y^3", r"\sqrt{z}"]), "format": "latex", "corpus": "c"})
    job = run_job(IndexJob.objects.get())
    IndexJob.objects.filter(pk=job.pk).update(timings={"parse": 12.4, "embed": 3.2, "store": 30.0, "text": 0.01})
    page = staff.get("/admin/searchapp/indexjob/").content.decode()
    assert "Formulas/s" in page and "Seconds per stage" in page
    assert "store 30 · parse 12 · embed 3" in page  # slowest first; stages under half a second left out
    detail = staff.get(f"/admin/searchapp/indexjob/{job.pk}/change/").content.decode()
    assert "store 30 · parse 12 · embed 3" in detail


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
