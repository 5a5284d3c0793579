"""Each page of formula results is logged as served, and counts nothing until its person's page says what was on screen
(a beacon, or without JavaScript an image for its first results); a click names the page it was made on, which must
be the sender's and have shown it (a judgment ignores one); a repeat within half an hour is the same page; a crawler's
searches are not logged."""
import datetime
import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from searchapp.feedback.impressions import NOSCRIPT_LOOKS, REPEAT_SECONDS
from searchapp.models import Feedback, Impression
from tests.app.factories import csrf_client

pytestmark = pytest.mark.django_db
QUERY = r"e^{i\pi}"
BOT = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"


def click(client, formula, impression_id, query=QUERY, rank=1):
    body = {"query": query, "formula_id": formula.pk, "kind": "click", "rank": rank, "impression_id": impression_id}
    return client.post("/api/feedback", json.dumps(body), content_type="application/json")


def test_the_results_page_logs_what_it_showed_and_its_clicks_name_it(formula, client):
    html = client.get("/", {"q": QUERY, "corpus": "test"}).content.decode()
    page = Impression.objects.get()
    assert page.query == QUERY and page.offset == 0 and page.corpus.name == "test" and formula.pk in page.formula_ids
    assert page.session_key == client.session.session_key  # the page's feedback cookie made one
    fields = re.findall(r'name="impression_id" value="(\d+)"', html)
    assert fields and set(fields) == {str(page.pk)}  # each formula's form carries it for its click
    assert click(client, formula, page.pk).status_code == 201
    assert Feedback.objects.get().impression == page


def test_the_api_search_returns_its_impression_for_clicks(formula, client):
    answer = client.get("/api/search", {"q": QUERY, "k": 3}).json()
    page = Impression.objects.get(pk=answer["impression_id"])
    assert page.formula_ids == [result["id"] for result in answer["results"]] and page.corpus is None
    assert click(client, formula, page.pk).json()["impression_id"] == page.pk
    empty = client.get("/api/search", {"q": QUERY, "corpus": "test", "offset": 500}).json()
    assert empty["results"] == [] and empty["impression_id"] is None


def test_a_click_must_name_a_page_that_showed_it_for_its_query(formula, client):
    answer = client.get("/api/search", {"q": QUERY, "k": 1}).json()
    shown = answer["results"][0]["id"]
    assert click(client, formula, 10**12).status_code == 404
    other = formula.__class__.objects.exclude(pk=shown).first()
    refused = click(client, other, answer["impression_id"])
    assert refused.status_code == 400 and "did not show" in refused.json()["message"]
    assert click(client, formula, answer["impression_id"], query="x").status_code == 400
    assert click(client, formula, "1.5").status_code == 400
    assert Feedback.objects.count() == 0
    judged = {"query": QUERY, "formula_id": formula.pk, "kind": "relevant", "rank": 1, "impression_id": 10**12}
    assert client.post("/api/feedback", json.dumps(judged), content_type="application/json").status_code == 201
    assert Feedback.objects.get().impression is None  # a judgment ignores the page


def test_a_page_served_counts_nothing_until_its_person_reports_what_was_on_screen(formula):
    client, token = csrf_client()
    client.get("/", {"q": QUERY, "corpus": "test"})
    page = Impression.objects.get()
    assert page.seen == [] and not Impression.objects.looked_at().exists()
    shown = page.formula_ids
    beacon = {"csrfmiddlewaretoken": token, "impression_id": page.pk, "formula_ids": [shown[1], shown[0], 10**12]}
    assert client.post("/api/looks", beacon).status_code == 204  # a form, as navigator.sendBeacon sends it
    page.refresh_from_db()
    assert page.seen == shown[:2] and Impression.objects.looked_at().get() == page  # in page order; strangers dropped
    assert client.post("/api/looks", {**beacon, "formula_ids": [shown[0]]}).status_code == 204
    page.refresh_from_db()
    assert page.seen == shown[:2]  # a result seen again is seen once


def test_looks_need_the_csrf_token_and_count_only_on_the_senders_own_page(formula):
    client, token = csrf_client()
    client.get("/", {"q": QUERY, "corpus": "test"})
    page = Impression.objects.get()
    beacon = {"impression_id": page.pk, "formula_ids": page.formula_ids[:1]}
    assert client.post("/api/looks", beacon).json()["code"] == "csrf_failed"
    other, other_token = csrf_client()
    refused = other.post("/api/looks", {**beacon, "csrfmiddlewaretoken": other_token})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_yours")
    missing = client.post("/api/looks", {**beacon, "impression_id": 10**12, "csrfmiddlewaretoken": token})
    assert missing.status_code == 404
    empty = client.post("/api/looks", json.dumps({"impression_id": page.pk, "formula_ids": []}),
                        content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert (empty.status_code, empty.json()["code"]) == (400, "invalid_parameter")
    page.refresh_from_db()
    assert page.seen == []


def test_looks_count_against_the_feedback_rate_limit_and_a_crawlers_are_dropped(formula, settings):
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 2
    client, token = csrf_client()
    client.get("/", {"q": QUERY, "corpus": "test"})
    page = Impression.objects.get()
    beacon = {"csrfmiddlewaretoken": token, "impression_id": page.pk, "formula_ids": page.formula_ids[:1]}
    assert [client.post("/api/looks", beacon).status_code for _ in range(3)] == [204, 204, 429]
    clicked = client.post("/api/feedback", json.dumps({"query": QUERY, "formula_id": formula.pk, "kind": "click",
                                                        "rank": 1, "impression_id": page.pk}),
                          content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert clicked.status_code == 429  # one budget for looks, clicks and judgments
    crawler, crawler_token = csrf_client()
    crawled = crawler.post("/api/looks", {**beacon, "csrfmiddlewaretoken": crawler_token}, HTTP_USER_AGENT=BOT)
    assert crawled.status_code == 204


def test_without_javascript_the_pages_image_counts_its_first_results(formula, client):
    client.get("/", {"q": QUERY, "corpus": "test"})
    page = Impression.objects.get()
    assert len(page.formula_ids) > NOSCRIPT_LOOKS
    image = client.get(f"/impression/{page.pk}/seen.gif")
    assert (image.status_code, image["Content-Type"], image["Cache-Control"]) == (200, "image/gif", "no-store")
    page.refresh_from_db()
    assert page.seen == page.formula_ids[:NOSCRIPT_LOOKS]
    stranger = Client()
    assert stranger.get(f"/impression/{page.pk}/seen.gif").status_code == 200  # no cookie: counted for no one
    assert stranger.get(f"/impression/{10**12}/seen.gif").status_code == 200
    assert settings.SESSION_COOKIE_NAME not in stranger.cookies  # and given no session
    html = client.get("/", {"q": QUERY, "corpus": "test"}).content.decode()
    assert f'<noscript><img class="seen-pixel" src="/impression/{page.pk}/seen.gif"' in html


def test_the_same_page_again_within_half_an_hour_is_that_page(formula, client):
    def page(offset: int = 0) -> int:
        return client.get("/api/search", {"q": QUERY, "corpus": "test", "k": 3, "offset": offset}).json()["impression_id"]

    first = page()
    click(client, formula, first)  # served to no one, the page is the clicker's now, and so are their next ones
    assert [page() for _ in range(3)] == [first] * 3
    second = page(3)
    assert second != first and page() == first and page(3) == second  # paging back and forth: two pages
    Impression.objects.filter(pk=first).update(created_at=timezone.now() - datetime.timedelta(seconds=REPEAT_SECONDS + 1))
    assert page() != first
    cookieless = [Client().get("/api/search", {"q": QUERY, "corpus": "test", "k": 3}).json()["impression_id"]
                  for _ in range(2)]
    assert len(set(cookieless)) == 2  # no one to tell apart: each a page of its own, which counts nothing anyway


def test_a_click_claims_a_page_served_to_no_one_and_may_not_name_someone_elses(formula, client):
    answer = client.get("/api/search", {"q": QUERY, "k": 1}).json()  # no cookie yet: served to no one
    page = Impression.objects.get(pk=answer["impression_id"])
    assert (page.user_id, page.session_key) == (None, "")
    assert click(client, formula, page.pk).status_code == 201
    page.refresh_from_db()
    assert page.session_key == client.session.session_key
    refused = click(Client(), formula, page.pk)
    assert (refused.status_code, refused.json()["code"]) == (403, "not_yours")


def test_a_crawlers_searches_are_not_logged_and_leave_no_session(formula, client):
    answer = client.get("/api/search", {"q": QUERY, "corpus": "test"}, HTTP_USER_AGENT=BOT).json()
    assert answer["results"] and answer["impression_id"] is None
    page = client.get("/", {"q": QUERY, "corpus": "test"}, HTTP_USER_AGENT=BOT)
    assert page.status_code == 200 and "seen-pixel" not in page.content.decode()
    assert not Impression.objects.exists() and settings.SESSION_COOKIE_NAME not in page.cookies
