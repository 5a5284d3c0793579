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
