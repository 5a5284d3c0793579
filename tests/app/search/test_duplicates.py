import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from searchapp.models import Formula, Post
from searchapp.search.duplicates import first_of_each, with_copies
from tests.app.factories import PAGES, index_thread_pages


@pytest.mark.parametrize("order, keys, kept, copies", [
    ([0, 1, 2], ["a", "b", "c"], [0, 1, 2], {}),
    ([2, 0, 1], ["a", "b", "a"], [2, 1], {2: [0]}),
    ([0, 1, 2, 3], ["a", "a", "b", "a"], [0, 2], {0: [1, 3]}),
    ([1, 0], [None, None], [1, 0], {}),  # posts without an address are never merged
    ([], [], [], {}),
])
def test_the_first_of_each_key_is_kept_and_names_the_later_ones(order, keys, kept, copies):
    assert first_of_each(order, keys) == (kept, copies)


@given(st.lists(st.sampled_from(["a", "b", "c", None]), max_size=30), st.randoms())
def test_every_candidate_is_kept_or_a_copy_of_an_earlier_one_with_its_key(keys, random):
    order = list(range(len(keys)))
    random.shuffle(order)
    kept, copies = first_of_each(order, keys)
    assert sorted(kept + [i for later in copies.values() for i in later]) == sorted(order)
    assert kept == [i for i in order if i in kept]  # the order is kept
    named = [keys[i] for i in kept if keys[i] is not None]
    assert len(named) == len(set(named))
    for first, later in copies.items():
        assert all(keys[i] == keys[first] and order.index(i) > order.index(first) for i in later)


def test_a_page_reads_its_candidates_and_their_copies():
    assert with_copies([2, 1], {2: [0, 3]}) == [2, 0, 3, 1]


@pytest.mark.django_db
def test_a_formula_held_by_overlapping_corpora_is_listed_once_naming_the_others(index_file):
    index_file(corpus="sample")
    index_file(corpus="full", name="full.txt")
    index_file(["p^2 + q^2 = r^2"], corpus="other", name="other.txt")
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=100)
    latex = [hit.formula.latex for hit in results.hits]
    assert len(latex) == len(set(latex)) == results.candidates == Formula.objects.values("visual_key").distinct().count()
    top = results.hits[0]
    assert top.formula.corpus.name == "sample"  # equal scores: the first indexed leads
    assert [(f.corpus.name, f.latex) for f in top.also] == [("full", top.formula.latex)]
    assert next(hit for hit in results.hits if hit.formula.latex == "p^2 + q^2 = r^2").also == []
    one_corpus = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", corpus="full").hits
    assert [hit.formula.corpus.name for hit in one_corpus] == ["full"] * 7 and not any(hit.also for hit in one_corpus)


@pytest.mark.django_db
def test_pages_of_overlapping_corpora_never_repeat_a_formula(index_file):
    index_file(corpus="sample")
    index_file(corpus="full", name="full.txt")
    pages = [Formula.objects.search("a^2 + b^2 = c^2", k=3, offset=offset).hits for offset in (0, 3, 6)]
    keys = [hit.formula.visual_key for page in pages for hit in page]
    assert len(keys) == len(set(keys)) == 7  # the 7 distinct formulas, then the pages end
    assert [hit.rank for page in pages for hit in page] == list(range(1, 8))


@pytest.mark.django_db
def test_an_answer_held_by_overlapping_corpora_is_listed_once_naming_the_others(tmp_path, client):
    index_thread_pages(tmp_path / "pages", PAGES, corpus="threads")
    index_thread_pages(tmp_path / "pages", PAGES, corpus="threads-again")
    results = Post.objects.search("Are the eigenvalues of a symmetric matrix always real?", k=10, mode="text")
    urls = [hit.post.url for hit in results.hits]
    assert urls[0] and len(urls) == len(set(urls)) == results.candidates == 4
    top = results.hits[0]
    assert top.post.corpus.name == "threads" and [(p.corpus.name, p.url) for p in top.also] == [("threads-again", urls[0])]
    answer = client.get("/api/posts", {"q": "symmetric matrix eigenvalues", "k": 1}).json()["results"][0]
    assert answer["also_in"] == [{"id": top.also[0].pk, "corpus": "threads-again"}]
    page = client.get("/questions", {"q": "symmetric matrix eigenvalues"}).content.decode()
    assert f'href="/post/{top.also[0].pk}">threads-again</a>' in page
    post_page = client.get(f"/post/{top.post.pk}").content.decode()
    assert f'also in <a href="/post/{top.also[0].pk}">threads-again</a>' in post_page


@pytest.mark.django_db
def test_distinct_posts_of_one_corpus_citing_one_page_are_each_listed(index_file, client):
    """The starter corpus has five notes on Wikipedia's Logarithm article: one address, five posts."""
    article = "https://en.wikipedia.org/wiki/Logarithm"
    notes = [json.dumps({"id": f"log-{n}", "title": f"Logarithm rule {n}", "url": article,
                         "body": f"A rule of logarithms: $\\log(x^{n}) = {n}\\log x$."}) for n in (2, 3, 4)]
    index_file(notes, corpus="notes", name="notes.jsonl", format="jsonl")
    results = Post.objects.search("rules of logarithms", k=10, mode="text")
    assert sorted(hit.post.source_id for hit in results.hits) == ["log-2", "log-3", "log-4"]
    assert results.candidates == 3 and all(hit.also == [] for hit in results.hits)
    note = Post.objects.get(source_id="log-2")
    assert "also in" not in client.get(f"/post/{note.pk}").content.decode()
