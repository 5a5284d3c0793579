import pytest
from django.db import connection

from searchapp.tasks import ping


@pytest.mark.django_db(transaction=True)
def test_ping_runs_in_a_real_worker_process(celery_worker_process):
    result = ping.delay().get(timeout=60)
    assert result == {"pong": True, "database": connection.settings_dict["NAME"]}
    assert celery_worker_process.poll() is None
