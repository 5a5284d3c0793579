"""`make run`'s supervisor: a child that dies is started again, sooner when it had lived long."""
import subprocess
import sys

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
    child.stop()


def test_the_gunicorn_settings_load(service_env):
    run = subprocess.run([sys.executable, "-m", "gunicorn", "--check-config", "-c", "mathsearch/gunicorn.conf.py"],
                         cwd=REPO, env=service_env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
