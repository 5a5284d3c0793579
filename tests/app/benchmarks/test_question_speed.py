import pytest

from searchapp.benchmarks import question_speed
from searchapp.models import IndexJob, Post
from tests.app.factories import SPEED_QUESTIONS as QUESTIONS

pytestmark = pytest.mark.django_db

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
    assert report["cold_pass"]["mode_used"] == question_speed.DEFAULT_MODE and report["cold_pass"]["p50"] > 0
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
