"""The shipped ranker's training report: the gain cross-validated under every fold seed, printed with it."""
from ml.ranking.cross_validation import FOLD_SEEDS
from ml.ranking.ranker import CAPACITIES, fit
from searchapp.learning.training import Judged, beats_before, cv_lines, held_out_lines, held_out_report, train_on_dev
from tests.ml.factories import judged


def test_the_development_report_gives_the_gain_under_each_fold_seed_and_prints_it():
    data, qrels = judged(10)
    _, report = train_on_dev(Judged(data, qrels, []))
    cv = report["cross_validated"]
    assert [entry["seed"] for entry in cv["fold_seeds"]] == list(FOLD_SEEDS)
    assert cv["fold_seeds"][0]["learned"] == cv["learned"]  # the first seed's is the full report
    lines = cv_lines(cv)
    assert sum(line.strip().startswith("fold seed ") for line in lines) == len(FOLD_SEEDS)
    assert f"Δ MAP′ {cv['fold_seeds'][2]['delta_vs_dense']['map_prime']:+.4f}" in lines[-1]


def scores(map_prime: float, p10_prime: float) -> dict:
    return {"map_prime": map_prime, "p10_prime": p10_prime}


def test_a_corpus_ranker_is_used_only_if_it_ranks_at_least_as_well_as_what_the_corpus_has_without_it():
    shipped = {"dense": scores(0.5, 0.5), "shipped": scores(0.8, 0.6)}
    assert not beats_before({"before": shipped, "after": scores(0.7, 0.6)})  # above dense, below the shipped ranker
    assert beats_before({"before": shipped, "after": scores(0.9, 0.5)})  # the mean of MAP′ and P′@10 decides
    assert beats_before({"before": shipped, "after": scores(0.8, 0.6)})  # a tie: trained on more, it is used
    assert beats_before({"before": {"dense": scores(0.5, 0.5)}, "after": scores(0.5, 0.5)})  # no shipped ranker


def test_topics_only_reported_are_ranked_by_the_trained_ranker_beside_dense_and_random():
    ranker = fit(Judged(*judged(10), []).training(), CAPACITIES[1])
    report = held_out_report(ranker, Judged(*judged(6, seed=1), ["B.369"]))
    assert report["topics"] == 6 and report["unreadable_topics"] == ["B.369"]
    assert report["learned"]["map_prime"] > report["dense"]["map_prime"] + 0.1  # feature 2 decides, dense is noise
    assert report["delta_vs_dense"]["map_prime"][1] > 0  # the interval's lower end
    assert any(line.strip().startswith("random") for line in held_out_lines(report))
