"""The learning loop's periodic task (Celery beat runs it every MATHSEARCH_LEARN_SECONDS; see CELERY_IMPORTS)."""
from celery import shared_task

from searchapp.live.loop import learn_all


@shared_task(name="searchapp.learn")
def learn() -> list[dict]:
    """A learning round over every corpus (`searchapp.live.loop`): what each did."""
    return [{"corpus": done.corpus, "busy": done.busy, "trained": done.trained, "decision": done.decision}
            for done in learn_all()]
