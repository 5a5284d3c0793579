"""`manage.py healthcheck`: the health report as JSON, exit status 1 when a dependency is down."""
import json

import pytest
from django.core.management import call_command
from django.db import connections

from tests.app.factories import DEAD_BROKER, DEAD_DATABASE, run_manage


def test_healthcheck_command_reports_unreachable_servers():
    result = run_manage("healthcheck", DATABASE_URL=DEAD_DATABASE, REDIS_URL=DEAD_BROKER)
    assert result.returncode == 1
    assert json.loads(result.stdout)["down"] == ["database", "vector", "broker"]


@pytest.mark.django_db
def test_healthcheck_checks_a_configured_replica_and_names_it_when_down():
    primary = connections["default"].settings_dict
    url = f"postgresql://{primary['USER']}:@/{primary['NAME']}?host={primary['HOST']}&port={primary['PORT']}"
    up = run_manage("healthcheck", DATABASE_URL=url, DATABASE_REPLICA_URL=url)
    assert up.returncode == 0, up.stdout + up.stderr
    assert json.loads(up.stdout)["checks"]["replica"]["detail"] == "answers, but is not a standby: searches read a primary"
    down = run_manage("healthcheck", DATABASE_URL=url, DATABASE_REPLICA_URL=DEAD_DATABASE)
    assert down.returncode == 1 and json.loads(down.stdout)["down"] == ["replica"]


@pytest.mark.django_db
def test_healthcheck_shows_a_standby_that_searches_read_and_its_replay_lag(standby):
    standby.start()
    primary = connections["default"].settings_dict
    url = f"postgresql://{primary['USER']}:@/{primary['NAME']}?host={primary['HOST']}"
    run = run_manage("healthcheck", DATABASE_URL=url, DATABASE_REPLICA_URL=standby.url(primary["NAME"]))
    assert run.returncode == 0, run.stdout + run.stderr
    replica = json.loads(run.stdout)["checks"]["replica"]
    assert replica["ok"] and replica["searches_read_it"] and replica["detail"].startswith("standby, replay")
    assert 0 <= replica["lag_s"] <= 5.0  # MATHSEARCH_REPLICA_MAX_LAG's default


def test_healthcheck_and_healthz_agree(broker_down, admin_client, client, capsys):
    with pytest.raises(SystemExit) as exit:
        call_command("healthcheck")
    command = json.loads(capsys.readouterr().out)
    anonymous, staff = client.get("/healthz"), admin_client.get("/healthz")
    assert exit.value.code == 1 and anonymous.status_code == staff.status_code == 503
    assert anonymous.json() == {"status": "down", "down": ["broker"]}
    assert staff.json() == command
