"""`python manage.py bench_documents PATH [--json]`: index a folder (or zip, or file) of documents into a throw-away
database and report what was read, how fast it was indexed, and the known-item test (`searchapp.benchmarks.documents`)."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import documents
from searchapp.benchmarks.database import throwaway_database


class Command(BaseCommand):
    help = ("Index documents (LaTeX, Markdown, notebooks, web pages) into a throw-away database; print files read and "
            "failed, formulas found and parsed, the indexing rate by stage, and known-item success@1/@10.")

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="a folder, a zip or a file of documents")
        parser.add_argument("--sample", type=int, default=documents.SAMPLE, help="formulas in the known-item test")
        parser.add_argument("--seed", type=int, default=0, help="which formulas are drawn, and which variable renamed")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark database afterwards")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, path: Path, sample: int, seed: int, keep: bool, **options):
        if not path.exists():
            raise CommandError(f"{path}: no such file or folder")
        if sample < 1:
            raise CommandError("--sample must be at least 1")
        progress = self.stderr.write if options["json"] else self.stdout.write
        with throwaway_database("mathsearch_bench_documents", keep=keep):
            report = documents.benchmark(path, sample, seed, progress)
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
