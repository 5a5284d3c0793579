"""`python manage.py export_qrels [--out FILE] [--corpus NAME]`: TREC qrels from the feedback rows."""
from pathlib import Path

from django.core.management.base import BaseCommand

from searchapp.feedback.qrels import judgements, write_qrels
from searchapp.management.corpus_names import require_corpus


class Command(BaseCommand):
    help = "Write TREC qrels (query_id 0 formula_id grade) from feedback, and the query id map beside them."

    def add_arguments(self, parser):
        parser.add_argument("--out", type=Path, default=Path("feedback.qrels"))
        parser.add_argument("--corpus", help="only judgements of formulas in this corpus")

    def handle(self, *args, out: Path, corpus: str | None, **options):
        if corpus:
            require_corpus(corpus)
        grades = judgements(corpus=corpus)
        side = write_qrels(grades, out)
        pairs = sum(len(g) for g in grades.values())
        self.stdout.write(f"{pairs} judgements for {len(grades)} queries → {out} (query ids: {side})")
