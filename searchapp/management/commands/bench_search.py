"""`python manage.py bench_search --formulas N --json`: latency, candidates and top-10 overlap with exhaustive maxsim."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import search_speed
from searchapp.benchmarks.database import throwaway_database
from searchapp.search.candidates import PROBES, SHORTLIST_SIZE

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = "Build (or reuse) an index of N formulas in its own database and time 200 queries against it."

    def add_arguments(self, parser):
        parser.add_argument("--formulas", type=int, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--probes", type=int, default=PROBES, help="nearest centroids per query node")
        parser.add_argument("--shortlist", type=int, default=SHORTLIST_SIZE,
                            help="formulas per representation scored exactly")
        parser.add_argument("--drop", action="store_true", help="drop the benchmark database afterwards")

    def handle(self, *args, formulas: int, data: Path, drop: bool, probes: int, shortlist: int, **options):
        if formulas < 100:
            raise CommandError("--formulas must be at least 100")
        if not data.is_dir():
            raise CommandError(f"data folder not found: {data}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        with throwaway_database(f"mathsearch_bench_search_{formulas}", keep=not drop):
            report = search_speed.benchmark(data, formulas, {"probes": probes, "shortlist_size": shortlist},
                                              progress=progress)
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
