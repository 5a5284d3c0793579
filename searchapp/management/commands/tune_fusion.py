"""`python manage.py tune_fusion --corpus NAME`: choose the fusion that maximises MAP′ on feedback."""
import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from searchapp.feedback.tuning import save_setting, tune


class Command(BaseCommand):
    help = "Grid-search the SLG/OPG fusion on feedback-judged queries; print MAP′ before and after; save the best."

    def add_arguments(self, parser):
        parser.add_argument("--corpus", help="tune on judgements of this corpus only (and search only it)")
        parser.add_argument("--dry-run", action="store_true", help="report without saving the setting")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, corpus: str | None, dry_run: bool, **options):
        report = tune(corpus)
        if not report.queries:
            raise CommandError("no query has a 'relevant' judgement yet; collect feedback first")
        if not dry_run:
            save_setting(report)
        summary = {
            "queries": report.queries, "skipped": len(report.skipped),
            "before": {"fusion": report.before.fusion, "slg_weight": report.before.slg_weight,
                       "map_prime": round(report.before_map, 4)},
            "after": {"fusion": report.best.fusion, "slg_weight": report.best.slg_weight,
                      "map_prime": round(report.best_map, 4)},
            "saved_to": None if dry_run else str(settings.MATHSEARCH_FUSION_FILE),
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary))
            return
        self.stdout.write(f"{report.queries} judged queries ({len(report.skipped)} skipped: unparsable)")
        for setting, value in report.table:
            self.stdout.write(f"  {setting.fusion:8} slg_weight={setting.slg_weight:.1f}  MAP′={value:.4f}")
        self.stdout.write(f"before: {report.before.fusion} (slg_weight {report.before.slg_weight}) "
                          f"MAP′={report.before_map:.4f}")
        self.stdout.write(f"after:  {report.best.fusion} (slg_weight {report.best.slg_weight}) "
                          f"MAP′={report.best_map:.4f}" + ("" if dry_run else f" → saved to {summary['saved_to']}"))
