import json

import pytest
from django.core.management import CommandError, call_command

from ml.evaluation.metrics import evaluate
from searchapp.management.commands.evaluate_pool import _labelled, _markdown, _render, _report, _text

DEV_QRELS = "arqmath/qrels/qrels.arqmath-2020-task2-dev-visual_ids.txt"
QRELS = {f"T{i}": {"a": 3, "b": 2, "c": 0, "d": 0} for i in range(6)}
BEST = evaluate({topic: [("a", 4.0), ("b", 3.0), ("c", 2.0), ("d", 1.0)] for topic in QRELS}, QRELS)
WORST = evaluate({topic: [("d", 4.0), ("c", 3.0), ("b", 2.0), ("a", 1.0)] for topic in QRELS}, QRELS)
MIXED = evaluate({topic: [("a", 4.0), ("c", 3.0), ("d", 2.0), ("b", 1.0)] for topic in QRELS}, QRELS)


def report(untrained: dict[int, dict[str, dict]]) -> dict:
    trained = {"M": {"max": BEST, "avg": WORST}}
    return _report({"random": MIXED}, trained, untrained)


def test_models_can_be_labelled_for_the_table(tmp_path):
    assert _labelled(f"Outer={tmp_path}") == ("Outer", tmp_path)
    assert _labelled(str(tmp_path)) == (str(tmp_path), tmp_path)


def test_a_model_that_is_not_a_directory_is_named_in_the_error(shared_data):
    qrels = shared_data / DEV_QRELS
    with pytest.raises(CommandError, match="--model 'SLG=/nope': /nope is not a model directory"):
        call_command("evaluate_pool", "--qrels", str(qrels), "--model", "SLG=/nope", "--markdown")


def test_untrained_seeds_must_be_positive(shared_data):
    with pytest.raises(CommandError, match="--untrained-seeds must be at least 1, got 0"):
        call_command("evaluate_pool", "--qrels", str(shared_data / DEV_QRELS), "--untrained-seeds", "0")


def test_rows_keep_the_keys_other_reports_read_and_add_intervals():
    rows = report({0: {"max": MIXED, "avg": WORST}})["configurations"]
    assert list(rows) == ["random", "M MAX", "M AVG", "untrained (same architecture) MAX",
                          "untrained (same architecture) AVG"]
    assert {"ndcg_prime", "map_prime", "p10_prime", "judged_at_10", "ci95"} <= set(rows["random"])
    assert rows["M MAX"]["map_prime"] == 1.0 and rows["M MAX"]["ci95"]["map_prime"] == [1.0, 1.0]
    assert "vs_untrained" not in rows["random"] and "vs_untrained" not in rows["untrained (same architecture) MAX"]
    json.dumps(rows)


def test_model_rows_are_compared_with_seed_0_under_the_same_fusion():
    rows = report({0: {"max": MIXED, "avg": WORST}})["configurations"]
    assert rows["M MAX"]["untrained_twin"] == "untrained (same architecture) MAX"
    assert rows["M AVG"]["vs_untrained"]["map_prime"] == {"diff": 0.0, "lo": 0.0, "hi": 0.0}
    better = rows["M MAX"]["vs_untrained"]["map_prime"]
    assert better["diff"] == pytest.approx(BEST["map_prime"] - MIXED["map_prime"], abs=1e-4) and better["lo"] > 0
    assert "vs_best_untrained" not in rows["M MAX"]


def test_several_seeds_name_the_best_per_fusion_but_pair_with_seed_0():
    result = report({0: {"max": WORST, "avg": MIXED}, 1: {"max": MIXED, "avg": WORST}})
    assert result["best_untrained_seed"] == {"MAX": 1, "AVG": 0}
    rows = result["configurations"]
    assert "untrained seed 1 MAX" in rows
    assert rows["M MAX"]["untrained_twin"] == "untrained seed 0 MAX"
    assert rows["M MAX"]["best_untrained_twin"] == "untrained seed 1 MAX"
    assert rows["M MAX"]["vs_untrained"]["map_prime"]["diff"] == pytest.approx(1 - WORST["map_prime"], abs=1e-4)
    assert rows["M MAX"]["vs_best_untrained"] == pytest.approx(
        {m: BEST[m] - MIXED[m] for m in ("map_prime", "p10_prime")}, abs=1e-4)


def test_text_and_markdown_show_intervals_and_the_best_seed():
    result = report({0: {"max": WORST, "avg": MIXED}, 1: {"max": MIXED, "avg": WORST}})
    text = _render(result, _text, judged_column=True)
    assert "MAP′ [95% CI]" in text[0] and "judged@10" in text[0]
    assert "best untrained seed by MAP′: MAX seed 1, AVG seed 0" in text
    # M MAX − seed 0 MAX: MAP′ 1 − (1/3 + 2/4)/2 on every topic; − seed 1 MAX: 1 − (1 + 2/4)/2.
    versus = next(line for line in text if line.startswith("M MAX") and "Δ" not in line and "+" in line)
    assert "+0.583 [+0.583, +0.583]" in versus and versus.endswith("+0.250 / +0.000 (untrained seed 1 MAX)")
    markdown = _render(result, _markdown, judged_column=False)
    assert markdown[0] == "| configuration | nDCG′ [95% CI] | MAP′ [95% CI] | P′@10 [95% CI] |"
    assert "| M MAX | 1.000 [1.000, 1.000] | 1.000 [1.000, 1.000] | 0.200 [0.200, 0.200] |" in markdown
