"""`make run`: prepare the database, then run gunicorn and a Celery worker until Ctrl-C, restarting either if it dies.

`make dev` runs Django's development server instead of gunicorn (`--dev`): it reloads code, but it starts a thread
per request with no bound, so it is never the default.
"""
from __future__ import annotations

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
        parser.add_argument("--dev", action="store_true", help="Django's development server instead of gunicorn.")

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
        children = {name: Child(name, command, env) for name, command, env in self._commands(options["addr"],
                                                                                         options["dev"])}
        self.stdout.write(self.style.SUCCESS(f"MathSearch at http://{options['addr']}/ — Ctrl-C stops everything"))
        try:
            self._supervise(children)
        finally:
            for child in children.values():
                child.stop()

    def _require_services(self) -> None:
        report = health_report()
        for name in ("database", "broker"):
            if not report["checks"][name]["ok"]:
                raise CommandError(f"{name} unreachable: {report['checks'][name]['detail']}")

    def _commands(self, addr: str, dev: bool) -> list[tuple[str, list[str], dict]]:
        # Children get the URLs of the servers this process holds, so they never start their own.
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "REDIS_URL": settings.REDIS_URL,
               "MATHSEARCH_ADDR": addr}
        web = ([sys.executable, str(settings.BASE_DIR / "manage.py"), "runserver", addr, "--noreload"] if dev else
               [sys.executable, "-m", "gunicorn", "-c", str(settings.BASE_DIR / "mathsearch" / "gunicorn.conf.py")])
        worker = [sys.executable, "-m", "celery", "-A", "mathsearch", "worker",
                  "--loglevel", "INFO", "--concurrency", "1", "-Q", "celery,index"]
        return [("web", web, env), ("worker", worker, env)]

    def _supervise(self, children: dict[str, Child]) -> None:
        """Restart a child that exits (its interrupted jobs resume when the worker is ready again) until Ctrl-C."""
        # Installed explicitly: a shell that starts us in the background leaves SIGINT ignored.
        signal.signal(signal.SIGINT, _interrupt)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            while True:
                for child in children.values():
                    if child.exited():
                        code = child.process.returncode
                        waited = child.restart()
                        self.stderr.write(f"{child.name} exited with code {code}; restarted it after {waited:.0f} s")
                time.sleep(0.5)
        except KeyboardInterrupt:
            self.stdout.write("stopping…")


class Child:
    """A supervised process: restarted after it exits, waiting longer each time it dies young (at most 30 s)."""

    STABLE_SECONDS = 60
    pause = staticmethod(time.sleep)

    def __init__(self, name: str, command: list[str], env: dict) -> None:
        self.name, self.command, self.env, self.backoff = name, command, env, 1.0
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        self.started = time.monotonic()
        return subprocess.Popen(self.command, env=self.env, cwd=settings.BASE_DIR)

    def exited(self) -> bool:
        return self.process.poll() is not None

    def restart(self) -> float:
        """Start it again after a pause; returns the pause in seconds."""
        lived = time.monotonic() - self.started
        self.backoff = 1.0 if lived > self.STABLE_SECONDS else min(self.backoff * 2, 30.0)
        self.pause(self.backoff)
        self.process = self._start()
        return self.backoff

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


def _interrupt(signum, frame):
    """SIGTERM stops the stack the same way Ctrl-C does."""
    raise KeyboardInterrupt
