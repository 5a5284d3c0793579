"""The periodic learning task: a round over every corpus, scheduled by Celery beat."""
import pytest
from django.conf import settings as django_settings

from searchapp.live.tasks import learn

pytestmark = pytest.mark.django_db


def test_beat_schedules_the_learning_round_and_it_runs_one_per_corpus(judged, no_shipped_ranker, index_file, settings):
    scheduled = django_settings.CELERY_BEAT_SCHEDULE["learn"]
    assert scheduled["task"] == learn.name and scheduled["schedule"] == django_settings.MATHSEARCH_LEARN_SECONDS
    index_file(["z^9"], corpus="quiet", name="quiet.txt")
    settings.MATHSEARCH_RETRAIN_AFTER = 5
    done = {row["corpus"]: row for row in learn.apply().get()}
    assert done["test"]["trained"]["outcome"] == "under test" and done["quiet"]["trained"] is None
    assert learn.apply().get()[1]["trained"] is None  # idempotent: nothing new, nothing done


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_has_the_learning_task(celery_worker_process):
    """It lives outside searchapp.tasks (CELERY_IMPORTS names it), so a worker must be shown to load it."""
    assert learn.delay().get() == []  # no corpus yet: no round
