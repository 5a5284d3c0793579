"""`python manage.py bench_documents PATH [--workers N] [--json]`: index a folder (or zip, or file) of documents into a
throw-away database and report what was read, how fast it was indexed, and the known-item test
(`searchapp.benchmarks.documents`); with `--workers N`, also the build by one Celery worker against N
(`searchapp.benchmarks.workers`)."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import documents
from searchapp.benchmarks.database import bench_database, throwaway_database
from searchapp.benchmarks.workers import compare_workers


class Command(BaseCommand):
    help = ("Index documents (LaTeX, Markdown, notebooks, web pages) into a throw-away database; print files read and "
            "failed, formulas found and parsed, the indexing rate by stage, and known-item success@1/@10.")

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="a folder, a zip or a file of documents")
        parser.add_argument("--sample", type=int, default=documents.SAMPLE, help="formulas in the known-item test")
        parser.add_argument("--seed", type=int, default=0, help="which formulas are drawn, and which variable renamed")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark database afterwards")
        parser.add_argument("--workers", type=int, help="also index it with one Celery worker, then with this many, "
                                                        "and report speedup_vs_one")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, path: Path, sample: int, seed: int, keep: bool, workers: int | None, **options):
        if not path.exists():
            raise CommandError(f"{path}: no such file or folder")
        if sample < 1:
            raise CommandError("--sample must be at least 1")
        if workers is not None and workers < 2:
            raise CommandError("--workers must be at least 2 (a build with one worker is what it is compared with)")
        progress = self.stderr.write if options["json"] else self.stdout.write
        with throwaway_database(bench_database("documents"), keep=keep):
            report = documents.benchmark(path, sample, seed, progress)
            if workers:
                report |= compare_workers(path, "documents", workers, progress)
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
