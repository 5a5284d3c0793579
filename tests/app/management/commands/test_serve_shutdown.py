"""Ctrl-C on `make run`'s process tree leaves nothing behind, whenever it comes.

The terminal sends SIGINT to the whole foreground process group, once per key press; here it comes three times, at four
moments: while `serve` prepares, as soon as the site first answers (where a gunicorn worker used to hang, orphaned
on the port), while a question search runs, and idle. `MATHSEARCH_SHUTDOWN_ROUNDS=20` repeats each moment.
"""
import contextlib
import itertools
import os
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import psutil
import pytest
from django.db import connection

from searchapp.management.commands.serve import STOP_SECONDS
from tests.app.factories import index_thread_pages
from tests.conftest import REPO

ROUNDS = int(os.environ.get("MATHSEARCH_SHUTDOWN_ROUNDS", "1"))
QUESTION = "/questions?q=Why+is+%24x%5E2%2By%5E2%24+never+negative%3F"
LONG_QUESTION = ("Why is $\\sum_{k=1}^{n} x_k^2 \\ge 0$ for all real $x_k$? " * 90)[:4475]
"""Within the documented 5,000 characters; its URL is over gunicorn's default request line of 4,094 bytes."""
PAGES = {"11_12.html": ("Sum of squares", "<p>Is $x^2+y^2 \\ge 0$ for all real numbers?</p>",
                        "<p>Each square is non-negative, so $x^2+y^2\\ge 0$.</p>")}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str, timeout: float = 30.0) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


class Tree:
    """`make run` in a session of its own (as a terminal runs it), and every process it ever had."""

    def __init__(self, env: dict, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.port = port
        self.root = subprocess.Popen(["make", "--no-print-directory", "run"], cwd=REPO,
                                     env={**env, "MATHSEARCH_ADDR": f"127.0.0.1:{port}"}, start_new_session=True,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.seen: dict[tuple[int, float], psutil.Process] = {}
        self._look()

    def _look(self) -> None:
        try:
            root = psutil.Process(self.root.pid)
            for process in [root, *root.children(recursive=True)]:
                self.seen.setdefault((process.pid, process.create_time()), process)
        except psutil.NoSuchProcess:
            pass

    def wait_healthy(self) -> None:
        """No deadline: a site that never becomes healthy is failed by the per-test timeout (pytest.ini)."""
        while _get(self.url + "/healthz", timeout=2) != 200:
            self._look()
            assert self.root.poll() is None, self.root.stderr.read()
            time.sleep(0.2)
        self._look()

    def ctrl_c(self) -> None:
        """Three quick key presses, as a person who wants it to stop now gives them."""
        self._look()
        for _ in range(3):
            os.killpg(self.root.pid, signal.SIGINT)
            time.sleep(0.05)

    def _stacks_of_serve(self) -> str:
        """What a hung `serve` was doing: its threads' stacks (manage.py's SIGUSR1) and the tree's last output."""
        for process in self.seen.values():
            with contextlib.suppress(psutil.NoSuchProcess):
                if "manage.py serve" in " ".join(process.cmdline()):
                    process.send_signal(signal.SIGUSR1)
        time.sleep(1)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.root.pid, signal.SIGKILL)
        descriptor = self.root.stderr.fileno()
        os.set_blocking(descriptor, False)  # a child in a group of its own may still hold the pipe open
        output = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(descriptor, 65536):
                output += chunk
        return output.decode(errors="replace")[-6000:]

    def assert_gone(self) -> None:
        self._look()  # a child started just as the Ctrl-C came is part of the tree too
        _, alive = psutil.wait_procs(list(self.seen.values()), timeout=STOP_SECONDS + 10)
        leftovers = [_described(process) for process in alive]
        stacks = self._stacks_of_serve() if any(leftovers) else ""
        for process in alive:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        assert not any(leftovers), f"alive after Ctrl-C: {leftovers}\n{stacks}"
        self.root.wait(timeout=10)
        with socket.socket() as probe:
            # As gunicorn binds: the connections it closed linger in TIME_WAIT without holding the port.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", self.port))  # raises if anything still listens there


def _described(process: psutil.Process) -> str:
    """The process's pid and command line, or "" once it has ended (a zombie waits only for its reaper)."""
    try:
        if process.status() != psutil.STATUS_ZOMBIE:
            return f"{process.pid} {' '.join(process.cmdline())[:80]}"
    except psutil.NoSuchProcess:
        pass
    return ""


@pytest.fixture
def site_env(service_env, transactional_db, tmp_path):
    """The test database with a thread page in it, so that a question search does all its work."""
    index_thread_pages(tmp_path / "pages", PAGES)
    yield service_env
    # A child killed in a transaction leaves its backend holding its locks until Postgres notices the client is
    # gone, and the flush after the test deadlocked with one once (under load). End them first.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                       " WHERE datname = current_database() AND pid <> pg_backend_pid()")


START_DELAYS = itertools.cycle([1.0, 2.0, 0.5, 3.0, 1.5, 4.0])
"""Seconds into start-up: spread over the preparation and the children's start when the moment is repeated."""


def _during_start(tree: Tree) -> None:
    time.sleep(next(START_DELAYS))


def _when_first_healthy(tree: Tree) -> None:
    tree.wait_healthy()


def _during_a_question_search(tree: Tree) -> None:
    tree.wait_healthy()
    threading.Thread(target=_get, args=(tree.url + QUESTION,), daemon=True).start()
    time.sleep(0.3)


def _idle(tree: Tree) -> None:
    """After searches by a long question, on the page and the API, served whole by gunicorn."""
    tree.wait_healthy()
    for path in ("/questions", "/api/posts"):
        assert _get(f"{tree.url}{path}?{urllib.parse.urlencode({'q': LONG_QUESTION})}") == 200, path
    time.sleep(1.0)


@pytest.mark.parametrize("moment", [pytest.param(_during_start, id="starting"),
                                    pytest.param(_when_first_healthy, id="first-healthy"),
                                    pytest.param(_during_a_question_search, id="searching"),
                                    pytest.param(_idle, id="idle")])
def test_ctrl_c_stops_the_whole_tree_and_frees_the_port(site_env, moment):
    for _ in range(ROUNDS):
        tree = Tree(site_env, _free_port())
        try:
            moment(tree)
            tree.ctrl_c()
        finally:
            tree.assert_gone()
