"""`python manage.py search "LATEX" --k 10 --json`: the same results as GET /api/search."""
import json

from django.core.management.base import BaseCommand, CommandError

from ml.formula import ParseError
from ml.retrieval.fusion import FUSIONS
from searchapp.presenters import results_dict
from searchapp.search import MAX_K, search_formulas


class Command(BaseCommand):
    help = "Search the index for formulas similar to a LaTeX query."

    def add_arguments(self, parser):
        parser.add_argument("latex")
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--fusion", choices=FUSIONS, default="max")
        parser.add_argument("--corpus")
        parser.add_argument("--json", action="store_true", help="print the API's JSON")

    def handle(self, *args, latex, k, fusion, corpus, **options):
        if not 1 <= k <= MAX_K:
            raise CommandError(f"--k must be between 1 and {MAX_K}")
        try:
            results = search_formulas(latex, k=k, fusion=fusion, corpus=corpus)
        except ParseError as error:
            raise CommandError(f"cannot parse the query ({error.kind} at {error.pos}): {error.message}") from None
        data = results_dict(results)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"{len(data['results'])} of {data['candidates']} candidates in {data['elapsed_ms']} ms")
        for hit in data["results"]:
            self.stdout.write(f"{hit['rank']:>3}. {hit['score']:.4f}  (slg {hit['parts']['slg']:.3f}, "
                              f"opg {hit['parts']['opg']:.3f})  [{hit['corpus']}]  {hit['latex']}")
