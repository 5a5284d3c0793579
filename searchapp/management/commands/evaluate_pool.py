"""`python manage.py evaluate_pool --qrels QRELS [--json | --markdown] [--model [LABEL=]DIR …] [--untrained-seeds N]
[--run-out FILE]`.

Ranks each topic's judged formulas per model and configuration beside the baselines. With labelled
models (`--model SLG=DIR --model OPG=DIR …`) the markdown output is In+Out's Table 2. Each mean carries a
95 % bootstrap interval over topics, and each model row its paired difference to the untrained encoders
(seed 0) under the same fusion: on 29 dev topics a margin of a few hundredths is often inside the noise.
`--untrained-seeds N` draws the untrained encoders N times and also compares each model row with the best
seed, because init seeds alone have moved MAP′ by as much as training did.
"""
import json
from pathlib import Path

import torch
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.data.qrels import read_qrels
from ml.data.runs import write_run
from ml.data.tolerant import MalformedFile
from ml.embed import load_default_model
from ml.evaluation import bootstrap
from ml.evaluation.baselines import latex_tfidf_run, node_label_tfidf_run, random_baseline
from ml.evaluation.dev_split import load_dev_split
from ml.evaluation.metrics import METRIC_LABELS, evaluate, rounded
from ml.evaluation.model_pool_evaluation import best_seeds, evaluate_configurations, run_for, score_pools
from ml.models.encoders import NodeEncoderModel
from ml.retrieval.score_fusion import DEFAULT_FUSION

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"
VS_BEST = ("map_prime", "p10_prime")
Table = tuple[list[str], list[list[str]]]


class Command(BaseCommand):
    help = "Rank each topic's judged formulas by the model's maxsim per configuration, beside the baselines."

    def add_arguments(self, parser):
        parser.add_argument("--qrels", type=Path, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--model", action="append", metavar="[LABEL=]DIR",
                            help="model directory, optionally labelled (repeatable)")
        parser.add_argument("--untrained-seeds", type=int, default=1, metavar="N",
                            help="untrained encoders drawn with seeds 0..N-1; differences are to seed 0")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--markdown", action="store_true", help="markdown tables")
        parser.add_argument("--run-out", type=Path, help="TREC run of the first model's MAX fusion")

    def handle(self, *args, qrels: Path, data: Path, model, run_out, untrained_seeds: int, **options):
        if not qrels.is_file():
            raise CommandError(f"qrels not found: {qrels}")
        if untrained_seeds < 1:
            raise CommandError(f"--untrained-seeds must be at least 1, got {untrained_seeds}")
        torch.set_num_threads(settings.MATHSEARCH_TORCH_THREADS)
        try:
            judged = read_qrels(qrels).checked(qrels)
        except MalformedFile as error:
            raise CommandError(str(error)) from None
        split = load_dev_split(data)
        models = {label: load_default_model(path) for label, path in map(_labelled, model or
                                                                          [str(settings.MATHSEARCH_MODEL_DIR)])}
        first = next(iter(models.values()))
        trained = {}
        for label, encoder in models.items():
            scores = score_pools(split, judged, encoder)
            trained[label] = evaluate_configurations(scores, judged)
            if run_out and encoder is first:
                write_run(run_out, run_for(scores, DEFAULT_FUSION), tag=f"mathsearch-{DEFAULT_FUSION}")
        untrained = {seed: evaluate_configurations(score_pools(split, judged, _untrained_like(first, seed)), judged)
                     for seed in range(untrained_seeds)}
        report = _report(_baselines(judged, split), trained, untrained)
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            render = _markdown if options["markdown"] else _text
            self.stdout.write("\n".join(_render(report, render, judged_column=not options["markdown"])))


def _baselines(judged: dict, split) -> dict[str, dict]:
    return {"random": random_baseline(judged, seed=0, repeats=100),
            "latex tf-idf": evaluate(latex_tfidf_run(judged, split.topics_latex, split.doc_latex()).run, judged),
            "node-label tf-idf": evaluate(node_label_tfidf_run(judged, split.topics_latex, split.doc_texts()).run,
                                          judged)}


def _report(baselines: dict[str, dict], trained: dict[str, dict[str, dict]], untrained: dict[int, dict[str, dict]]) -> dict:
    """Rows as JSON: the rounded means (the keys other reports read), `ci95`, and for model rows `vs_untrained`."""
    best = best_seeds(untrained) if len(untrained) > 1 else {}
    rows = {name: _row(result) for name, result in baselines.items()}
    for label, results in trained.items():
        for configuration, result in results.items():
            rows[f"{label} {configuration.upper()}"] = {**_row(result), **_versus(result, configuration, untrained, best)}
    for seed, results in untrained.items():
        for configuration, result in results.items():
            rows[f"{_untrained_label(seed, len(untrained))} {configuration.upper()}"] = _row(result)
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
    fields: dict = {"untrained_twin": f"{_untrained_label(0, len(untrained))} {configuration.upper()}",
                    "vs_untrained": {m: {"diff": round(i.mean, 4), "lo": round(i.lo, 4), "hi": round(i.hi, 4)}
                                     for m, i in paired.items()}}
    if best:
        seed = best[configuration]
        fields["best_untrained_twin"] = f"{_untrained_label(seed, len(untrained))} {configuration.upper()}"
        fields["vs_best_untrained"] = {m: round(result[m] - untrained[seed][configuration][m], 4) for m in VS_BEST}
    return fields


def _render(report: dict, render, judged_column: bool) -> list[str]:
    """The report's tables and notes, each table through `render` (plain text or markdown)."""
    lines = [*render(*_means_table(report, judged_column)), "",
             f"[95% CI]: percentile bootstrap over {report['topics']} topics, {bootstrap.RESAMPLES} resamples, "
             f"seed {bootstrap.SEED}; a Δ resamples the same topics for both rows."]
    if "best_untrained_seed" in report:
        lines.append("best untrained seed by MAP′: " +
                     ", ".join(f"{fusion} seed {seed}" for fusion, seed in report["best_untrained_seed"].items()))
    versus = _versus_table(report)
    if versus[1]:
        twin = _untrained_label(0, report["untrained_seeds"])
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


def _text(header: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in (header, *body)]


def _markdown(header: list[str], body: list[list[str]]) -> list[str]:
    return [f"| {' | '.join(row)} |" for row in (header, ["---"] * len(header), *body)]


def _labelled(spec: str) -> tuple[str, Path]:
    """`LABEL=DIR` → (LABEL, DIR); a bare DIR is its own label."""
    label, sep, path = spec.partition("=")
    path = Path(path if sep else spec)
    if not path.is_dir():
        raise CommandError(f"--model {spec!r}: {path} is not a model directory")
    return (label if sep else str(path)), path


def _untrained_label(seed: int, seeds: int) -> str:
    """One untrained draw keeps the name earlier reports used; several are named by seed."""
    return "untrained (same architecture)" if seeds == 1 else f"untrained seed {seed}"


def _untrained_like(model: NodeEncoderModel, seed: int = 0) -> NodeEncoderModel:
    """The same encoders with fresh, seeded weights: shows what training adds."""
    return NodeEncoderModel.seeded(model.featurizer, model.config, seed).eval()
