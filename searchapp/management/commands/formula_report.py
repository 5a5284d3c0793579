"""`python manage.py formula_report`: the parser's quality bars on the shared data — coverage, agreement with the
organisers' trees, LaTeX-vs-MathML agreement on the thread pages, speed."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ml.evaluation.parser_agreement import agreement, format_table
from ml.evaluation.parser_coverage import benchmark_speed, coverage_report, judged_latex
from ml.evaluation.thread_agreement import format_report, thread_agreement

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"
SECTIONS = ("coverage", "agreement", "threads", "speed")


class Command(BaseCommand):
    help = ("Coverage on the ARQMath formulas, agreement with the organisers' trees, LaTeX-vs-MathML agreement on "
            "the thread pages, and parsing speed.")

    def add_arguments(self, parser):
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--only", choices=SECTIONS, action="append", help="run only these sections")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, data: Path, only, **options):
        if not data.is_dir():
            raise CommandError(f"data folder not found: {data}")
        sections = only or SECTIONS
        report = {}
        if "coverage" in sections:
            report["coverage"] = coverage_report(data)
        if "agreement" in sections:
            report["agreement"] = agreement(data)
        if "threads" in sections:
            report["threads"] = thread_agreement(data)
        if "speed" in sections:
            report["speed"] = benchmark_speed(judged_latex(data), min_seconds=5.0)
        if options["json"]:
            report.get("agreement", {}).pop("rows", None)
            report.get("threads", {}).pop("disagreements", None)
            self.stdout.write(json.dumps(report, indent=2, default=str))
        else:
            self._print(report)

    def _print(self, report: dict) -> None:
        for name, summary in report.get("coverage", {}).items():
            rates = {k: summary[k] for k in ("total", "slt_rate", "opt_rate", "parsed", "identical", "agree", "rate")
                     if k in summary}
            self.stdout.write(f"coverage {name}: {rates}")
        if "agreement" in report:
            self.stdout.write(format_table(report["agreement"]))
        if "threads" in report:
            self.stdout.write(format_report(report["threads"]))
        if "speed" in report:
            self.stdout.write(f"speed (LaTeX → SLT + OPT, one process): {report['speed']}")
