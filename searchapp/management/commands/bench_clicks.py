"""`python manage.py bench_clicks [--sessions N] [--seed S] [--bot-share F] [--reuse] [--json]`: the learning loop
driven by simulated people on the ARQMath-1 benchmark corpus (`searchapp.benchmarks.learning_loop`), before and
after, beside traffic that never clicks."""
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from corpora.tolerant import MalformedFile
from ml.evaluation.click_simulation import ClickModel
from searchapp.benchmarks import learning_loop
from searchapp.benchmarks.database import bench_database, throwaway_database

DEFAULT_DATA = settings.BASE_DIR.parent / "shared" / "data"
DEFAULT_QRELS = DEFAULT_DATA / "arqmath" / "qrels" / "qrels.arqmath-2020-task2-dev-visual_ids.txt"


class Command(BaseCommand):
    help = ("Simulate people who search and click (a position-based click model following the development "
            "judgments), run the learning loop between their sessions, and report MAP′ and P′@10 before and after.")

    def add_arguments(self, parser):
        parser.add_argument("--sessions", type=int, default=2000)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--eta", type=float, default=ClickModel.eta, help="position bias: examination = (1/rank)^eta")
        parser.add_argument("--bot-share", type=float, default=0.0,
                            help="the share of all sessions that search and never click (API calls, page reloads), "
                                 "added to the people's --sessions; in [0, 1)")
        parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
        parser.add_argument("--qrels", type=Path, default=DEFAULT_QRELS, help="the ARQMath-1 Task 2 development qrels")
        parser.add_argument("--reuse", action="store_true",
                            help="reuse the benchmark corpus a previous run kept (its feedback is cleared)")
        parser.add_argument("--drop", action="store_true", help="drop the benchmark database afterwards")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, sessions: int, seed: int, eta: float, bot_share: float, data: Path, qrels: Path,
               reuse: bool, drop: bool, **options):
        if sessions < 1:
            raise CommandError("--sessions must be at least 1")
        if not 0 <= bot_share < 1:
            raise CommandError("--bot-share must be at least 0 and less than 1")
        if eta < 0:
            raise CommandError("--eta must be 0 or more")
        for path in (data, qrels):
            if not path.exists():
                raise CommandError(f"not found: {path}")
        progress = self.stderr.write if options["json"] else self.stdout.write
        try:
            with throwaway_database(bench_database("clicks"), keep=not drop, reuse=reuse):
                report = learning_loop.benchmark(data, qrels, sessions, seed, ClickModel(eta=eta), progress, bot_share)
        except MalformedFile as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
            return
        for half in ("clicked", "unclicked"):
            part = report[half]
            self.stdout.write(f"{half} topics ({part['topics']}): " + ", ".join(
                f"{metric} {part['before'][metric]:.4f} → {part['after'][metric]:.4f} "
                f"(Δ {mean:+.4f} [{lo:+.4f}, {hi:+.4f}])" for metric, (mean, lo, hi) in part["delta"].items()))
        self.stdout.write(f"clicked topics at best: P′@10 {report['clicked_p10_reachable']:.4f} by feedback on the results "
                          f"people were shown, {report['clicked_p10_ideal']:.4f} by any ranking of the judged pools")
        self.stdout.write(f"interleaving picked the better ranker in {report['interleaving_agreement']} of "
                          f"comparisons ({report['interleaving']['comparisons']} in all)")
        self.stdout.write(f"beside {report['bot_sessions']} sessions that never clicked ({bot_share:.0%} of all)")
