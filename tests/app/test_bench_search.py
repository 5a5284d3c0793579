"""`bench_search` end to end, in a child process with its own throw-away database."""
import json
import subprocess
import sys

from tests.conftest import REPO


def test_a_collection_within_one_shortlist_is_searched_exactly(shared_data):
    """150 formulas are fewer than a shortlist, so every query scores all of them: overlap must be 1."""
    run = subprocess.run([sys.executable, "manage.py", "bench_search", "--formulas", "150", "--json", "--drop",
                          "--data", str(shared_data)], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert (report["formulas"], report["candidates_mean"], report["overlap_at_10"]) == (150, 150, 1.0)
    assert report["queries"] >= 190
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"]
    assert 0 < report["dense_p50_ms"] <= report["dense_p95_ms"]  # the dense order, timed in the same run
    assert report["index_formulas_per_s"] > 0 and report["index_bytes_per_formula"] > 0
    assert report["exhaustive_p50_ms"] > 0 and report["speedup_p50"] > 0
