"""`python manage.py benchmark arqmath1 --qrels QRELS --json [--run-out FILE]`: effectiveness through the real query path;
`benchmark arqmath-answers --topics XML… --qrels QRELS… --json [--run-out FILE]`: answers ranked for questions."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from corpora.runs import write_run
from ml.retrieval.score_fusion import DEFAULT_FUSION, FUSIONS
from searchapp.benchmarks import arqmath1, arqmath_answers
from searchapp.benchmarks.database import throwaway_database
from searchapp.learning.training import cv_lines

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = "Index the judged ARQMath-1 formulas plus distractors in a throw-away database and score the queries."

    def add_arguments(self, parser):
        parser.add_argument("name", choices=["arqmath1", "arqmath-answers"])
        parser.add_argument("--qrels", type=Path, required=True, nargs="+",
                            help="arqmath1: one Task 2 qrels file; arqmath-answers: Task 1 qrels, one per --topics file")
        parser.add_argument("--topics", type=Path, nargs="+", default=[], help="arqmath-answers: Task 1 topic XML files")
        parser.add_argument("--formula-topics", type=Path, help="arqmath-answers: ARQMath-2 Task 2 topic XML, to measure "
                                                                "formula search with the question as context")
        parser.add_argument("--formula-qrels", type=Path, help="arqmath-answers: their v3 (visual id) qrels")
        parser.add_argument("--corpus", help="arqmath-answers: rank the pages already indexed as this corpus of the "
                                             "configured database instead of indexing them into a throw-away one")
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--fusion", choices=FUSIONS, default=DEFAULT_FUSION)
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--run-out", type=Path)

    def handle(self, *args, name: str, qrels: list[Path], data: Path, fusion: str, run_out: Path | None, **options):
        for path in (*qrels, *options["topics"], data):
            if not path.exists():
                raise CommandError(f"not found: {path}")
        progress = (lambda message: self.stderr.write(message)) if options["json"] else self.stdout.write
        if name == "arqmath-answers":
            formula_inputs = (options["formula_topics"], options["formula_qrels"])
            if any(formula_inputs) and not all(formula_inputs):
                raise CommandError("--formula-topics and --formula-qrels go together")
            for path in filter(None, formula_inputs):
                if not path.exists():
                    raise CommandError(f"not found: {path}")
            return self._answers(data, options["topics"], qrels, options["corpus"], formula_inputs if all(formula_inputs)
                                 else None, run_out, progress, options["json"])
        if len(qrels) != 1:
            raise CommandError("arqmath1 takes one --qrels file")
        with throwaway_database():
            report, runs = arqmath1.benchmark(data, qrels[0], fusion=fusion, progress=progress)
        if run_out:  # the learned ranker's cross-validated run: each topic ranked by a model that never saw it
            write_run(run_out, runs["learned-cv"], tag="mathsearch-learned-cv")
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self._print_table(report)

    def _answers(self, data: Path, topics: list[Path], qrels: list[Path], corpus: str | None, formula_inputs,
                 run_out: Path | None, progress, as_json: bool) -> None:
        if not topics:
            raise CommandError("arqmath-answers needs --topics (the Task 1 topic XML of each --qrels year)")
        if corpus:
            report, runs = arqmath_answers.benchmark(data, topics, qrels, corpus, formula_inputs, progress=progress)
        else:
            with throwaway_database():
                report, runs = arqmath_answers.benchmark(data, topics, qrels, formula_inputs=formula_inputs,
                                                         progress=progress)
        if run_out:
            write_run(run_out, runs[report["default_mode"]], tag=f"mathsearch-{report['default_mode']}")
        if as_json:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(f"{report['topics']} topics, {report['answers']} answers, {report['judgments']} judgments "
                          f"(dropped, no page: {report['dropped_judgments']})")
        self.stdout.write(f"{'mode':<12}{'nDCG′':>8}{'MAP′':>8}{'P′@10':>8}")
        for mode, scores in report["modes"].items():
            if scores is None:
                self.stdout.write(f"{mode:<12}  (no fusion trained: python manage.py train_fusion)")
                continue
            self.stdout.write(f"{mode:<12}{scores['ndcg_prime']:>8.3f}{scores['map_prime']:>8.3f}{scores['p10_prime']:>8.3f}")
        if "formula_context" in report:
            context = report["formula_context"]
            self.stdout.write(f"formula search, {context['covered_judgments']} of {context['judgments']} Task 2 "
                              f"judgments on the pages, {context['topics']} topics:")
            for name, scores in context["runs"].items():
                self.stdout.write(f"{name:<12}{scores['ndcg_prime']:>8.3f}{scores['map_prime']:>8.3f}"
                                  f"{scores['p10_prime']:>8.3f}")

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
