"""`python manage.py search "QUERY" [--notation latex|mathml|slt] [--context WORDS] --k 10 --json`: the same results as
GET /api/search, a formula too long to search whole searched by its largest parts as there."""
import json

from django.core.management.base import BaseCommand, CommandError

from mathparse import NOTATIONS, ParseError
from searchapp.management.corpus_names import require_corpus
from searchapp.models import MAX_K, Corpus, Formula
from searchapp.search.long_queries import parse_formula
from searchapp.search.notation import corpus_macros
from searchapp.search.ranking import DEFAULT_ORDER, ORDERS
from searchapp.web.presenters import present, results_dict


class Command(BaseCommand):
    help = "Search the index for formulas similar to a query formula."

    def add_arguments(self, parser):
        parser.add_argument("query")
        parser.add_argument("--notation", choices=NOTATIONS, default="latex")
        parser.add_argument("--k", type=int, default=10)
        parser.add_argument("--fusion", choices=ORDERS, default=DEFAULT_ORDER,
                            help="learned (the ranker; dense f1 without one) or a dense fusion")
        parser.add_argument("--corpus")
        parser.add_argument("--context", default="", help="words around the formula sought, fused with each "
                                                         "candidate's own (SSEmb)")
        parser.add_argument("--json", action="store_true", help="print the API's JSON")

    def handle(self, *args, query, notation, k, fusion, corpus, context, **options):
        if not 1 <= k <= MAX_K:
            raise CommandError(f"--k must be between 1 and {MAX_K}")
        if corpus:
            require_corpus(corpus)
        try:
            parsed = parse_formula(query, notation, *corpus_macros(query, corpus, Corpus.objects))
        except ParseError as error:
            raise CommandError(f"cannot read the query as {notation} ({error.kind} at {error.pos}): {error.message}") from None
        results = Formula.objects.search(parsed, k=k, fusion=fusion, corpus=corpus, context=context)
        data = results_dict(results, present(results))
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        if data["long_formula"]:
            self.stdout.write(data["long_formula"]["note"])
        self.stdout.write(f"{len(data['results'])} of {data['candidates']} candidates in {data['elapsed_ms']} ms")
        for hit in data["results"]:
            words = f", context {hit['parts']['context']:.3f}" if "context" in hit["parts"] else ""
            self.stdout.write(f"{hit['rank']:>3}. {hit['score']:.4f}  (slg {hit['parts']['slg']:.3f}, "
                              f"opg {hit['parts']['opg']:.3f}{words})  [{hit['corpus']}]  {hit['latex']}")
