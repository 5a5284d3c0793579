"""`make run`: prepare the database, then run the web server and a Celery worker until Ctrl-C."""
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from searchapp.health import health_report
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded


class Command(BaseCommand):
    help = "Migrate, create the admin, load the starter corpus, and serve the site with a worker."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default=os.environ.get("MATHSEARCH_ADDR", "127.0.0.1:8000"))
        parser.add_argument("--no-starter", action="store_true", help="Skip loading the starter corpus.")

    def handle(self, *args, **options):
        self._require_services()
        call_command("migrate", interactive=False, verbosity=0)
        try:
            ensure_codebook_loaded()
        except CodebookMismatch as error:  # a new model: the stored vectors and postings belong to the old one
            raise CommandError(str(error)) from None
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("ensure_admin")
        if not options["no_starter"]:
            call_command("load_starter")
        children = self._start_children(options["addr"])
        self.stdout.write(self.style.SUCCESS(f"MathSearch at http://{options['addr']}/ — Ctrl-C stops everything"))
        try:
            self._wait(children)
        finally:
            self._stop(children)

    def _require_services(self) -> None:
        report = health_report()
        for name in ("database", "broker"):
            if not report["checks"][name]["ok"]:
                raise CommandError(f"{name} unreachable: {report['checks'][name]['detail']}")

    def _start_children(self, addr: str) -> list[subprocess.Popen]:
        # Children get the URLs of the servers this process holds, so they never start their own.
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "REDIS_URL": settings.REDIS_URL}
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        worker = [sys.executable, "-m", "celery", "-A", "mathsearch", "worker",
                  "--loglevel", "INFO", "--concurrency", "1", "-Q", "celery,index"]
        return [
            subprocess.Popen([*manage, "runserver", addr, "--noreload"], env=env),
            subprocess.Popen(worker, env=env, cwd=settings.BASE_DIR),
        ]

    def _wait(self, children: list[subprocess.Popen]) -> None:
        # Installed explicitly: a shell that starts us in the background leaves SIGINT ignored.
        signal.signal(signal.SIGINT, _interrupt)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            raise CommandError("a child process exited; stopping")
        except KeyboardInterrupt:
            self.stdout.write("stopping…")

    def _stop(self, children: list[subprocess.Popen]) -> None:
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()


def _interrupt(signum, frame):
    """SIGTERM stops the stack the same way Ctrl-C does."""
    raise KeyboardInterrupt
