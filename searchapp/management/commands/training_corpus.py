"""`python manage.py training_corpus --corpus PATH:FORMAT … [--out FILE]`: the distinct formulas to train on.

Every formula is parsed once and kept under its visual key; per source it prints how many formulas were read,
parsed and failed (by error kind) and how many keys were new, then the total distinct. `--out` writes the
distinct formulas as JSONL that `--corpus FILE:formulas_jsonl` reads back.
"""
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from corpora.jsonl_formulas import formula_line
from ml.training.corpus import read_corpus_spec
from ml.training.distinct import SourceReport, distinct


class Command(BaseCommand):
    help = "Parse corpus files once, deduplicate their formulas by visual key and report what each source adds."

    def add_arguments(self, parser):
        parser.add_argument("--corpus", action="append", required=True, metavar="PATH:FORMAT",
                            help="formula file or folder (repeatable; first source first)")
        parser.add_argument("--out", type=Path, default=None, help="write the distinct formulas here as JSONL")

    def handle(self, *args, corpus, out, **options):
        try:
            sources = [(spec, read_corpus_spec(spec)) for spec in corpus]
        except ValueError as error:
            raise CommandError(str(error)) from None
        seen: set[str] = set()
        started = time.perf_counter()
        with open(out, "w", encoding="utf-8") if out else _Discard() as handle:
            for spec, formulas in sources:
                report = SourceReport(spec)
                try:
                    read = list(formulas)  # read first (quick), so the bar knows its total and ETA
                    progress = tqdm(read, desc=Path(spec.rpartition(":")[0]).name, unit=" formulas",
                                    mininterval=5)
                    for formula in distinct(progress, report, seen):
                        handle.write(formula_line(formula.notation, formula.text, formula.key, formula.source) + "\n")
                except ValueError as error:  # a malformed file, named with its line
                    raise CommandError(str(error)) from None
                self._report(report)
        self.stdout.write(f"total distinct: {len(seen)} in {time.perf_counter() - started:.0f} s"
                          + (f"; written to {out}" if out else ""))

    def _report(self, report: SourceReport) -> None:
        failed = ", ".join(f"{kind} {count}" for kind, count in report.failed.most_common()) or "none"
        self.stdout.write(f"{report.name}: read {report.read}, parsed {report.parsed}, "
                          f"failed {report.read - report.parsed} ({failed}), new distinct keys {report.new_keys}")


class _Discard:
    """A file that forgets what is written to it, so the loop is the same with and without --out."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def write(self, text: str) -> int:
        return len(text)
