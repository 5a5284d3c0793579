"""`python manage.py train_ranker --qrels QRELS [--arqmath2] [--database NAME] [--json]` and
`train_ranker --feedback --corpus NAME [--qrels QRELS]`.

With `--qrels` it indexes the ARQMath-1 benchmark corpus into a throw-away database (a few minutes) and reads
the development topics' candidates through the real search path. Alone, it cross-validates the ranker over
those topics (nested, topic-grouped 5-fold), prints the held-out metrics beside the dense-only ranking of the
same candidates, and saves the ranker fitted on all topics into `models/ranker`. With `--feedback --corpus NAME`
the corpus's relevance feedback (the site's Relevant / Not relevant buttons) is added to them (or, without
`--qrels`, used alone) and the ranker is trained and recorded as the learning loop does it
(`searchapp.live.loop.train`), then installed at once, without waiting for interleaving: the corpus's
searches use it from then on, unless it ranks the judged queries worse than they are ranked without it.
"""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from corpora.tolerant import MalformedFile
from ml.ranking.ranker import MIN_ROWS_PER_LEAF
from searchapp.benchmarks.database import throwaway_database
from searchapp.learning import thread_judgments, training
from searchapp.live import loop
from searchapp.live.ranker_history import without_it
from searchapp.management.corpus_names import require_corpus
from searchapp.rankers import RankerState, weights_dir

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"


class Command(BaseCommand):
    help = "Train the LambdaMART ranker on the development topics (and a corpus's feedback), cross-validated."

    def add_arguments(self, parser):
        parser.add_argument("--qrels", type=Path, help="the ARQMath-1 Task 2 development qrels")
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--feedback", action="store_true", help="add the feedback judgments of --corpus")
        parser.add_argument("--corpus", help="with --feedback: the corpus whose feedback trains its own ranker")
        parser.add_argument("--arqmath2", action="store_true",
                            help="with --qrels: also train on ARQMath-2 Task 2 (the thread pages' judged formulas)")
        parser.add_argument("--database", help="keep the indexed corpora in this database, and reuse it if it exists")
        parser.add_argument("--out", type=Path,
                            help="where to save (default: models/ranker, or with --feedback recorded as the corpus's)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, qrels: Path | None, data: Path, feedback: bool, corpus: str | None, out: Path | None,
               arqmath2: bool, database: str | None, **options):
        if feedback != bool(corpus):
            raise CommandError("--feedback and --corpus go together: the feedback of one corpus trains its ranker")
        if not (qrels or feedback):
            raise CommandError("give --qrels (the development topics), --feedback --corpus NAME, or both")
        if arqmath2 and (feedback or not qrels):
            raise CommandError("--arqmath2 adds training topics to the development topics: give --qrels, not --feedback")
        for path in (qrels, data) if qrels else ():
            if not path.exists():
                raise CommandError(f"not found: {path}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        judged = self._feedback(corpus) if corpus else None
        dev, extra, reported = self._dev(data, qrels, arqmath2, database, progress) if qrels else (
            training.Judged({}, {}, []), None, None)
        installed = True
        if corpus and judged is not None and out is None:
            row, report = loop.train(corpus, judged, dev, install=True)
            installed = row.state == RankerState.INSTALLED
            out = weights_dir(row.weights) if installed else None
        else:
            ranker, report = loop.fit(judged, dev) if judged is not None else training.train_on_dev(dev, extra)
            if reported is not None:
                report["arqmath3"] = training.held_out_report(ranker, reported)
            out = out or settings.MATHSEARCH_RANKER_DIR
            ranker.save(out, report)
        if options["json"]:
            self.stdout.write(json.dumps({**report, "installed": installed, "saved_to": out and str(out)}, indent=2,
                                         ensure_ascii=False))
        else:
            self._print(report, out)

    def _dev(self, data: Path, qrels: Path, arqmath2: bool, database: str | None, progress):
        """The development topics, and with `arqmath2` the ARQMath-2 (training) and ARQMath-3 (reported) topics."""
        try:
            with throwaway_database(database, keep=bool(database), reuse=bool(database)):
                dev = training.dev_topics(data, qrels, progress)
                if not arqmath2:
                    return dev, None, None
                return dev, *thread_judgments.thread_topics(data, [thread_judgments.ARQMATH2, thread_judgments.ARQMATH3],
                                                            progress)
        except MalformedFile as error:
            raise CommandError(str(error)) from None

    def _feedback(self, corpus: str) -> training.Judged:
        require_corpus(corpus)
        judged = training.feedback_topics(corpus)
        if len(judged.data) < 2:
            raise CommandError(f"corpus {corpus!r} has {len(judged.data)} queries with a 'relevant' judgment; "
                               "at least 2 are needed to cross-validate a ranker on them")
        return judged

    def _print(self, report: dict, out: Path | None) -> None:
        self.stdout.write(f"trained on {report['trained_on']} ({report['topics']} topics); cross-validated:")
        for line in training.cv_lines(report["cross_validated"]):
            self.stdout.write(line)
        if "extra_topics" in report:
            extra = report["extra_topics"]
            self.stdout.write(f"ARQMath-2 training topics: {extra['topics']} ({extra['judgments']} judged formulas on the"
                              f" pages, {extra['judged_candidates']} among the candidates, {extra['relevant']} of them"
                              f" relevant; {len(extra['unreadable_topics'])} queries unread)")
        if "arqmath3" in report:
            self.stdout.write("ARQMath-3 Task 2 over the pages (reported, never tuned on):")
            for line in training.held_out_lines(report["arqmath3"]):
                self.stdout.write(line)
        if any(report["importance"].values()):
            self.stdout.write("feature importance (share of gain): " + ", ".join(
                f"{name} {share:.2f}" for name, share in sorted(report["importance"].items(), key=lambda kv: -kv[1])))
        else:
            self.stdout.write(f"the trees made no split (a leaf needs at least {MIN_ROWS_PER_LEAF} judged results): "
                              "this ranker orders as the dense fusion does until more judgments teach it")
        if out is not None:
            self.stdout.write(self.style.SUCCESS(f"saved to {out}"))
            return
        latest = report["training"]
        kept, scores = without_it(latest)
        self.stdout.write(self.style.WARNING(
            f"not used: on this corpus's judged queries it ranks below {kept} (MAP′ {latest['after']['map_prime']:.3f}"
            f" vs {scores['map_prime']:.3f}, P′@10 {latest['after']['p10_prime']:.3f} vs {scores['p10_prime']:.3f}),"
            f" so searches keep what they had; the training is recorded with the corpus's rankers"))
