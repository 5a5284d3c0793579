"""`python manage.py bench_pages [--repeat N] [--parallel N] [--json]`: the pages of posts written to be slow (issue
51's 40 KB of unclosed `\\(`, bare and in code) beside an ordinary post's, through gunicorn, in a throw-away database
(`searchapp.benchmarks.pages`)."""
import json
import tempfile
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import pages
from searchapp.benchmarks.database import bench_database, throwaway_database


class Command(BaseCommand):
    help = ("Index posts of 40 KB of unclosed \\( (bare, in a code span, in <code>, in \\verb) and an ordinary one, "
            "serve them with gunicorn, and print p50/max ms of each page, one request at a time and in a burst.")

    def add_arguments(self, parser):
        parser.add_argument("--repeat", type=int, default=pages.REPEAT, help="requests of each page, one at a time")
        parser.add_argument("--parallel", type=int, default=pages.PARALLEL,
                            help="requests of each page at once, beside an ordinary search (0: none)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, repeat: int, parallel: int, **options):
        if repeat < 1 or parallel < 0:
            raise CommandError("--repeat must be at least 1 and --parallel at least 0")
        progress = self.stderr.write
        with throwaway_database(bench_database("pages")), tempfile.TemporaryDirectory() as folder:
            rows = pages.benchmark(Path(folder), repeat, parallel, progress)
        self.stdout.write(json.dumps(rows, indent=2) if options["json"] else table(rows))


def table(rows: list[dict]) -> str:
    def cell(entry: dict | None) -> str:
        if entry is None:
            return "-"
        statuses = ",".join(f"{status}×{count}" for status, count in entry["statuses"].items())
        return f"{entry['p50_ms']:>6} {entry['max_ms']:>6}  {statuses}"
    lines = [f"{'post':10} {'page':10} {'one at a time: p50 max ms':32} {'in a burst: p50 max ms':32} "
             "ordinary search beside the burst"]
    lines += [f"{row['kind']:10} {row['page']:10} {cell(row['sequential']):32} {cell(row.get('parallel')):32} "
              f"{cell(row.get('ordinary_search_meanwhile'))}" for row in rows]
    return "\n".join(lines)
