"""Each page of formula results is logged as served; a click names the page it was made on, which must have shown it
(a judgment ignores one)."""
import json
import re

import pytest

from searchapp.models import Feedback, Impression

pytestmark = pytest.mark.django_db
QUERY = r"e^{i\pi}"


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
