import pytest

from searchapp.benchmarks import question_speed
from searchapp.benchmarks.question_overlap import exhaustive_overlap
from searchapp.models import IndexJob, Post
from searchapp.search.posts import read_question
from tests.app.factories import write_thread_pages
from tests.ml.factories import formula_span as span

pytestmark = pytest.mark.django_db

PAGES = {  # three questions, one with two answers: 7 real posts
    "11_12.html": ("Sum of squares", f"<p>Is {span(1, 'a^2+b^2')} a square? I tried small cases.</p>",
                   f"<p>Yes: {span(2, '3^2+4^2=5^2')}. Pythagorean triples give more.</p>"),
    "11_13.html": ("Sum of squares", f"<p>Is {span(1, 'a^2+b^2')} a square? I tried small cases.</p>",
                   f"<p>Not always: {span(3, '1^2+1^2=2')} is not.</p>"),
    "21_22.html": ("An integral", f"<p>How do I compute {span(4, 'int_0^1 x^2 dx')}? It looks easy.</p>",
                   f"<p>Use the power rule: {span(5, 'x^3/3')}. Evaluate at the bounds.</p>"),
    "31_32.html": ("A limit", f"<p>Find {span(6, 'lim_{n} (1+1/n)^n')}. Why is it e?</p>",
                   f"<p>Take logarithms: {span(7, 'n log(1+1/n)')} tends to 1.</p>"),
}
QUESTIONS = ["Is $x^2+y^2$ a square number?", "How do I integrate $t^2$ from 0 to 1?", "A limit of $(1+1/n)^n$"]


@pytest.fixture
def pages(tmp_path):
    write_thread_pages(tmp_path / "pages", PAGES)
    return tmp_path / "pages"


def test_a_tiny_benchmark_indexes_pages_then_variants_and_reports_every_number(pages, tmp_path):
    variants = tmp_path / "posts.jsonl"
    report = question_speed.benchmark(pages, QUESTIONS, 16, variants, overlap_sample=2, progress=lambda _: None)
    assert report["posts"] == 16 and report["ingest"]["real_posts"] == 7 and not report["ingest"]["reused"]
    assert len(variants.read_text().splitlines()) == 9
    answered = Post.objects.filter(source_id__startswith="v", parent__isnull=False)
    assert answered.exists() and all(post.parent.source_id.startswith("v") for post in answered)
    ingest = report["ingest"]
    assert (ingest["pages"]["posts"], ingest["variants"]["posts"], ingest["all"]["posts"]) == (8, 9, 17)  # 11 twice
    assert report["ingest_posts_per_s"] > 0 and ingest["all"]["formulas"] > ingest["pages"]["formulas"] > 0
    assert set(report["ingest"]["pages"]["stages"]) >= {"parse", "embed", "text", "store", "merge"}
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]
    assert set(report["modes"]) == set(question_speed.MODES)
    # at 16 posts the channels hold every post: the search is exhaustive, and must agree with the exact scores
    assert report["overlap_at_10"] == 1.0 and report["overlap_questions"] == 2
    assert report["all_bytes_per_post"] > report["bytes_per_post"]["searchapp_post"] > 0


def test_a_kept_benchmark_is_reused_with_the_rates_it_recorded(pages, tmp_path):
    variants = tmp_path / "posts.jsonl"
    first = question_speed.build(pages, 12, variants, progress=lambda _: None)
    again = question_speed.build(pages, 12, variants, progress=lambda _: None)
    assert again["reused"] and again["all"] == first["all"] and IndexJob.objects.count() == 2


def test_fewer_posts_than_the_pages_hold_is_refused(pages, tmp_path):
    with pytest.raises(question_speed.TooFewPosts, match="the real pages alone are 7 posts"):
        question_speed.build(pages, 5, tmp_path / "posts.jsonl", progress=lambda _: None)


def test_the_overlap_counts_only_posts_scored_among_the_exact_top(pages, tmp_path):
    question_speed.build(pages, 30, tmp_path / "posts.jsonl", progress=lambda _: None)
    question = read_question(QUESTIONS[0])
    found = [hit.post.pk for hit in Post.objects.search(QUESTIONS[0], k=30, corpus=question_speed.CORPUS).hits]
    assert len(found) > 10
    assert exhaustive_overlap(question_speed.CORPUS, [question, question], [found[:10], found[-10:]]) == [
        1.0, pytest.approx(sum(hit in found[:10] for hit in found[-10:]) / 10, abs=0.1)]
