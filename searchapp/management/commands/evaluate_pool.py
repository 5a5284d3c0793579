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

from corpora.qrels import read_qrels
from corpora.runs import write_run
from corpora.tolerant import MalformedFile
from ml.embed import load_default_model
from ml.evaluation.dev_split import load_dev_split
from ml.evaluation.pool_report import evaluate_models, markdown_table, report_lines, text_table
from ml.retrieval.score_fusion import DEFAULT_FUSION

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


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
        report, run = evaluate_models(split, judged, models, untrained_seeds)
        if run_out:
            write_run(run_out, run, tag=f"mathsearch-{DEFAULT_FUSION}")
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            table = markdown_table if options["markdown"] else text_table
            self.stdout.write("\n".join(report_lines(report, table, judged_column=not options["markdown"])))


def _labelled(spec: str) -> tuple[str, Path]:
    """`LABEL=DIR` → (LABEL, DIR); a bare DIR is its own label."""
    label, sep, folder = spec.partition("=")
    path = Path(folder if sep else spec)
    if not path.is_dir():
        raise CommandError(f"--model {spec!r}: {path} is not a model directory")
    return (label if sep else str(path)), path
