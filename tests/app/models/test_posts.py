"""Posts as rows: one source id per corpus, a thread's tags and answers, copies in other corpora, the full-text terms
Postgres keeps of each. (`Post.objects.search` is tested with the question search, tests/app/search.)"""
import pytest
from django.contrib.postgres.search import SearchQuery
from django.db import IntegrityError, transaction

from searchapp.models import Corpus, Post

pytestmark = pytest.mark.django_db


@pytest.fixture
def threads():
    """A thread tagged `algebra` with two answers, an untagged one without, and a note that is neither."""
    corpus = Corpus.objects.create(name="threads")
    question = Post.objects.create(corpus=corpus, source_id="1", title="Is x > 0?", tags=["algebra"])
    answers = [Post.objects.create(corpus=corpus, source_id=str(n), parent=question, body=f"Answer {n}")
               for n in (2, 3)]
    lone = Post.objects.create(corpus=corpus, source_id="4", title="Unanswered")
    note = Post.objects.create(corpus=corpus, source_id="5", title="A note", tags=["geometry"])
    return {"question": question, "answers": answers, "lone": lone, "note": note}


def test_a_source_id_is_stored_once_per_corpus(threads):
    with pytest.raises(IntegrityError), transaction.atomic():
        Post.objects.create(corpus=threads["question"].corpus, source_id="1")
    Post.objects.create(corpus=Corpus.objects.create(name="other"), source_id="1")
    assert Post.objects.filter(source_id="1").count() == 2


def test_a_question_search_returns_answers_and_posts_that_are_neither(threads):
    assert set(Post.objects.answers()) == {*threads["answers"], threads["lone"], threads["note"]}


def test_a_thread_s_tags_are_its_question_s(threads):
    assert set(Post.objects.tagged("algebra")) == {threads["question"], *threads["answers"]}
    assert set(Post.objects.tagged("geometry")) == {threads["note"]}
    assert Post.objects.tagged("").count() == 5


def test_an_answer_is_named_after_its_question(threads):
    answer = Post.objects.select_related("parent").get(pk=threads["answers"][0].pk)
    assert answer.display_title == "Answer to: Is x > 0?" and str(answer) == "2"
    assert threads["lone"].display_title == "Unanswered" and str(threads["lone"]) == "Unanswered"
    assert threads["lone"].get_absolute_url() == f"/post/{threads['lone'].pk}"


def test_copies_are_the_same_address_and_id_in_other_corpora_by_corpus_name():
    url = "https://math.stackexchange.com/questions/7"
    copies = [Post.objects.create(corpus=Corpus.objects.create(name=name), source_id="7", url=url)
              for name in ("c", "a", "b")]
    Post.objects.create(corpus=Corpus.objects.create(name="d"), source_id="8", url=url)
    assert [copy.corpus.name for copy in Post.objects.copies_of(copies[0])] == ["a", "b"]
    unaddressed = Post.objects.create(corpus=copies[0].corpus, source_id="9")
    assert not Post.objects.copies_of(unaddressed).exists()


def test_postgres_keeps_the_english_terms_of_the_title_and_text(threads):
    found = Post.objects.filter(words=SearchQuery("answers", config="english"))
    assert set(found) == set(threads["answers"])
    assert not Post.objects.filter(words=SearchQuery("the", config="english")).exists()  # a stop word


def test_a_thread_without_an_embedding_has_no_related_threads(threads):
    assert not Post.objects.related_to(threads["answers"][0]).exists()
