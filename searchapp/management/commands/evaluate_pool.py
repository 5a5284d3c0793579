"""`python manage.py evaluate_pool --qrels QRELS [--json | --markdown] [--model [LABEL=]DIR …] [--run-out FILE]`.

Ranks each topic's judged formulas per model and configuration beside the baselines. With labelled
models (`--model SLG=DIR --model OPG=DIR …`) the markdown output is In+Out's Table 2.
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
from ml.evaluation.baselines import latex_tfidf_run, node_label_tfidf_run, random_baseline
from ml.evaluation.dev_split import load_dev_split
from ml.evaluation.metrics import evaluate
from ml.evaluation.model_pool_evaluation import evaluate_configurations, run_for, score_pools
from ml.models.encoders import NodeEncoderModel
from searchapp.benchmarks.arqmath1 import rounded

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = "Rank each topic's judged formulas by the model's maxsim per configuration, beside the baselines."

    def add_arguments(self, parser):
        parser.add_argument("--qrels", type=Path, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--model", action="append", metavar="[LABEL=]DIR",
                            help="model directory, optionally labelled (repeatable)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--markdown", action="store_true", help="a markdown table")
        parser.add_argument("--run-out", type=Path, help="TREC run of the first model's MAX fusion")

    def handle(self, *args, qrels: Path, data: Path, model, run_out, **options):
        if not qrels.is_file():
            raise CommandError(f"qrels not found: {qrels}")
        torch.set_num_threads(settings.MATHSEARCH_TORCH_THREADS)
        try:
            judged = read_qrels(qrels).checked(qrels)
        except MalformedFile as error:
            raise CommandError(str(error)) from None
        split = load_dev_split(data)
        models = {label: load_default_model(path) for label, path in map(_labelled, model or
                                                                          [str(settings.MATHSEARCH_MODEL_DIR)])}
        first = next(iter(models.values()))
        models["untrained (same architecture)"] = _untrained_like(first)
        table = {"random": random_baseline(judged, seed=0, repeats=100),
                 "latex tf-idf": evaluate(latex_tfidf_run(judged, split.topics_latex, split.doc_latex()).run, judged),
                 "node-label tf-idf": evaluate(
                     node_label_tfidf_run(judged, split.topics_latex, split.doc_texts()).run, judged)}
        for name, encoder in models.items():
            scores = score_pools(split, judged, encoder)
            for configuration, metrics in evaluate_configurations(scores, judged).items():
                table[f"{name} {configuration.upper()}"] = metrics
            if run_out and encoder is first:
                write_run(run_out, run_for(scores, "max"), tag="mathsearch-max")
        rows = {name: rounded(metrics) for name, metrics in table.items()}
        if options["json"]:
            self.stdout.write(json.dumps({"topics": len(judged), "configurations": rows}, indent=2))
        elif options["markdown"]:
            self._markdown(rows)
        else:
            self._print(rows)

    def _print(self, rows: dict) -> None:
        width = max(len(name) for name in rows) + 2
        self.stdout.write(f"{'configuration':<{width}}{'nDCG′':>8}{'MAP′':>8}{'P′@10':>8}{'judged@10':>11}")
        for name, m in rows.items():
            self.stdout.write(f"{name:<{width}}{m['ndcg_prime']:>8.3f}{m['map_prime']:>8.3f}"
                              f"{m['p10_prime']:>8.3f}{m['judged_at_10']:>11.3f}")


    def _markdown(self, rows: dict) -> None:
        self.stdout.write("| configuration | nDCG′ | MAP′ | P′@10 |\n|---|---|---|---|")
        for name, m in rows.items():
            self.stdout.write(f"| {name} | {m['ndcg_prime']:.3f} | {m['map_prime']:.3f} | {m['p10_prime']:.3f} |")


def _labelled(spec: str) -> tuple[str, Path]:
    """`LABEL=DIR` → (LABEL, DIR); a bare DIR is its own label."""
    label, sep, path = spec.partition("=")
    path = Path(path if sep else spec)
    if not path.is_dir():
        raise CommandError(f"--model {spec!r}: {path} is not a model directory")
    return (label if sep else str(path)), path


def _untrained_like(model: NodeEncoderModel) -> NodeEncoderModel:
    """The same encoders with fresh, seeded weights: shows what training adds."""
    torch.manual_seed(0)
    return NodeEncoderModel(model.featurizer, model.config).eval()
