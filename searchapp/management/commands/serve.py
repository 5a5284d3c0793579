"""`make run`: prepare the database, then run gunicorn and a Celery worker (with beat, which schedules the learning
loop) until Ctrl-C, restarting either if it dies.

Each child runs in a process group of its own, so the terminal's Ctrl-C (sent to its whole foreground group,
once per key press) reaches only this supervisor, which signals each child once. A gunicorn worker that got the
terminal's SIGINT and then its master's SIGQUIT re-entered its thread pool's shutdown and hung, orphaned, on
the port. Whatever of a child's group outlives STOP_SECONDS is killed, and waited for.

A stop is remembered, not only raised (see StopSignals): an interrupt raised while a finaliser runs is lost, and a
lost one once left serve starting its children and supervising them forever.

`make dev` runs Django's development server instead of gunicorn (`--dev`): it reloads code, but it starts a thread
per request with no bound, so it is never the default.

`make run-replica` (`--replica`) also starts a hot standby of the embedded Postgres in var/replica
(`searchapp.replica_server`), cloned at its first start and reused after, and stops it last: the web processes read
the index there (DATABASE_REPLICA_URL); the workers, and every write, stay on the primary.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import psutil
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from searchapp.health import health_report
from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded
from searchapp.indexing.queues import BIG, SMALL
from searchapp.management import stop_request
from searchapp.management.address import AddressHeld, free_address
from searchapp.replica_server import EmbeddedReplica, ReplicaError

STOP_SECONDS = 20.0
"""How long the children get to stop after one SIGTERM: gunicorn's graceful timeout, in which its master stops its
workers; then their process groups are killed."""


class Command(BaseCommand):
    help = "Migrate, create the admin, load the starter corpus, and serve the site with a worker."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default=os.environ.get("MATHSEARCH_ADDR", "127.0.0.1:8000"))
        parser.add_argument("--no-starter", action="store_true", help="Skip loading the starter corpus.")
        parser.add_argument("--dev", action="store_true", help="Django's development server instead of gunicorn.")
        parser.add_argument("--replica", action="store_true",
                            help="Start a hot standby of the embedded Postgres in var/replica for searches to read.")

    def handle(self, *args, **options):
        # Installed first: a shell that starts us in the background leaves SIGINT ignored, and a Ctrl-C during the
        # preparation must stop as cleanly as a later one.
        self.signals = StopSignals()
        children: dict[str, Child] = {}
        replica = self._replica() if options["replica"] else None
        try:
            self.signals.raise_if_requested()
            self._prepare(options)
            replica_url = settings.DATABASE_REPLICA_URL
            if replica is not None:
                try:
                    replica.start(self.stdout.write)
                except ReplicaError as error:
                    raise CommandError(str(error)) from None
                replica_url = replica.url(settings.DATABASES["default"]["NAME"])
            with self.signals.deferred():  # raised inside Popen, a Ctrl-C would lose a started child
                children = {name: Child(name, command, env) for name, command, env
                            in self._commands(options["addr"], options["dev"], replica_url)}
            self.stdout.write(self.style.SUCCESS(f"MathSearch at http://{options['addr']}/ — Ctrl-C stops everything"))
            self._supervise(children)
        except KeyboardInterrupt:
            self.stdout.write("stopping…")
        finally:
            self._stop(children)
            if replica is not None:
                replica.stop()

    def _replica(self) -> EmbeddedReplica:
        """The embedded primary's standby in var/replica; a replica named by DATABASE_REPLICA_URL, or a primary named
        by DATABASE_URL, is not one that `--replica` can clone."""
        for variable in ("DATABASE_URL", "DATABASE_REPLICA_URL"):
            if os.environ.get(variable):
                raise CommandError(f"--replica clones the embedded Postgres and reads it as the replica: unset {variable}"
                                   " (or run without --replica)")
        return EmbeddedReplica(settings.VAR_DIR / "replica", settings.DATABASES["default"])

    def _prepare(self, options) -> None:
        """The services reachable, the address free, the schema and codebook current, the admin and starter there."""
        self._require_services()
        try:
            freed = free_address(options["addr"], settings.BASE_DIR)
        except AddressHeld as error:
            raise CommandError(str(error)) from None
        for line in freed:
            self.stderr.write(line)
        call_command("migrate", interactive=False, verbosity=0)
        try:
            ensure_codebook_loaded()
        except CodebookMismatch as error:  # a new model: the stored vectors and postings belong to the old one
            raise CommandError(str(error)) from None
        call_command("collectstatic", interactive=False, verbosity=0)
        call_command("ensure_admin")
        if not options["no_starter"]:
            call_command("load_starter")

    def _require_services(self) -> None:
        report = health_report()
        for name in ("database", "broker"):
            if not report["checks"][name]["ok"]:
                raise CommandError(f"{name} unreachable: {report['checks'][name]['detail']}")

    def _commands(self, addr: str, dev: bool, replica_url: str = "") -> list[tuple[str, list[str], dict]]:
        # Children get the URLs of the servers this process holds, so they never start their own. Only the web
        # processes read the replica: indexing reads back what it has just written.
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL, "REDIS_URL": settings.REDIS_URL,
               "MATHSEARCH_ADDR": addr}
        env.pop("DATABASE_REPLICA_URL", None)
        web_env = {**env, "DATABASE_REPLICA_URL": replica_url} if replica_url else env
        web = ([sys.executable, str(settings.BASE_DIR / "manage.py"), "runserver", addr, "--noreload"] if dev else
               [sys.executable, "-m", "gunicorn", "-c", str(settings.BASE_DIR / "mathsearch" / "gunicorn.conf.py")])
        # The workers run below the web processes (nice 10): a search during a big job is not slowed by it. -B: the
        # first runs Celery beat too (the learning loop's clock), so there is one scheduler; the second takes only
        # small uploads (`searchapp.indexing.queues`), so they never wait behind a big job.
        celery = ["nice", "-n", "10", sys.executable, "-m", "celery", "-A", "mathsearch", "worker", "--loglevel", "INFO",
                  "--concurrency", "1"]
        worker = [*celery, "-B", "--schedule", str(settings.VAR_DIR / "celerybeat-schedule"), "-Q", f"celery,{BIG}",
                  "-n", "worker@%h"]
        small = [*celery, "-Q", SMALL, "-n", "small@%h"]
        return [("web", web, web_env), ("worker", worker, env), ("small-uploads worker", small, env)]

    def _supervise(self, children: dict[str, Child]) -> None:
        """Restart a child that exits (its interrupted jobs resume when the worker is ready again) until Ctrl-C."""
        while True:
            self.signals.raise_if_requested()
            for child in children.values():
                if child.exited():
                    code = child.process.returncode
                    waited = child.restart(self.signals)
                    self.stderr.write(f"{child.name} exited with code {code}; restarted it after {waited:.0f} s")
            time.sleep(0.5)

    def _stop(self, children: dict[str, Child]) -> None:
        """One SIGTERM to each child, then wait for all of them together; a Ctrl-C meanwhile changes nothing."""
        self.signals.requested = True  # also when stopping for another reason than a signal
        for child in children.values():
            child.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for child in children.values():
            if not child.wait_until(deadline):
                self.stderr.write(f"{child.name} did not stop within {STOP_SECONDS:.0f} s; killed it")


class Child:
    """A supervised process: restarted after it exits, waiting longer each time it dies young (at most 30 s)."""

    STABLE_SECONDS = 60
    pause = staticmethod(time.sleep)

    def __init__(self, name: str, command: list[str], env: dict) -> None:
        self.name, self.command, self.env, self.backoff = name, command, env, 1.0
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        self.started = time.monotonic()
        # process_group=0: the child leads a group of its own (see the module's docstring)
        return subprocess.Popen(self.command, env=self.env, cwd=settings.BASE_DIR, process_group=0)

    def exited(self) -> bool:
        return self.process.poll() is not None

    def restart(self, signals: StopSignals) -> float:
        """Start it again after a pause; returns the pause in seconds."""
        lived = time.monotonic() - self.started
        self.backoff = 1.0 if lived > self.STABLE_SECONDS else min(self.backoff * 2, 30.0)
        self.pause(self.backoff)
        with signals.deferred():
            self.process = self._start()
        return self.backoff

    def terminate(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()

    def wait_until(self, deadline: float) -> bool:
        """Wait for the child until `deadline`, then kill what is left of its group (a straggler that outlived its
        leader included); True if it had stopped by itself."""
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            stopped = True
        except subprocess.TimeoutExpired:
            stopped = False
        _kill_group(self.process.pid)
        self.process.wait()
        return stopped


def _kill_group(pgid: int, timeout: float = 5.0) -> None:
    """SIGKILL every process left in the group, and wait until none runs (zombies wait only for their reaper)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:  # the group is empty
            return
        if not any(_in_group(process, pgid) for process in psutil.process_iter()):
            return
        time.sleep(0.05)


def _in_group(process: psutil.Process, pgid: int) -> bool:
    try:
        return os.getpgid(process.pid) == pgid and process.status() != psutil.STATUS_ZOMBIE
    except (ProcessLookupError, psutil.NoSuchProcess):
        return False


class StopSignals:
    """Ctrl-C and SIGTERM ask serve to stop. The first one raises KeyboardInterrupt, to cut the preparation short,
    and is remembered: Python loses an exception raised in a signal handler while a finaliser (`__del__`) runs, so
    serve also checks the request before starting its children and on every supervising round. Later ones change
    nothing: one landing in the unwinding of the first must not raise again, and a handler that does no I/O cannot
    block on a full stderr pipe."""

    def __init__(self) -> None:
        self.requested = stop_request.requested  # one that came while Django loaded (`manage.py` listened)
        self._deferring = False
        signal.signal(signal.SIGINT, self._on_signal)
        signal.signal(signal.SIGTERM, self._on_signal)

    def _on_signal(self, signum, frame) -> None:
        if self.requested:
            return
        self.requested = True
        if not self._deferring:
            raise KeyboardInterrupt

    def raise_if_requested(self) -> None:
        if self.requested:
            raise KeyboardInterrupt

    @contextmanager
    def deferred(self):
        """A stop asked for inside the block is raised at its end, once what the block started is recorded."""
        self.raise_if_requested()
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        self.raise_if_requested()
