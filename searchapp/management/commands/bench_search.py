"""`python manage.py bench_search --formulas N [--reuse] [--workers N] --json`: latency, candidates, top-10 overlap with
exhaustive maxsim, indexing rate and bytes on disk; with `--workers N`, the build by one Celery worker against N
(`searchapp.benchmarks.workers`)."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import search_speed
from searchapp.benchmarks.bench_corpus import WIKI_FILE
from searchapp.benchmarks.database import bench_database, throwaway_database
from searchapp.benchmarks.workers import compare_workers
from searchapp.search.candidates import PROBES, SHORTLIST_SIZE

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = ("Build an index of N formulas (real ones first, then variants) in its own database, or reuse the kept "
            "one, and time queries against it (200 by default).")

    def add_arguments(self, parser):
        parser.add_argument("--formulas", type=int, required=True)
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--wiki", type=Path, default=settings.BASE_DIR / WIKI_FILE,
                            help="the Wikipedia formulas of `make wiki-formulas` (used when present)")
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--reuse", action="store_true",
                            help="search the index a previous run kept (or finish its build) instead of rebuilding it")
        parser.add_argument("--probes", type=int, default=PROBES, help="nearest centroids per query node")
        parser.add_argument("--shortlist", type=int, default=SHORTLIST_SIZE,
                            help="formulas per representation scored exactly")
        parser.add_argument("--queries", type=int, default=search_speed.QUERY_COUNT,
                            help="distinct ARQMath Task 2 topic formulas timed (all of them when fewer)")
        parser.add_argument("--overlap-sample", type=int, default=search_speed.OVERLAP_SAMPLE,
                            help="queries compared with exhaustive maxsim over every formula")
        parser.add_argument("--drop", action="store_true", help="drop the benchmark database afterwards")
        parser.add_argument("--workers", type=int, help="also index its formulas with one Celery worker, then with "
                                                        "this many, and report speedup_vs_one")

    def handle(self, *args, formulas: int, data: Path, wiki: Path, reuse: bool, drop: bool, probes: int,
               shortlist: int, overlap_sample: int, queries: int, workers: int | None, **options):
        if formulas < 100:
            raise CommandError("--formulas must be at least 100")
        if overlap_sample < 1:
            raise CommandError("--overlap-sample must be at least 1")
        if queries < 1:
            raise CommandError("--queries must be at least 1")
        if workers is not None and workers < 2:
            raise CommandError("--workers must be at least 2 (a build with one worker is what it is compared with)")
        if not data.is_dir():
            raise CommandError(f"data folder not found: {data}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        if not wiki.is_file():
            progress(f"no Wikipedia formulas at {wiki} (`make wiki-formulas` fetches them): variants fill in")
        with throwaway_database(bench_database(formulas), keep=not drop, reuse=reuse):
            report = search_speed.benchmark(data, formulas, {"probes": probes, "shortlist_size": shortlist},
                                            wiki_file=wiki, overlap_sample=overlap_sample, queries=queries,
                                            progress=progress)
            if workers:
                report |= compare_workers(search_speed.corpus_file(formulas), "slt_tsv", workers, progress)
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
