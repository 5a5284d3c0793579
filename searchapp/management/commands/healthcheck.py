"""Print the health report as JSON; exit 1 when a dependency is down (for container health checks)."""
import json
import sys

from django.core.management.base import BaseCommand

from searchapp.health import health_report


class Command(BaseCommand):
    help = ("Check the database, pgvector, the broker and the search replica when one is configured (whether searches "
            "read it, its replay lag); exit status 1 if any is down.")

    def handle(self, *args, **options):
        report = health_report()
        self.stdout.write(json.dumps(report))
        if report["down"]:
            sys.exit(1)
