import json

import pytest
from django.core.management import call_command

from searchapp.embedding import get_fusion
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Post
from tests.ml.factories import formula_span, thread_page

pytestmark = pytest.mark.django_db
TOPICS = ["prime numbers", "matrix eigenvalues", "definite integrals", "power series", "group theory", "probability"]


def index_pages(folder, count: int) -> None:
    folder.mkdir()
    for i in range(count):
        topic = TOPICS[i % len(TOPICS)]
        page = thread_page(f"<p>A question about {topic}, number {i}: is {formula_span(1000 + i, f'x^{{{i}}}')} true?</p>",
                           f"<p>An answer about {topic}: yes, {formula_span(2000 + i, f'y_{{{i}}}+1')} holds.</p>",
                           title=f"{topic} {i}")
        (folder / f"{10 * i + 1}_{10 * i + 2}.html").write_text(
            page.replace('question_id="11"', f'question_id="{10 * i + 1}"').replace('answer_id="12"', f'answer_id="{10 * i + 2}"'))
    assert run_job(start_index_job(folder, "mse_html", "threads", enqueue=False)).state == "done"


def test_training_saves_the_fusion_and_stores_every_posts_marf_vector(tmp_path, settings, capsys):
    out, cache = tmp_path / "fusion", tmp_path / "cache"
    settings.MATHSEARCH_FUSION_DIR = out  # none yet: the pages are indexed without MaRF vectors
    get_fusion.cache_clear()
    index_pages(tmp_path / "pages", 24)
    assert not Post.objects.filter(fused__isnull=False).exists()
    try:
        call_command("train_fusion", "--corpus", "threads", "--out", str(out), "--epochs", "1", "--cache", str(cache),
                     "--threads", "1")
        assert get_fusion() is not None
    finally:
        get_fusion.cache_clear()
    report = json.loads((out / "config.json").read_text())["report"]
    assert report["pairs"] == 24 and report["held_out"] == 2 and len(report["losses"]) == 1
    assert Post.objects.filter(fused__isnull=False).count() == Post.objects.count() == 48
    assert len(list(cache.glob("threads-*.pickle"))) == 1
    call_command("train_fusion", "--corpus", "threads", "--out", str(out), "--epochs", "1", "--cache", str(cache),
                 "--threads", "1")
    assert "reading the encoded posts from" in capsys.readouterr().out
