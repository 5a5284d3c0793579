"""Waiting in tests on a condition, never on the clock: a condition that never comes true is failed by the suite's
per-test timeout (pytest.ini), so a slow day waits longer instead of failing."""
import time

UNTIL_IT_HAPPENS = 0
"""Playwright's timeout for "no timeout", for a page waiting on a worker's job: the test's own timeout guards a hang."""


def until(condition, step: float = 0.1):
    """Polls `condition()` until it is truthy, and returns what it returned."""
    while not (found := condition()):
        time.sleep(step)
    return found


def job_until(job, done, step: float = 0.05):
    """Polls until `done(job)`, the job read anew before each look; returns the job."""
    job.refresh_from_db()
    while not done(job):
        time.sleep(step)
        job.refresh_from_db()
    return job
