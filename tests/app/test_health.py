
import time

import pytest
from django.test import override_settings

from mathsearch.env import replica_config
from searchapp.search.replica import close_monitor
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
def test_healthz_shows_staff_the_replica_whether_searches_read_it_and_its_lag(admin_client, standby, settings):
    standby.start()
    replica = replica_config(standby.url(settings.DATABASES["default"]["NAME"]))
    with override_settings(DATABASES={**settings.DATABASES, "replica": replica}):
        shown = admin_client.get("/healthz").json()["checks"]["replica"]
        assert shown["ok"] and shown["searches_read_it"] and shown["detail"].startswith("standby, replay")
        assert 0 <= shown["lag_s"] <= settings.MATHSEARCH_REPLICA_MAX_LAG
        assert shown["searches_served"] == {"replica": 0, "primary": 0}
        standby.stop()
        while (response := admin_client.get("/healthz")).status_code != 503:  # at the next probe (or the test's timeout)
            time.sleep(0.1)
        shown = response.json()["checks"]["replica"]
        assert response.json()["down"] == ["replica"] and not shown["searches_read_it"] and shown["lag_s"] is None
        close_monitor()
