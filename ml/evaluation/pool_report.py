"""The report of `manage.py evaluate_pool`: each topic's judged formulas ranked per model and configuration beside
the baselines, every mean with its 95 % bootstrap interval over topics and every model row with its paired
difference to the untrained encoders (seed 0) under the same fusion; as JSON rows, and as text or markdown tables.
"""
from __future__ import annotations

from corpora.ranking import Qrels, Run
from ml.evaluation import bootstrap
from ml.evaluation.baselines import latex_tfidf_run, node_label_tfidf_run, random_baseline
from ml.evaluation.dev_split import DevSplit
from ml.evaluation.metrics import METRIC_LABELS, evaluate, rounded
from ml.evaluation.model_pool_evaluation import best_seeds, evaluate_configurations, run_for, score_pools
from ml.models.encoders import NodeEncoderModel
from ml.retrieval.score_fusion import DEFAULT_FUSION

VS_BEST = ("map_prime", "p10_prime")
Table = tuple[list[str], list[list[str]]]


def evaluate_models(split: DevSplit, judged: Qrels, models: dict[str, NodeEncoderModel],
                    untrained_seeds: int = 1) -> tuple[dict, Run]:
    """The report over `models` (label → encoders), the untrained twins of the first drawn with seeds
    0..untrained_seeds-1, and the baselines; and the first model's run under the default fusion."""
    first = next(iter(models.values()))
    trained, run = {}, {}
    for label, encoder in models.items():
        scores = score_pools(split, judged, encoder)
        trained[label] = evaluate_configurations(scores, judged)
        if encoder is first:
            run = run_for(scores, DEFAULT_FUSION)
    untrained = {seed: evaluate_configurations(score_pools(split, judged, untrained_like(first, seed)), judged)
                 for seed in range(untrained_seeds)}
    return pool_report(baseline_results(judged, split), trained, untrained), run


def baseline_results(judged: Qrels, split: DevSplit) -> dict[str, dict]:
    """Random, LaTeX tf-idf and node-label tf-idf on the same pools."""
    return {"random": random_baseline(judged, seed=0, repeats=100),
            "latex tf-idf": evaluate(latex_tfidf_run(judged, split.topics_latex, split.doc_latex()).run, judged),
            "node-label tf-idf": evaluate(node_label_tfidf_run(judged, split.topics_latex, split.doc_texts()).run,
                                          judged)}


def pool_report(baselines: dict[str, dict], trained: dict[str, dict[str, dict]], untrained: dict[int, dict[str, dict]]) -> dict:
    """Rows as JSON: the rounded means (the keys other reports read), `ci95`, and for model rows `vs_untrained`."""
    best = best_seeds(untrained) if len(untrained) > 1 else {}
    rows = {name: _row(result) for name, result in baselines.items()}
    for label, results in trained.items():
        for configuration, result in results.items():
            rows[f"{label} {configuration.upper()}"] = {**_row(result), **_versus(result, configuration, untrained, best)}
    for seed, results in untrained.items():
        for configuration, result in results.items():
            rows[f"{untrained_label(seed, len(untrained))} {configuration.upper()}"] = _row(result)
    report = {"topics": next(iter(baselines.values()))["topics"],
              "bootstrap": {"resamples": bootstrap.RESAMPLES, "seed": bootstrap.SEED, "level": bootstrap.LEVEL},
              "untrained_seeds": len(untrained),
              "configurations": rows}
    if best:
        report["best_untrained_seed"] = {configuration.upper(): seed for configuration, seed in best.items()}
    return report


def _row(result: dict) -> dict:
    intervals = bootstrap.topic_intervals(result["per_topic"], tuple(METRIC_LABELS))
    return {**rounded(result), "ci95": {m: [round(i.lo, 4), round(i.hi, 4)] for m, i in intervals.items()}}


def _versus(result: dict, configuration: str, untrained: dict[int, dict[str, dict]], best: dict[str, int]) -> dict:
    """Paired differences to seed 0's twin under the same fusion; with several seeds, also to the best one's."""
    twin = untrained[0][configuration]
    paired = bootstrap.paired_intervals(result["per_topic"], twin["per_topic"], tuple(METRIC_LABELS))
    fields: dict = {"untrained_twin": f"{untrained_label(0, len(untrained))} {configuration.upper()}",
                    "vs_untrained": {m: {"diff": round(i.mean, 4), "lo": round(i.lo, 4), "hi": round(i.hi, 4)}
                                     for m, i in paired.items()}}
    if best:
        seed = best[configuration]
        fields["best_untrained_twin"] = f"{untrained_label(seed, len(untrained))} {configuration.upper()}"
        fields["vs_best_untrained"] = {m: round(result[m] - untrained[seed][configuration][m], 4) for m in VS_BEST}
    return fields


def report_lines(report: dict, render, judged_column: bool) -> list[str]:
    """The report's tables and notes, each table through `render` (plain text or markdown)."""
    lines = [*render(*_means_table(report, judged_column)), "",
             f"[95% CI]: percentile bootstrap over {report['topics']} topics, {bootstrap.RESAMPLES} resamples, "
             f"seed {bootstrap.SEED}; a Δ resamples the same topics for both rows."]
    if "best_untrained_seed" in report:
        lines.append("best untrained seed by MAP′: " +
                     ", ".join(f"{fusion} seed {seed}" for fusion, seed in report["best_untrained_seed"].items()))
    versus = _versus_table(report)
    if versus[1]:
        twin = untrained_label(0, report["untrained_seeds"])
        lines += ["", f"Δ = model row − {twin} under the same fusion: mean of per-topic differences [paired 95% CI]",
                  *render(*versus)]
    return lines


def _means_table(report: dict, judged_column: bool) -> Table:
    header = ["configuration", *(f"{label} [95% CI]" for label in METRIC_LABELS.values())]
    body = []
    for name, row in report["configurations"].items():
        cells = [f"{row[m]:.3f} [{row['ci95'][m][0]:.3f}, {row['ci95'][m][1]:.3f}]" for m in METRIC_LABELS]
        body.append([name, *cells, *([f"{row['judged_at_10']:.3f}"] if judged_column else [])])
    return header + (["judged@10"] if judged_column else []), body


def _versus_table(report: dict) -> Table:
    several = "best_untrained_seed" in report
    header = ["model row", *(f"Δ{label} [95% CI]" for label in METRIC_LABELS.values())]
    body = []
    for name, row in report["configurations"].items():
        if "vs_untrained" not in row:
            continue
        cells = [_difference(row["vs_untrained"][m]) for m in METRIC_LABELS]
        if several:
            best = row["vs_best_untrained"]
            cells.append(f"{best['map_prime']:+.3f} / {best['p10_prime']:+.3f} ({row['best_untrained_twin']})")
        body.append([name, *cells])
    return header + (["vs best untrained seed: ΔMAP′ / ΔP′@10"] if several else []), body


def _difference(d: dict) -> str:
    return f"{d['diff']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"


def text_table(header: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in (header, *body)]


def markdown_table(header: list[str], body: list[list[str]]) -> list[str]:
    return [f"| {' | '.join(row)} |" for row in (header, ["---"] * len(header), *body)]


def untrained_label(seed: int, seeds: int) -> str:
    """One untrained draw keeps the name earlier reports used; several are named by seed."""
    return "untrained (same architecture)" if seeds == 1 else f"untrained seed {seed}"


def untrained_like(model: NodeEncoderModel, seed: int = 0) -> NodeEncoderModel:
    """The same encoders with fresh, seeded weights: shows what training adds."""
    return NodeEncoderModel.seeded(model.featurizer, model.config, seed).eval()
