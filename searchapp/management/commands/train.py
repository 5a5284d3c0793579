"""`python manage.py train --config FILE --corpus PATH:FORMAT … --out DIR`: train the node encoders."""
import itertools
import random
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from ml.training.config import TrainConfig
from ml.training.corpus import READERS, read_corpus_spec, unique
from ml.training.trainer import Progress, train
from searchapp.learning.stored_formulas import stored_formulas


class Command(BaseCommand):
    help = ("Train the SLG/OPG encoders on formulas from corpus files and/or indexed corpora; "
            "checkpoints into --out every `checkpoint_every` steps and every epoch, and resumes from it.")

    def add_arguments(self, parser):
        parser.add_argument("--config", type=Path, required=True, help="training options (JSON)")
        parser.add_argument("--corpus", action="append", default=[], metavar="PATH:FORMAT",
                            help=f"a formula file; FORMAT is one of {', '.join(sorted(READERS))}")
        parser.add_argument("--db-corpus", action="append", default=[], metavar="NAME",
                            help="the formulas of an indexed corpus")
        parser.add_argument("--out", type=Path, required=True, help="model directory (resumed if it exists)")
        parser.add_argument("--limit", type=int, help="train on at most this many formulas (the first ones)")
        parser.add_argument("--sample", type=int, metavar="N",
                            help="train on N formulas drawn at random (seed 0) from all those read")
        parser.add_argument("--context", action="append", default=[], metavar="PATH",
                            help="thread pages (a folder or one page, format mse_html) for the context pairs "
                                 "that the config's context_weight weighs")
        parser.add_argument("--graph-cache", type=Path, default=settings.VAR_DIR / "graph-cache", metavar="DIR",
                            help="keeps parsed formulas between runs, keyed by formulas, max_nodes and parser "
                                 "(default: %(default)s)")

    def handle(self, *args, config: Path, corpus, db_corpus, out: Path, limit, sample, graph_cache: Path, context,
               **options):
        try:
            train_config = TrainConfig.from_file(config)
        except (OSError, ValueError) as error:
            raise CommandError(f"bad config {config}: {error}") from None
        formulas = list(itertools.islice(unique(itertools.chain(*(self._file(spec) for spec in corpus),
                                                                stored_formulas(db_corpus))), limit))
        if sample is not None:
            random.Random(0).shuffle(formulas)  # seeded: the same sample every run, so a run can resume
            formulas = formulas[:sample]
        if not formulas:
            raise CommandError("no formulas: give --corpus PATH:FORMAT or --db-corpus NAME")
        if train_config.context_weight and not context:
            raise CommandError("the config sets context_weight: give thread pages with --context PATH")
        context_formulas = itertools.chain(*(self._file(f"{path}:mse_html") for path in context))
        bar = StepBar(train_config.epochs)
        try:
            result = train(train_config, formulas, out, progress=bar.update, graph_cache=graph_cache,
                           context=context_formulas)
        except ValueError as error:  # too few usable formulas, or --out holds another run's checkpoint
            raise CommandError(str(error)) from None
        finally:
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


class StepBar:
    """One bar over every step of every epoch, opened at the first step reported: parsing the corpus (minutes on
    a cold graph cache) and the steps a resumed run skips must not count toward its rate and ETA."""

    def __init__(self, epochs: int) -> None:
        self.epochs = epochs
        self.bar: tqdm | None = None

    def update(self, progress: Progress) -> None:
        done = progress.epoch * progress.steps + progress.step
        if self.bar is None:  # its rate starts from the second step: the first one's start went unseen
            self.bar = tqdm(total=self.epochs * progress.steps, initial=done, unit="step", dynamic_ncols=True)
        self.bar.update(done - self.bar.n)
        self.bar.set_postfix(loss=f"{progress.loss:.4f}", formulas_s=f"{progress.formulas_per_second:.0f}")

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
