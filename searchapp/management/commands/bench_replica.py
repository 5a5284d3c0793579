"""`python manage.py bench_replica --json`: searches on a live replica while the primary indexes, and across a stop and
a restart of the replica (`searchapp.benchmarks.replica`)."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import replica
from searchapp.benchmarks.bench_corpus import WIKI_FILE
from searchapp.benchmarks.database import bench_database, throwaway_database
from searchapp.replica_server import ReplicaError

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = ("Clone a replica of the embedded Postgres, index into the primary while searches read the replica, stop "
            "and restart the replica, and report the replica's share of searches, its replay lag, the failover time "
            "and the failed searches.")

    def add_arguments(self, parser):
        parser.add_argument("--formulas", type=int, default=20_000, help="formulas indexed while the searches run")
        parser.add_argument("--seed", type=int, default=2_000, help="formulas indexed before the replica is cloned")
        parser.add_argument("--down-seconds", type=float, default=3.0, help="how long the replica stays stopped")
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--wiki", type=Path, default=settings.BASE_DIR / WIKI_FILE,
                            help="the Wikipedia formulas of `make wiki-formulas` (used when present)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, formulas: int, seed: int, down_seconds: float, data: Path, wiki: Path, **options):
        if formulas < 100 or seed < 100:
            raise CommandError("--formulas and --seed must be at least 100")
        if down_seconds <= 0:
            raise CommandError("--down-seconds must be above 0")
        if not data.is_dir():
            raise CommandError(f"data folder not found: {data}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        try:
            with throwaway_database(bench_database("replica")):
                report = replica.benchmark(data, formulas, seed, down_seconds, wiki_file=wiki, progress=progress)
        except ReplicaError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
