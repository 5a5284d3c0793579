"""`--workers N`: a folder indexed by one real Celery worker, then by two, stores the same posts, formulas and
occurrences."""
import pytest

from searchapp.benchmarks.workers import compare_workers
from searchapp.models import IndexJob, Post

NOTES = {
    f"notes/{name}.md": f"# {name.title()}\n\nWe use $x^2 + y^2$ and $\\frac{{a_{index}}}{{b}}$ here.\n\n"
                        f"## More\n\n$$\\sum_{{i=1}}^{{{index}}} i^{index} = {name}$$ and $x^2 + y^2$ again.\n"
    for index, name in enumerate(["alpha", "beta", "gamma", "delta", "epsilon", "zeta"], start=1)
}
"""Six documents of two sections each, sharing formulas: parts stored at once insert the same keys."""


@pytest.mark.timeout(1200)  # four workers starting on a loaded 2-core machine: a hang guard, not a budget
@pytest.mark.django_db(transaction=True)  # the workers read what this process commits
def test_two_workers_store_what_one_worker_stores(tmp_path):
    for relative, text in NOTES.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    report = compare_workers(tmp_path / "notes", "documents", 2, progress=lambda message: None)
    assert report["differences_from_one_worker"] == {"posts": 0, "formulas": 0, "occurrences": 0}
    assert report["same_as_one_worker"] and report["workers"] == 2 and report["speedup_vs_one"] > 0
    assert (report["parts"], report["workers_posts"]) == (6, 12) and report["workers_formulas"] > 6
    assert not IndexJob.objects.exists() and not Post.objects.exists()  # both corpora deleted afterwards
