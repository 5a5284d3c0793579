"""`python manage.py bench_patterns --corpus NAME [--queries 100] [--seed 0] [--json]`: how many of a pattern
search's top 10 hold the pattern, with a query variable and with a letter in its place, and how long each took."""
import json

from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks import patterns
from searchapp.models import Formula


class Command(BaseCommand):
    help = ("Cut parts of an indexed corpus's formulas into query variables and measure, against every formula of the "
            "corpus, how many of the top 10 hold each pattern; and the same with a letter instead of the variable.")

    def add_arguments(self, parser):
        parser.add_argument("--corpus", required=True)
        parser.add_argument("--queries", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, corpus: str, queries: int, seed: int, **options):
        if queries < 1:
            raise CommandError("--queries must be at least 1")
        if not Formula.objects.filter(corpus__name=corpus).exists():
            raise CommandError(f"no formulas in a corpus named {corpus!r}")
        report = patterns.benchmark(corpus, queries, seed)
        if report["queries"] == 0:
            raise CommandError(f"no formula of {corpus!r} has a script or part to cut into a variable")
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else
                          "\n".join(f"{key}: {value}" for key, value in report.items()))
