"""Ordinary traffic cannot corrupt what the site learns, through the real site: gunicorn serving, a Celery worker
running the learning rounds that beat schedules every second. Two hundred API searches and a hundred reloads (twice
and more the most signals any of the loop's thresholds waits for: 10 looks, 20 clicks, 50 compared pages) leave every
ranking and score as they were; one person clicking a result a hundred times moves it no more than another person's
single judgment moves a result beside it."""
import datetime
import http.client
import json
import re
import subprocess
import sys
import time
from urllib.parse import urlencode

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from searchapp.models import Impression
from tests.app.factories import FORMULAS, index_formulas, result_ids
from tests.conftest import REPO, gunicorn_site, start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)
QUERY = "x^2 + y^2 = z^2"
OTHER = r"\frac{a}{b} + \frac{c}{d}"
CORPUS_LINES = FORMULAS + [rf"x^{{{n}}} + y^{{{n}}} = z^{{{n}}}" for n in range(3, 15)]


class Visitor:
    """One client over one kept-alive connection, with the cookies the site gives it (none, if `cookies` is off)."""

    def __init__(self, port: int, cookies: bool = True):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] | None = {} if cookies else None

    def request(self, method: str, path: str, body: str = "", headers: dict | None = None) -> tuple[int, bytes]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            self.connection.request(method, path, body=body or None, headers=headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):  # the keep-alive ran out
            self.connection.close()
            self.connection.request(method, path, body=body or None, headers=headers)
            response = self.connection.getresponse()
        data = response.read()
        if self.cookies is not None:
            for header in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def search(self, query: str = QUERY) -> list[tuple[int, float, int]]:
        """The API's results: (id, score, places people moved it)."""
        status, body = self.request("GET", "/api/search?" + urlencode({"q": query, "corpus": "test", "k": 10}))
        assert status == 200
        return [(hit["id"], hit["score"], (hit["feedback"] or {}).get("moved", 0)) for hit in json.loads(body)["results"]]

    def page(self, query: str = QUERY) -> tuple[int, list[int]]:
        """The results page: its impression and its results in order."""
        status, body = self.request("GET", "/?" + urlencode({"q": query, "corpus": "test"}))
        assert status == 200
        html = body.decode()
        return int(re.search(r'data-impression="(\d+)"', html)[1]), result_ids(html)

    def send(self, path: str, fields: dict) -> int:
        """A JSON POST with the CSRF token, as the page's script sends it."""
        return self.request("POST", path, json.dumps(fields), {"Content-Type": "application/json",
                                                               "X-CSRFToken": self.cookies["csrftoken"]})[0]


def learning_rounds_after(moment: datetime.datetime) -> int:
    """Learning rounds the worker finished after `moment` (the results backend keeps each task's)."""
    backend = redis.Redis.from_url(settings.CELERY_RESULT_BACKEND)
    done = 0
    for key in backend.scan_iter("celery-task-meta-*"):
        meta = json.loads(backend.get(key))
        finished = datetime.datetime.fromisoformat(meta["date_done"])
        finished = finished if finished.tzinfo else finished.replace(tzinfo=datetime.UTC)
        done += meta["status"] == "SUCCESS" and finished > moment
    return done


def wait_for_a_round(since: datetime.datetime) -> None:
    """Until a learning round that started after `since` has finished: beat schedules one a second (a round that
    never comes is failed by the per-test timeout, pytest.ini)."""
    while learning_rounds_after(since) < 2:  # the first may have started before `since`
        time.sleep(0.2)  # between looks at the backend, not a wait for the round


@pytest.fixture(scope="module")
def services(service_env, tmp_path_factory):
    """gunicorn, a worker and beat running the learning rounds every second, with their own rankers' folder; a rate
    limit that lets one person's hundred clicks all through. Started once for both tests: neither gives a round the
    signals to train a ranker (MATHSEARCH_RETRAIN_AFTER), so no state of the loop outlives the flush between them."""
    folder = tmp_path_factory.mktemp("abuse")
    env = {**service_env, "MATHSEARCH_CORPUS_RANKERS_DIR": str(folder / "rankers"), "MATHSEARCH_LEARN_SECONDS": "1",
           "MATHSEARCH_FEEDBACK_PER_MINUTE": "1000"}
    worker = start_worker(env, queues="celery")
    beat = subprocess.Popen([sys.executable, "-m", "celery", "-A", "mathsearch", "beat", "--loglevel", "WARNING",
                             "-s", str(folder / "celerybeat-schedule")], cwd=REPO, env=env)
    try:
        with gunicorn_site(env) as port:
            yield port
    finally:
        beat.terminate()
        beat.wait(timeout=30)
        stop_worker(worker)


@pytest.fixture
def site(services, tmp_path):
    """The site's port, its corpus indexed anew for this test."""
    index_formulas(tmp_path / "formulas.txt", CORPUS_LINES)
    return services


def test_two_hundred_api_searches_and_a_hundred_reloads_change_no_ranking_and_no_score(site):
    client = Visitor(site, cookies=False)  # a script: no cookie, so a new "session" every time
    before = {query: client.search(query) for query in (QUERY, OTHER)}
    started = timezone.now()
    for number in range(200):
        query = (QUERY, OTHER)[number % 2]
        assert client.search(query) == before[query]  # the same order and scores every time
    reloader = Visitor(site)  # one person, or one browser without JavaScript, reloading the page
    impression, first = reloader.page()
    for _ in range(100):
        assert reloader.page() == (impression, first)  # one page, counted once
        assert reloader.request("GET", f"/impression/{impression}/seen.gif")[0] == 200
    wait_for_a_round(started)
    assert {query: Visitor(site).search(query) for query in before} == before
    assert [page.pk for page in Impression.objects.looked_at()] == [impression]


def test_one_person_clicking_a_result_a_hundred_times_moves_it_no_more_than_one_judgment(site):
    before = Visitor(site).search()
    judged, clicked = before[5][0], before[8][0]  # apart: the judged one's rise passes others, not the clicked one
    clicker = Visitor(site)
    impression, shown = clicker.page()
    assert clicker.send("/api/looks", {"impression_id": impression, "formula_ids": shown[:10]}) == 204
    started = timezone.now()
    rank = shown.index(clicked) + 1
    for _ in range(100):
        assert clicker.send("/api/feedback", {"query": QUERY, "formula_id": clicked, "kind": "click", "rank": rank,
                                              "impression_id": impression}) == 201
    judge = Visitor(site)
    judge.page()
    assert judge.send("/api/feedback", {"query": QUERY, "formula_id": judged, "kind": "relevant", "rank": 6}) == 201
    wait_for_a_round(started)
    after = {formula: (score, moved) for formula, score, moved in Visitor(site).search()}
    assert after[clicked][1] <= after[judged][1] and after[judged][1] > 0
    assert {formula: score for formula, (score, _) in after.items()} == {formula: score for formula, score, _ in before}
