"""`serve` frees its address from a web process an earlier run left, and names any other program holding it."""
import socket
import subprocess
import sys
import time

import pytest

from searchapp.management.address import AddressHeld, free_address
from tests.conftest import REPO

LISTEN = ("import socket, sys, time; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(); "
          "print('ready', flush=True); time.sleep(600)")


def _listener(cwd, *label: str) -> tuple[subprocess.Popen, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-c", LISTEN, str(port), *label], cwd=cwd, stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout.readline().strip() == "ready"
    return process, port


def test_a_leftover_web_process_of_this_checkout_is_stopped_with_one_line():
    leftover, port = _listener(REPO, "gunicorn")
    lines = free_address(f"127.0.0.1:{port}", REPO)
    assert len(lines) == 1 and f"pid {leftover.pid}" in lines[0] and "stopped it" in lines[0]
    assert leftover.wait(timeout=10) is not None


def test_another_program_on_the_address_is_named_and_left_alone(tmp_path):
    other, port = _listener(tmp_path, "someone-elses-server")
    try:
        with pytest.raises(AddressHeld, match=rf"127.0.0.1:{port} is in use by pid {other.pid}: .*python"):
            free_address(f"127.0.0.1:{port}", REPO)
        time.sleep(0.2)
        assert other.poll() is None
    finally:
        other.kill()


def test_a_free_address_needs_nothing():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert free_address(f"127.0.0.1:{port}", REPO) == []
