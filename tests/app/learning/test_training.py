"""The shipped ranker's training report: the gain cross-validated under every fold seed, printed with it."""
from ml.ranking.cross_validation import FOLD_SEEDS
from searchapp.learning.training import Judged, cv_lines, train_on_dev
from tests.ml.ranking.test_cross_validation import judged


def test_the_development_report_gives_the_gain_under_each_fold_seed_and_prints_it():
    data, qrels = judged(10)
    _, report = train_on_dev(Judged(data, qrels, []))
    cv = report["cross_validated"]
    assert [entry["seed"] for entry in cv["fold_seeds"]] == list(FOLD_SEEDS)
    assert cv["fold_seeds"][0]["learned"] == cv["learned"]  # the first seed's is the full report
    lines = cv_lines(cv)
    assert sum(line.strip().startswith("fold seed ") for line in lines) == len(FOLD_SEEDS)
    assert f"Δ MAP′ {cv['fold_seeds'][2]['delta_vs_dense']['map_prime']:+.4f}" in lines[-1]
