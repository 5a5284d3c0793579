"""`python manage.py benchmark arqmath1 --qrels QRELS --json [--run-out FILE]`: effectiveness through the real query path."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.data.runs import write_run
from ml.retrieval.fusion import DEFAULT_FUSION, FUSIONS
from searchapp.benchmarks import arqmath1
from searchapp.benchmarks.database import throwaway_database
from searchapp.learning.training import cv_lines

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = "Index the judged ARQMath-1 formulas plus distractors in a throw-away database and score the queries."

    def add_arguments(self, parser):
        parser.add_argument("name", choices=["arqmath1"])
        parser.add_argument("--qrels", type=Path, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--fusion", choices=FUSIONS, default=DEFAULT_FUSION)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--run-out", type=Path)

    def handle(self, *args, qrels: Path, data: Path, fusion: str, run_out: Path | None, **options):
        for path in (qrels, data):
            if not path.exists():
                raise CommandError(f"not found: {path}")
        progress = (lambda message: self.stderr.write(message)) if options["json"] else self.stdout.write
        with throwaway_database():
            report, runs = arqmath1.benchmark(data, qrels, fusion=fusion, progress=progress)
        if run_out:  # the learned ranker's cross-validated run: each topic ranked by a model that never saw it
            write_run(run_out, runs["learned-cv"], tag="mathsearch-learned-cv")
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self._print_table(report)

    def _print_table(self, report: dict) -> None:
        rows = [("mathsearch learned (cv)", report["learned_cv"]["learned"]), ("mathsearch " + report["fusion"], report),
                ("random", report["random"]),
                *[(name, scores) for name, scores in report["baselines"].items()]]
        self.stdout.write(f"{'run':<22}{'nDCG′':>8}{'MAP′':>8}{'P′@10':>8}{'judged@10':>11}")
        for name, scores in rows:
            self.stdout.write(f"{name:<22}{scores['ndcg_prime']:>8.3f}{scores['map_prime']:>8.3f}"
                              f"{scores['p10_prime']:>8.3f}{scores.get('judged_at_10', 0):>11.3f}")
        self.stdout.write("learned ranker, cross-validated on the same candidates:")
        for line in cv_lines(report["learned_cv"]):
            self.stdout.write(line)
        self.stdout.write(f"latency ms: {report['latency_ms']}")
