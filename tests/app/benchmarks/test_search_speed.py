"""`bench_search` end to end, in a child process with its own throw-away database beside the suite's test database
(so two suites never build into one): a build, then a reuse."""
import json
import subprocess
import sys

from tests.conftest import REPO


def _bench(env, shared_data, *options):
    run = subprocess.run([sys.executable, "manage.py", "bench_search", "--formulas", "150", "--json", "--queries", "20",
                          "--overlap-sample", "10", "--data", str(shared_data), *options],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout), run.stderr


def test_a_collection_within_one_shortlist_is_searched_exactly_and_its_index_is_reused(service_env, shared_data):
    """150 formulas are fewer than a shortlist, so every query scores all of them: overlap must be 1."""
    built, _ = _bench(service_env, shared_data)
    assert (built["formulas"], built["candidates_mean"], built["overlap_at_10"]) == (150, 150, 1.0)
    assert built["queries"] >= 18 and len(built["overlap_queries"]) == 10  # of 20: a topic formula may not parse
    assert 0 < built["p50_ms"] <= built["p95_ms"] <= built["p99_ms"]
    assert 0 < built["dense_p50_ms"] <= built["dense_p95_ms"]  # the dense order, timed in the same run
    assert list(built["stage_p50_ms"]) == ["read", "first_stage", "exact", "order", "people", "hits"]
    assert min(built["stage_p50_ms"].values()) >= 0 and built["stage_p50_ms"]["exact"] > 0
    assert built["exhaustive_p50_ms"] > 0 and built["speedup_p50"] > 0
    assert not built["reused"] and built["sources"] == {"arqmath_judged": 150, "variants": 0}
    assert built["index_seconds"] > 0 and built["index_formulas_per_s"] > 0 and built["index_timings"]["embed"] > 0
    assert built["table_bytes"]["searchapp_formula"] > 0 and built["postings"] > 0
    assert built["codebook_centroids"] == 64 * 64  # the shipped codebook: a small index keeps it
    assert 0 < built["index_bytes_per_formula"] < built["all_bytes_per_formula"]

    reused, progress = _bench(service_env, shared_data, "--reuse", "--drop")
    assert reused["reused"] and "reusing the index of 150 formulas" in progress
    for key in ("index_seconds", "index_formulas_per_s", "index_timings", "built_at", "overlap_at_10"):
        assert reused[key] == built[key], key  # what was recorded at the build, not a new measurement
