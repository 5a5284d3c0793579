"""Lifecycle of the embedded servers, each test in its own throw-away var directory."""
import json
import socket
import subprocess
import sys

import psutil
import psycopg
import pytest
import redis

from mathsearch.embedded import SHARED_BUFFERS, EmbeddedServiceError, EmbeddedServices
from tests.conftest import REPO


@pytest.fixture
def services(tmp_path):
    embedded = EmbeddedServices(tmp_path / "var")
    yield embedded
    embedded._write_users(set())  # whatever a test left registered, stop the servers
    embedded.release()


def assert_usable(urls):
    with psycopg.connect(urls.database_url) as conn:
        assert conn.execute("SELECT current_database()").fetchone()[0] == "mathsearch"
    assert redis.Redis.from_url(urls.redis_url).ping()


def test_start_then_stop(services):
    urls = services.acquire()
    assert_usable(urls)
    status = services.status()
    assert status["postgres_pid"] and status["valkey_pid"]
    services.release()
    assert services.status() == {"postgres_pid": None, "valkey_pid": None, "users": []}


def test_new_server_runs_with_the_larger_shared_buffers(services):
    urls = services.acquire()
    with psycopg.connect(urls.database_url) as conn:
        assert conn.execute("SHOW shared_buffers").fetchone()[0] == SHARED_BUFFERS


def test_second_acquire_reuses_running_servers(services):
    first = services.acquire()
    pids = services.status()
    second = EmbeddedServices(services.var_dir).acquire()
    assert second == first
    assert services.status()["postgres_pid"] == pids["postgres_pid"]
    assert services.status()["valkey_pid"] == pids["valkey_pid"]


def test_servers_outlive_a_release_while_another_process_uses_them(services):
    services.acquire()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        services._write_users({other.pid} | set(services.status()["users"]))
        services.release()
        assert services.status()["postgres_pid"] is not None
    finally:
        other.kill()
        other.wait()
    services.release()  # the other user is dead now: its pid is pruned and the servers stop
    assert services.status()["postgres_pid"] is None


def test_stale_pids_after_a_crash_are_recovered(services):
    urls = services.acquire()
    status = services.status()
    for pid in (status["postgres_pid"], status["valkey_pid"]):
        psutil.Process(pid).kill()
    psutil.wait_procs([psutil.Process(status["postgres_pid"])], timeout=5)
    services.users_file.write_text(json.dumps([999_999_999]))  # a user that died without releasing
    restarted = services.acquire()
    assert_usable(restarted)
    assert restarted.database_url == urls.database_url
    assert 999_999_999 not in services.status()["users"]


@pytest.fixture
def other_user(services):
    """A live process registered as a user of the servers, as a running web server or worker would be."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield lambda: services._write_users({other.pid} | set(services.status()["users"]))
    other.kill()
    other.wait()


def kill_valkey(services) -> None:
    valkey = psutil.Process(services.status()["valkey_pid"])
    valkey.kill()
    valkey.wait(5)


def test_a_crashed_valkey_comes_back_on_the_port_its_users_send_to(services, other_user):
    urls = services.acquire()
    other_user()
    kill_valkey(services)
    restarted = services.acquire()
    assert restarted.redis_url == urls.redis_url  # the same broker again, not a second one nobody reads
    assert_usable(restarted)


def test_a_crashed_valkey_whose_port_is_taken_is_an_error_not_a_second_broker(services, other_user):
    urls = services.acquire()
    other_user()
    kill_valkey(services)
    port = int(urls.redis_url.rsplit(":", 1)[1].split("/")[0])
    with socket.create_server(("127.0.0.1", port)):
        with pytest.raises(EmbeddedServiceError, match=f"Valkey is down and its port {port} is taken"):
            services.acquire()
    assert services.status()["valkey_pid"] is None


def test_concurrent_starts_share_one_server(tmp_path):
    var = tmp_path / "var"
    script = (
        "import sys, time; from mathsearch.embedded import SHARED_BUFFERS, EmbeddedServices; "
        f"s = EmbeddedServices({str(var)!r}); u = s.acquire(); print(u.redis_url, flush=True); "
        "sys.stdin.readline(); s.release()"
    )
    starts = [subprocess.Popen([sys.executable, "-c", script], cwd=REPO, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True) for _ in range(2)]
    urls = {process.stdout.readline().strip() for process in starts}
    assert len(urls) == 1
    for process in starts:
        process.communicate("\n")
    assert EmbeddedServices(var).status()["postgres_pid"] is None
