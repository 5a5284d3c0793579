"""`python manage.py loadtest --url URL --clients N --seconds S [--json]`: load a running site with locust (headless).

locust runs in a child process (`searchapp.benchmarks.load`, which says why); this command checks that the site
answers, starts it, and prints what it measured.
"""
import json
import subprocess
import sys
import urllib.error
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

SPARE_SECONDS = 60
"""How long the child may take beyond the load itself (starting, the last answers, stopping) before it is killed."""


class Command(BaseCommand):
    help = "Search a running site with N concurrent clients for S seconds and report throughput and latency."

    def add_arguments(self, parser):
        parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
        parser.add_argument("--clients", type=int, default=8)
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, url: str, clients: int, seconds: float, **options):
        if clients < 1 or seconds <= 0:
            raise CommandError("--clients must be at least 1 and --seconds positive")
        require_reachable(url)
        child = [sys.executable, "-m", "searchapp.benchmarks.load", "--url", url, "--clients", str(clients),
                 "--seconds", str(seconds)]
        try:
            run = subprocess.run(child, cwd=settings.BASE_DIR, capture_output=True, text=True,
                                 timeout=seconds + SPARE_SECONDS)
        except subprocess.TimeoutExpired:
            raise CommandError(f"the load test did not stop within {SPARE_SECONDS} s of its end") from None
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise CommandError(f"locust failed: {last}")
        report = json.loads(run.stdout.strip().splitlines()[-1])
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else summary(report))


def require_reachable(url: str) -> None:
    """Any HTTP answer will do (even a 503: the load test measures that); no answer is a one-line error."""
    try:
        urllib.request.urlopen(url, timeout=10).close()
    except urllib.error.HTTPError:
        pass
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise CommandError(f"{url} is unreachable: {getattr(error, 'reason', error)}") from None


def summary(report: dict) -> str:
    latency = report["latency_ms"]
    statuses = ", ".join(f"{code}: {count}" for code, count in report["status_codes"].items())
    return "\n".join([
        f"{report['clients']} clients for {report['seconds']:g} s against {report['url']}",
        f"requests      {report['requests']} ({report['requests_per_s']} /s)",
        f"successes     {report['successes']} ({report['success_rate']:.3%})",
        f"latency (ms)  p50 {latency['p50']}  p95 {latency['p95']}  p99 {latency['p99']}",
        f"status codes  {statuses}",
        *(f"  {name:14}{entry['requests']} requests, p95 {entry['p95_ms']} ms" for name, entry in report["by_name"].items()),
    ])
