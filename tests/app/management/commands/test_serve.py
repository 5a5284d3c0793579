"""`make run`'s supervisor: a child that dies is started again, sooner when it had lived long."""
import subprocess
import sys
import time

import psutil

from searchapp.management.commands.serve import Child
from tests.conftest import REPO


def test_a_child_that_exits_is_restarted_with_a_growing_pause(monkeypatch):
    pauses = []
    monkeypatch.setattr(Child, "pause", pauses.append)
    child = Child("test", [sys.executable, "-c", "raise SystemExit(3)"], {})
    child.process.wait(timeout=30)
    assert child.exited() and child.process.returncode == 3
    assert child.restart() == 2.0 and child.restart() == 4.0  # died young: wait longer each time
    child.started -= Child.STABLE_SECONDS + 1
    assert child.restart() == 1.0  # lived long: restart soon
    assert pauses == [2.0, 4.0, 1.0]
    child.terminate()
    assert child.wait_until(time.monotonic() + 30)


def test_the_gunicorn_settings_load(service_env):
    run = subprocess.run([sys.executable, "-m", "gunicorn", "--check-config", "-c", "mathsearch/gunicorn.conf.py"],
                         cwd=REPO, env=service_env, capture_output=True, text=True, timeout=120)
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
