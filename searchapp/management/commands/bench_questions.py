"""`python manage.py bench_questions --posts N [--reuse] [--json]`: ingest rate, bytes a post, question-search
latency per mode and top-10 overlap with every post scored exactly, at N posts."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import question_speed
from searchapp.benchmarks.arqmath_answers import PAGES
from searchapp.benchmarks.database import bench_database, throwaway_database

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = ("Build an index of N posts (the ARQMath thread pages, then variant threads of them) in its own database, "
            "or reuse the kept one, and time the development questions against it in every mode.")

    def add_arguments(self, parser):
        parser.add_argument("--posts", type=int, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--reuse", action="store_true",
                            help="search the index a previous run kept (or finish its build) instead of rebuilding it")
        parser.add_argument("--overlap-sample", type=int, default=question_speed.OVERLAP_SAMPLE,
                            help="questions compared with every post scored exactly")
        parser.add_argument("--drop", action="store_true", help="drop the benchmark database afterwards")

    def handle(self, *args, posts: int, data: Path, reuse: bool, drop: bool, overlap_sample: int, **options):
        if posts < 1:
            raise CommandError("--posts must be at least 1")
        if overlap_sample < 0:
            raise CommandError("--overlap-sample must be at least 0")
        for path in (data / PAGES, data / "arqmath" / "topics"):
            if not path.is_dir():
                raise CommandError(f"folder not found: {path}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        questions = question_speed.development_questions(data / "arqmath" / "topics")
        with throwaway_database(bench_database(f"posts_{posts}"), keep=not drop, reuse=reuse):
            try:
                report = question_speed.benchmark(data / PAGES, questions, posts, overlap_sample=overlap_sample,
                                                  progress=progress)
            except question_speed.TooFewPosts as error:
                raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
