"""The production compose file: web reads searches from a streaming replica of the primary; the worker never does."""
import yaml

from tests.conftest import REPO

COMPOSE = REPO / "docker" / "compose.yaml"


def test_the_replica_streams_from_the_primary_and_only_web_reads_from_it():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    replica = services["db-replica"]
    assert "pg_basebackup --host db" in replica["command"][-1] and "hot_standby=on" in replica["command"][-1]
    assert replica["depends_on"]["db"]["condition"] == "service_healthy"
    assert "@db-replica:5432/" in services["web"]["environment"]["DATABASE_REPLICA_URL"]
    assert "@db:5432/" in services["web"]["environment"]["DATABASE_URL"]
    assert "DATABASE_REPLICA_URL" not in services["worker"]["environment"]
    mounted = [volume for volume in services["db"]["volumes"] if "docker-entrypoint-initdb.d" in volume]
    script = REPO / "docker" / mounted[0].split(":")[0].removeprefix("./")
    assert "host replication" in script.read_text()


def test_the_replica_is_cloned_and_failed_over_as_serve_replica_does():
    """Through a slot of its own, which the primary keeps WAL for as the embedded one does; searches go to the primary
    past the same lag bound, and web does not wait for a replica it can do without."""
    from searchapp.replica_server import SLOT_WAL_LIMIT

    services = yaml.safe_load(COMPOSE.read_text())["services"]
    clone = services["db-replica"]["command"][-1]
    assert "--create-slot --slot mathsearch_replica" in clone and "slot_name = 'mathsearch_replica'" in clone
    assert f"max_slot_wal_keep_size={SLOT_WAL_LIMIT}" in services["db"]["command"]
    assert services["web"]["environment"]["MATHSEARCH_REPLICA_MAX_LAG"] == "${MATHSEARCH_REPLICA_MAX_LAG:-5}"
    assert services["web"]["depends_on"]["db-replica"]["condition"] == "service_started"


def test_production_is_secure_by_default_and_reached_through_the_proxy():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert services["web"]["environment"]["SECURE"] == "${SECURE:-true}"
    assert "ports" not in services["web"] and services["proxy"]["ports"] == ["80:80", "443:443"]


def _nginx_limits() -> dict[str, int]:
    """client_max_body_size by location ("" for the server-wide default), in bytes."""
    units = {"k": 1024, "m": 1024 ** 2}
    limits, location = {}, ""
    for line in (REPO / "docker" / "nginx.conf").read_text().splitlines():
        words = line.split("#")[0].split()
        if words[:1] == ["location"]:
            location = words[-2]
        elif words[:1] == ["}"]:
            location = ""
        elif words[:1] == ["client_max_body_size"]:
            size = words[1].rstrip(";")
            limits[location] = int(size[:-1]) * units[size[-1]]
    return limits


def test_the_proxy_refuses_bodies_at_the_apps_limits(settings):
    """nginx's limits are the app's, rounded up to its units by at most 1 MB."""
    from searchapp.web.body_limits import UPLOAD_PATH, body_limit

    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 200 * 1024 * 1024  # the default, which the proxy is written for
    limits = _nginx_limits()
    for path, location in [("/feedback", ""), ("/api/feedback", ""), ("/admin/login/", ""),
                           ("/admin/searchapp/corpus/", "/admin/"), (UPLOAD_PATH, UPLOAD_PATH)]:
        assert 0 <= limits[location] - body_limit(path) < 1024 ** 2, path


def test_one_beat_schedules_learning_and_web_reads_the_rankers_the_worker_trains():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    assert "beat" in services["beat"]["command"].split() and "beat" not in services["worker"]["command"].split()
    assert "-B" not in services["worker"]["command"].split()  # one scheduler, however many workers
    assert "rankers:/app/var/rankers" in services["web"]["volumes"] == services["worker"]["volumes"]


def test_small_uploads_have_a_worker_of_their_own_below_the_web():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    small, worker = services["worker-small"]["command"].split(), services["worker"]["command"].split()
    assert small[:3] == worker[:3] == ["nice", "-n", "10"]
    assert small[small.index("-Q") + 1] == "index_small" and worker[worker.index("-Q") + 1] == "celery,index"
    assert "DATABASE_REPLICA_URL" not in services["worker-small"]["environment"]
