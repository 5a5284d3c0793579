"""`make run`'s supervisor: a child that dies is started again, sooner when it had lived long, and a Ctrl-C is a
stop even when its interrupt is lost."""
import math
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from searchapp.management import stop_request
from searchapp.management.commands.serve import Child, Command, StopSignals
from tests.app.factories import DEAD_BROKER, DEAD_DATABASE, run_manage
from tests.conftest import REPO


def test_a_child_that_exits_is_restarted_with_a_growing_pause(monkeypatch):
    pauses = []
    monkeypatch.setattr(Child, "pause", pauses.append)
    child = Child("test", [sys.executable, "-c", "raise SystemExit(3)"], {})
    child.process.wait(timeout=30)
    assert child.exited() and child.process.returncode == 3
    signals = StopSignals()
    assert child.restart(signals) == 2.0 and child.restart(signals) == 4.0  # died young: wait longer each time
    child.started -= Child.STABLE_SECONDS + 1
    assert child.restart(signals) == 1.0  # lived long: restart soon
    assert pauses == [2.0, 4.0, 1.0]
    child.terminate()
    assert child.wait_until(math.inf)  # no deadline: a child that never stops is failed by the per-test timeout


def test_the_gunicorn_settings_load(service_env):
    run = subprocess.run([sys.executable, "-m", "gunicorn", "--check-config", "-c", "mathsearch/gunicorn.conf.py"],
                         cwd=REPO, env=service_env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_a_child_that_ignores_sigterm_is_killed_with_what_it_started(tmp_path):
    """The backstop behind one SIGTERM: whatever is left of the child's group, an orphaned grandchild included."""
    grandchild_pid = tmp_path / "grandchild.pid"
    stubborn = ("import signal, subprocess, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                "p = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
                "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)']); "
                f"open({str(grandchild_pid)!r}, 'w').write(str(p.pid)); time.sleep(600)")
    child = Child("stubborn", [sys.executable, "-c", stubborn], {})
    while not grandchild_pid.exists() or not grandchild_pid.read_text():
        time.sleep(0.05)
    grandchild = psutil.Process(int(grandchild_pid.read_text()))
    child.terminate()
    assert not child.wait_until(time.monotonic() + 1.0)  # it ignored SIGTERM, so it was killed
    assert child.exited()
    assert not grandchild.is_running() or grandchild.status() == psutil.STATUS_ZOMBIE


@pytest.fixture
def own_signal_handlers():
    """StopSignals installs process-wide handlers; pytest's own come back afterwards."""
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in saved.items():
        signal.signal(number, handler)


def _ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.01)  # the handler runs in the main thread at its next bytecode


def test_the_first_ctrl_c_interrupts_and_later_ones_do_not(own_signal_handlers):
    signals = StopSignals()
    with pytest.raises(KeyboardInterrupt):
        _ctrl_c()
    _ctrl_c()  # a second key press, landing in the unwinding of the first
    assert signals.requested


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_ctrl_c_lost_in_a_finaliser_still_stops_before_children_start(own_signal_handlers):
    """Python prints and drops an exception raised while `__del__` runs; the stop must not be dropped with it."""
    signals = StopSignals()

    class Finaliser:
        def __del__(self):
            _ctrl_c()

    Finaliser()  # finalised at once: the KeyboardInterrupt is raised inside __del__, and lost
    assert signals.requested
    with pytest.raises(KeyboardInterrupt), signals.deferred():
        pytest.fail("the children started after a Ctrl-C")


def test_a_ctrl_c_while_children_start_is_raised_once_they_are_recorded(own_signal_handlers):
    signals = StopSignals()
    started = []
    with pytest.raises(KeyboardInterrupt), signals.deferred():
        _ctrl_c()
        started.append("web")  # still runs: the interrupt waits for the end of the block
    assert started == ["web"]


def test_a_ctrl_c_while_django_loads_stops_serve_before_it_prepares_anything(own_signal_handlers, monkeypatch):
    """manage.py listens before Django loads; what it heard is serve's first request to stop."""
    monkeypatch.setattr(stop_request, "requested", False)
    stop_request.listen()
    _ctrl_c()  # recorded, not raised: Django's start-up would have dropped it in a finaliser
    assert stop_request.requested
    with pytest.raises(KeyboardInterrupt), StopSignals().deferred():
        pytest.fail("the children started after a Ctrl-C")


def test_only_the_web_processes_read_the_replica(monkeypatch):
    """Workers index, and indexing reads back what it has just written: they are never given a replica, even one
    named in serve's own environment."""
    monkeypatch.setenv("DATABASE_REPLICA_URL", "postgresql://postgres:@/mathsearch?host=/elsewhere")
    replica = "postgresql://postgres:@/mathsearch?host=/srv/replica&port=5433"
    children = {name: env for name, _, env in Command()._commands("127.0.0.1:8000", False, replica)}
    assert children["web"]["DATABASE_REPLICA_URL"] == replica
    assert "DATABASE_REPLICA_URL" not in children["worker"] and "DATABASE_REPLICA_URL" not in children["small-uploads worker"]


def test_replica_refuses_a_primary_it_cannot_clone():
    result = run_manage("serve", "--replica", DATABASE_URL=DEAD_DATABASE, REDIS_URL=DEAD_BROKER)
    assert result.returncode == 1
    assert result.stderr.strip() == "CommandError: --replica clones the embedded Postgres and reads it as the replica: " \
                                    "unset DATABASE_URL (or run without --replica)"
