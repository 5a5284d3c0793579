
import pytest

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
