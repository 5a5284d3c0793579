"""`python manage.py bench_growth REPORT.json ... [--predict N] [--shard N] [--json]`: the growth curve of
`bench_search --json` reports at several sizes, its fit and its prediction (`searchapp.benchmarks.growth`)."""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from searchapp.benchmarks.growth import growth_report


class Command(BaseCommand):
    help = ("Fit a power law to the latencies of bench_search reports at several sizes, and predict the latency at a "
            "larger size on one machine and per shard.")

    def add_arguments(self, parser):
        parser.add_argument("reports", nargs="+", type=Path, help="bench_search --json outputs, one per size")
        parser.add_argument("--predict", type=int, default=30_000_000, help="formulas to predict the latency at")
        parser.add_argument("--shard", type=int, default=2_000_000, help="formulas a shard holds")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, reports: list[Path], predict: int, shard: int, **options):
        if not 0 < shard <= predict:
            raise CommandError("--shard must be above 0 and at most --predict")
        try:
            loaded = [json.loads(path.read_text()) for path in reports]
            report = growth_report(loaded, predict, shard)
        except OSError as error:
            raise CommandError(f"cannot read a report: {error}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"a report is not JSON: {error}") from None
        except (KeyError, ValueError) as error:
            raise CommandError(f"not a curve of bench_search reports: {error}") from None
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else _table(report))


def _table(report: dict) -> str:
    """The sizes as a Markdown table, then the fit and the prediction, as docs/scaling.md shows them."""
    lines = ["| formulas | p50 ms | p95 ms | overlap@10 | candidates | bytes a formula (index / all) |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {size['formulas']:,} | {size['p50_ms']} | {size['p95_ms']} | {size['overlap_at_10']} | "
              f"{size['candidates_mean']} | {size['index_bytes_per_formula']:,} / {size['all_bytes_per_formula']:,} |"
              for size in report["sizes"]]
    predicted = report["predicted"]
    lines.append("")
    for name, fit in report["fits"].items():
        lines.append(f"{name}: {fit['a']:.3g} · N^{fit['exponent']}; at {predicted['formulas']:,}: "
                     f"{predicted[f'one_machine_{name}']} {predicted[f'one_machine_{name}_range']}, "
                     f"per shard of {predicted['shard_formulas']:,}: {predicted[f'per_shard_{name}']} "
                     f"{predicted[f'per_shard_{name}_range']}")
    lines.append(f"{predicted['shards']} shards; {predicted['disk_gb']} GB in all")
    return "\n".join(lines)
