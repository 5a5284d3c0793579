import json

import pytest
from django.core.management import call_command
from django.db import connections

from tests.app.factories import DEAD_BROKER, DEAD_DATABASE, run_manage, staff_user


@pytest.mark.django_db
def test_healthz_reports_all_up_with_details_for_staff_only(client, django_user_model):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "down": []}  # no versions, paths or errors for anyone
    client.force_login(staff_user("ada", password="pw"))
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["checks"]["vector"]["detail"].startswith("pgvector 0.8")


@pytest.mark.django_db
def test_healthz_names_the_broker_when_it_is_down(client, settings):
    settings.CELERY_BROKER_URL = DEAD_BROKER
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["down"] == ["broker"]


def test_healthcheck_command_reports_unreachable_servers():
    result = run_manage("healthcheck", DATABASE_URL=DEAD_DATABASE, REDIS_URL=DEAD_BROKER)
    assert result.returncode == 1
    assert json.loads(result.stdout)["down"] == ["database", "vector", "broker"]


@pytest.mark.parametrize("env, message", [
    pytest.param({"DATABASE_URL": "mysql://x/y", "REDIS_URL": DEAD_BROKER}, "DATABASE_URL must start", id="db"),
    pytest.param({"DATABASE_URL": DEAD_DATABASE, "REDIS_URL": "http://x"}, "REDIS_URL must start", id="redis"),
])
def test_malformed_urls_give_one_line_and_nonzero_exit(env, message):
    result = run_manage("check", **env)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unreachable_database_gives_one_line_and_nonzero_exit():
    result = run_manage("migrate", DATABASE_URL=DEAD_DATABASE, REDIS_URL=DEAD_BROKER)
    assert result.returncode == 3
    assert result.stderr.startswith("cannot reach the database:")
    assert "Traceback" not in result.stderr


@pytest.mark.django_db
def test_healthcheck_checks_a_configured_replica_and_names_it_when_down():
    primary = connections["default"].settings_dict
    url = f"postgresql://{primary['USER']}:@/{primary['NAME']}?host={primary['HOST']}&port={primary['PORT']}"
    up = run_manage("healthcheck", DATABASE_URL=url, DATABASE_REPLICA_URL=url)
    assert up.returncode == 0, up.stdout + up.stderr
    assert json.loads(up.stdout)["checks"]["replica"]["detail"] == "answers, but is not a standby: searches read a primary"
    down = run_manage("healthcheck", DATABASE_URL=url, DATABASE_REPLICA_URL=DEAD_DATABASE)
    assert down.returncode == 1 and json.loads(down.stdout)["down"] == ["replica"]


def test_healthcheck_and_healthz_agree(broker_down, admin_client, client, capsys):
    with pytest.raises(SystemExit) as exit:
        call_command("healthcheck")
    command = json.loads(capsys.readouterr().out)
    anonymous, staff = client.get("/healthz"), admin_client.get("/healthz")
    assert exit.value.code == 1 and anonymous.status_code == staff.status_code == 503
    assert anonymous.json() == {"status": "down", "down": ["broker"]}
    assert staff.json() == command
