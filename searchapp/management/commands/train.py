"""`python manage.py train --config FILE --corpus PATH:FORMAT … --out DIR`: train the node encoders."""
import itertools
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from ml.training.config import TrainConfig
from ml.training.corpus import READERS, CorpusFormula, read_corpus_spec, unique
from ml.training.trainer import train
from searchapp.models import Formula


class Command(BaseCommand):
    help = ("Train the SLG/OPG encoders on formulas from corpus files and/or indexed corpora; "
            "checkpoints every epoch into --out and resumes from it.")

    def add_arguments(self, parser):
        parser.add_argument("--config", type=Path, required=True, help="training options (JSON)")
        parser.add_argument("--corpus", action="append", default=[], metavar="PATH:FORMAT",
                            help=f"a formula file; FORMAT is one of {', '.join(sorted(READERS))}")
        parser.add_argument("--db-corpus", action="append", default=[], metavar="NAME",
                            help="the formulas of an indexed corpus")
        parser.add_argument("--out", type=Path, required=True, help="model directory (resumed if it exists)")
        parser.add_argument("--limit", type=int, help="train on at most this many formulas")

    def handle(self, *args, config: Path, corpus, db_corpus, out: Path, limit, **options):
        try:
            settings = TrainConfig.from_file(config)
        except (OSError, ValueError) as error:
            raise CommandError(f"bad config {config}: {error}") from None
        formulas = unique(itertools.chain(*(self._file(spec) for spec in corpus), self._database(db_corpus)))
        formulas = list(itertools.islice(formulas, limit))
        if not formulas:
            raise CommandError("no formulas: give --corpus PATH:FORMAT or --db-corpus NAME")
        bar = tqdm(total=settings.epochs, unit="epoch", dynamic_ncols=True)
        result = train(settings, formulas, out, progress=lambda p: self._progress(bar, p))
        bar.close()
        self.stdout.write(f"trained on {result.formulas} formulas (skipped {dict(result.skipped)}) into {out}")
        for stats in result.epochs:
            self.stdout.write(f"epoch {stats.epoch}: loss {stats.loss:.4f}, {stats.seconds:.0f} s, "
                              f"{stats.formulas_per_second:.0f} formulas/s")

    def _file(self, spec: str):
        try:
            return read_corpus_spec(spec)
        except ValueError as error:
            raise CommandError(str(error)) from None

    def _database(self, names: list[str]):
        """Stored formulas in their own notation: LaTeX as written, anything else as its SLT string."""
        for name in names:
            rows = Formula.objects.filter(corpus__name=name).values_list("notation", "latex", "slt_string")
            for notation, latex, slt_string in rows.iterator():
                yield (CorpusFormula(latex, "latex", f"db:{name}") if notation == Formula.Notation.LATEX
                       else CorpusFormula(slt_string, "slt", f"db:{name}"))

    def _progress(self, bar, progress) -> None:
        bar.n = progress.epoch + progress.step / max(progress.steps, 1)
        bar.set_postfix(loss=f"{progress.loss:.4f}", fps=f"{progress.formulas_per_second:.0f}")
        bar.refresh()
