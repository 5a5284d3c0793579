"""The JSON API: GET /api/search, GET /api/formulas/<id> (the OpenAPI schema: test_openapi.py)."""
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from mathparse import parse_latex, to_slt_string
from searchapp.models import Corpus, Feedback, Formula, Post
from tests.app.search.test_notation import BOOK, LINES, NORM, QUERY, SPELLED

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed(index_file):
    return index_file()


def test_formula_detail_has_posts_and_both_trees(index_file, client):
    line = json.dumps({"id": "p1", "title": "Euler", "url": "https://example.org/e",
                       "body": "Famously $e^{i\\pi} + 1 = 0$ holds."})
    index_file([line], name="posts.jsonl", format="jsonl")
    formula = Formula.objects.get()
    body = client.get(f"/api/formulas/{formula.pk}").json()
    assert (body["id"], body["latex"], body["corpus"], body["occurrences"]) == (formula.pk, r"e^{i\pi} + 1 = 0",
                                                                                 "test", 1)
    assert body["posts"][0]["title"] == "Euler" and body["posts"][0]["before"] == "Famously"
    slt = body["trees"]["slt"]
    assert slt["labels"][0] == "V!e" and len(slt["edges"]) == len(slt["labels"]) - 1
    assert body["trees"]["opt"]["labels"]


def test_unknown_formula_is_a_json_404(client):
    response = client.get("/api/formulas/424242")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "message": "no formula with id 424242"}


def test_a_post_reads_as_its_page_shows_it(client, tmp_path):
    from tests.app.factories import index_thread_pages
    from tests.ml.factories import formula_span

    index_thread_pages(tmp_path / "pages", {
        "11_12.html": ("Sum of squares", f"<p>Is {formula_span(1, 'a^2+b^2')} a square? Is {formula_span(2, 'a^2+b^2')}?</p>",
                       "<p>Not always.</p>"),
        "21_22.html": ("Squares that sum to a square", "<p>Which squares sum to a square?</p>", "<p>Pythagorean ones.</p>")})
    question, answer, other = (Post.objects.get(source_id=s) for s in ("11", "12", "21"))
    body = client.get(f"/api/posts/{question.pk}").json()
    assert (body["title"], body["question"], body["tags"]) == ("Sum of squares", None, ["algebra", "number-theory"])
    assert body["answers"] == [{"id": answer.pk, "url": "https://math.stackexchange.com/a/12"}]
    assert [(f["latex"], f["count"], f["in_title"]) for f in body["formulas"]] == [("a^2+b^2", 2, False), ("n", 1, False)]
    assert body["related"] == [{"id": other.pk, "title": "Squares that sum to a square"}]
    reply = client.get(f"/api/posts/{answer.pk}").json()
    assert (reply["body"], reply["question"]["id"], reply["answers"]) == ("Not always.", question.pk, [])
    missing = client.get("/api/posts/424242")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_search_errors_match_the_schema_shape(client):
    response = client.get("/api/search", {"q": r"\frac{1}{"})
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "pos"} and isinstance(body["pos"], int)


MATHML = ("<math><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup>"
          "<mo>=</mo><msup><mi>c</mi><mn>2</mn></msup></math>")


@pytest.mark.parametrize("params", [
    pytest.param({"q": "a^2 + b^2 = c^2"}, id="latex-by-default"),
    pytest.param({"q": MATHML, "notation": "mathml"}, id="mathml"),
    pytest.param({"q": to_slt_string(parse_latex("a^2 + b^2 = c^2").slt), "notation": "slt"}, id="tangent-slt"),
])
def test_search_reads_each_notation(index_file, client, params):
    index_file()
    body = client.get("/api/search", params).json()
    assert body["notation"] == params.get("notation", "latex")
    assert body["results"][0]["latex"] == "a^2 + b^2 = c^2"


@pytest.mark.parametrize("params, code", [
    pytest.param({"q": "[V!x,a[N!2]]"}, "latex_slt_string", id="tangent-string-given-as-latex"),
    pytest.param({"q": "<math><mi>x</math>", "notation": "mathml"}, "mathml_invalid_mathml", id="bad-mathml"),
    pytest.param({"q": "[V!x", "notation": "slt"}, "slt_invalid_slt_string", id="bad-tangent"),
    pytest.param({"q": "x", "notation": "asciimath"}, "invalid_parameter", id="unknown-notation"),
])
def test_search_errors_name_the_notation(client, params, code):
    response = client.get("/api/search", params)
    assert response.status_code == 400
    assert response.json()["code"].startswith(code)


def test_formulas_indexed_from_tangent_strings_are_shown_as_latex(index_file, client):
    index_file([f"5\t9\t{to_slt_string(parse_latex('x^2+1').slt)}"], name="slt.tsv", format="slt_tsv")
    formula = Formula.objects.get()
    assert formula.notation == "slt" and not formula.latex.startswith("[")
    assert client.get(f"/api/formulas/{formula.pk}").json()["latex"] == formula.latex
    assert formula.occurrences.get().latex == formula.latex


def test_a_one_symbol_query_is_answered(indexed, client):
    response = client.get("/api/search", {"q": "x"})
    assert response.status_code == 200 and response.json()["results"]


def test_api_and_command_return_the_same_results(indexed, client):
    api = client.get("/api/search", {"q": "a^2+b^2", "k": 3}).json()
    out = StringIO()
    call_command("search", "a^2+b^2", "--k", "3", "--json", stdout=out)
    command = json.loads(out.getvalue())
    assert [r["id"] for r in api["results"]] == [r["id"] for r in command["results"]]
    assert [r["score"] for r in api["results"]] == [r["score"] for r in command["results"]]
    assert api["results"][0]["posts"][0]["source_id"].startswith("line-")


@pytest.mark.parametrize("corpus, first, macros", [
    pytest.param("test", BOOK, ["norm"], id="in-the-corpus"),
    pytest.param("", SPELLED, [], id="every-corpus"),
])
def test_a_search_in_a_corpus_reads_the_query_with_its_macros_and_names_them(index_file, client, corpus, first, macros):
    index_file(LINES)
    Corpus.objects.filter(name="test").update(macros={"norm": NORM})
    body = client.get("/api/search", {"q": QUERY, "corpus": corpus, "k": 3}).json()
    assert (body["query"], body["macros"], body["results"][0]["latex"]) == (QUERY, macros, first)
    out = StringIO()
    call_command("search", QUERY, "--k", "3", "--json", *(["--corpus", corpus] if corpus else []), stdout=out)
    assert json.loads(out.getvalue())["macros"] == macros


def test_the_command_names_the_corpora_when_given_one_that_does_not_exist(indexed):
    with pytest.raises(CommandError, match="no corpus named 'tset'; the corpora are test"):
        call_command("search", "a^2+b^2", "--corpus", "tset", stdout=StringIO())


@pytest.mark.parametrize("params, code", [
    pytest.param({}, "missing_query", id="no-query"),
    pytest.param({"q": "x", "k": "many"}, "invalid_parameter", id="bad-k"),
    pytest.param({"q": "x", "k": "0"}, "invalid_parameter", id="k-too-small"),
    pytest.param({"q": "x", "fusion": "best"}, "invalid_parameter", id="bad-fusion"),
    pytest.param({"q": "x" * 6000}, "query_too_long", id="too-long"),
])
def test_api_rejects_bad_requests_with_json_errors(client, params, code):
    response = client.get("/api/search", params)
    assert response.status_code == 400
    assert response.json()["code"] == code


def test_api_reports_parse_errors_with_position(client):
    response = client.get("/api/search", {"q": r"\frac{1}{"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"].startswith("latex_") and isinstance(body["pos"], int)


def test_a_pattern_search_says_what_each_variable_stands_for_and_variables_alone_are_refused(index_file, client):
    index_file([r"\frac{1}{n^2}", r"\sqrt{n^2}"])
    results = client.get("/api/search", {"q": r"\frac{1}{\qvar{x}}"}).json()["results"]
    assert [(r["latex"], r["bindings"]) for r in results] == [(r"\frac{1}{n^2}", {"x": "n^{2}"}), (r"\sqrt{n^2}", None)]
    page = client.get("/", {"q": r"\frac{1}{\qvar{x}}"}).content.decode()
    assert "Matches your pattern with" in page and 'data-latex="\\qvar{ x } = n^{2}"' in page
    refused = client.get("/api/search", {"q": r"\qvar{a}^{\qvar{b}}"})
    assert (refused.status_code, refused.json()["code"]) == (400, "query_only_variables")
    typed = client.get("/api/search", {"q": r"\frac{1}{?x}"}).json()["results"]  # `?x` spells \qvar{x}
    assert [(r["latex"], r["bindings"]) for r in typed] == [(r["latex"], r["bindings"]) for r in results]
    lone = client.get("/api/search", {"q": r"\frac{1}{?}"})  # no letter after it: the symbol, as in the corpus
    assert lone.status_code == 200 and all(r["bindings"] is None for r in lone.json()["results"])


# POST /api/search and /api/posts: the GET's parameters as a JSON body, for queries too long for a URL.

LONG_QUERY = r"a^2+b^2=c^2 \text{" + "∀" * 4981 + "}"
"""5,000 characters, the most a query may have: 44,866 bytes URL-encoded, yet only 9 nodes to search."""


def post_json(client, url: str, body) -> object:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_a_posted_search_answers_as_the_get_does_without_a_csrf_token(indexed):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)  # as an API client: no cookie, no token
    params = {"q": "a^2+b^2", "k": 3, "fusion": "f1", "notation": "latex", "offset": 1}
    posted = post_json(client, "/api/search", params)
    assert posted.status_code == 200
    got = client.get("/api/search", params).json()
    assert [(r["id"], r["score"]) for r in posted.json()["results"]] == [(r["id"], r["score"]) for r in got["results"]]


def test_a_query_of_5000_characters_is_searched_when_posted(indexed, client):
    assert len(LONG_QUERY) == 5000
    response = post_json(client, "/api/search", {"q": LONG_QUERY, "context": "∀" * 5000})
    assert response.status_code == 200
    assert response.json()["results"][0]["latex"] == "a^2 + b^2 = c^2"


def test_a_long_question_is_answered_when_posted(client, tmp_path):
    from tests.app.factories import EIGEN_QUESTION, index_threads

    index_threads(tmp_path / "pages")
    question = (EIGEN_QUESTION + " ") * (4999 // (len(EIGEN_QUESTION) + 1))
    response = post_json(client, "/api/posts", {"q": question, "mode": "ssemb", "k": 2})
    assert response.status_code == 200 and len(question) > 4900
    body = response.json()
    assert body["mode"] == "ssemb" and body["results"][0]["post"]["question"]["title"] == "Eigenvalues of $A^{T}=A$"


@pytest.mark.parametrize("url, body, status, code, message", [
    pytest.param("/api/search", "{", 400, "invalid_json", "the body is not valid JSON: Expecting property name "
                 "enclosed in double quotes: line 1 column 2 (char 1)", id="not-json"),
    pytest.param("/api/search", "[1]", 400, "invalid_json", "the body must be a JSON object", id="an-array"),
    pytest.param("/api/search", b"\xff", 400, "invalid_json", "the body is not UTF-8 (byte 0)", id="not-utf8"),
    pytest.param("/api/search", {"q": "x", "limit": 5}, 400, "unknown_parameter", "unknown parameter 'limit'; this "
                 "operation takes q, notation, k, offset, fusion, corpus, context", id="unknown-field"),
    pytest.param("/api/posts", {"q": "x", "context": "y"}, 400, "unknown_parameter", "unknown parameter 'context'; "
                 "this operation takes q, k, offset, mode, corpus, tag", id="search-field-in-a-question"),
    pytest.param("/api/search", {"q": "x", "k": "10"}, 400, "invalid_parameter", "k must be an integer, got the "
                 "string '10'", id="k-a-string"),
    pytest.param("/api/search", {"q": "x", "k": True}, 400, "invalid_parameter", "k must be an integer, got true",
                 id="k-a-boolean"),
    pytest.param("/api/search", {"q": "x", "k": 2.5}, 400, "invalid_parameter", "k must be an integer, got the "
                 "number 2.5", id="k-a-fraction"),
    pytest.param("/api/search", {"q": ["x"]}, 400, "invalid_parameter", "q must be a string, got an array",
                 id="q-an-array"),
    pytest.param("/api/search", {"q": None}, 400, "invalid_parameter", "q must be a string, got null", id="q-null"),
    pytest.param("/api/search", {"q": "x", "notation": ""}, 400, "invalid_parameter", "notation must be one of auto, "
                 "latex, mathml, slt, got the string ''", id="notation-empty"),
    pytest.param("/api/posts", {"q": "x", "mode": "best"}, 400, "invalid_parameter", "mode must be one of ssemb, "
                 "marf, text, bm25, formula, got the string 'best'", id="unknown-mode"),
    pytest.param("/api/search", {"k": 3}, 400, "missing_query", "the query parameter q is required", id="no-query"),
    pytest.param("/api/search", {"q": "x", "k": 0}, 400, "invalid_parameter", "k must be between 1 and 1000, got 0",
                 id="k-out-of-range"),
    pytest.param("/api/search", {"q": "x" * 5001}, 400, "query_too_long", "the query has 5001 characters; the limit "
                 "is 5000", id="too-long"),
    pytest.param("/api/posts", {"q": "x", "corpus": "nowhere"}, 404, "unknown_corpus", None, id="unknown-corpus"),
])
def test_a_posted_body_that_is_wrong_says_what_is_wrong(client, url, body, status, code, message):
    response = client.post(url, body if isinstance(body, (str, bytes)) else json.dumps(body),
                           content_type="application/json")
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    assert response.json()["code"] == code
    if message is not None:
        assert response.json()["message"] == message


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", ""])
def test_a_posted_body_that_is_not_json_is_a_415(client, content_type):
    response = client.post("/api/search", "q=x", content_type=content_type)
    assert (response.status_code, response.json()["code"]) == (415, "unsupported_media_type")
    assert response.json()["message"].startswith("the body must be JSON (Content-Type: application/json)")


def test_an_integral_number_is_an_integer_as_json_schema_counts_it(indexed, client):
    response = post_json(client, "/api/search", {"q": "a^2+b^2", "k": 2.0})
    assert response.status_code == 200 and len(response.json()["results"]) == 2


def test_a_posted_body_past_64_kb_is_a_json_413_before_it_is_read(client):
    response = client.post("/api/search", json.dumps({"q": "x" * 70_000}), content_type="application/json")
    assert (response.status_code, response.json()["code"]) == (413, "request_too_large")


def test_the_api_docs_page_draws_the_schema_with_the_vendored_viewer(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and page["Content-Type"] == "text/html; charset=utf-8"
    html = page.content.decode()
    assert '<div id="api-docs" data-schema-url="/api/schema">' in html
    assert 'src="/static/vendor/swagger-ui/swagger-ui-bundle.js"' in html and 'src="/static/js/api_docs.js"' in html
    assert '<a href="/api/schema">' in html and '<a href="/api/docs">API</a>' in html
    assert "<script>" not in html  # the CSP allows no inline script


def test_the_api_says_what_people_said_of_each_result_on_get_and_post(indexed, client):
    last = client.get("/api/search", {"q": "x^2 + y^2 = z^2", "k": 10}).json()["results"][-1]
    Feedback.objects.create(query="x^{2}+y^{2}=z^{2}", formula_id=last["id"], kind="relevant", rank=last["rank"],
                            session_key="someone")
    for body in (client.get("/api/search", {"q": "x^2 + y^2 = z^2", "k": 10}).json(),
                 client.post("/api/search", {"q": "x^2 + y^2 = z^2", "k": 10}, content_type="application/json").json()):
        said = {result["id"]: result["feedback"] for result in body["results"]}
        judged = said.pop(last["id"])
        moved = judged.pop("moved")
        rank = next(result["rank"] for result in body["results"] if result["id"] == last["id"])
        assert moved == last["rank"] - rank > 0
        assert judged == {"relevant": 1, "not_relevant": 0, "clicked": 0, "passed": 0, "evidence": 1.0,
                          "headline": f"Moved up {moved} place{'s' if moved > 1 else ''}",
                          "explanation": "1 person found this relevant"}
        assert set(said.values()) == {None}
        scores = {result["id"]: result["score"] for result in body["results"]}
        assert scores[last["id"]] == last["score"]  # moved up, its score as it was


def test_the_api_answers_a_question_with_posts_their_questions_and_scores(threads, client):
    response = client.get("/api/posts", {"q": "symmetric matrix eigenvalues $A^T = A$", "k": 2})
    assert response.status_code == 200
    body = response.json()
    assert body["mode"] == "ssemb" and len(body["results"]) == 2
    first = body["results"][0]
    assert first["post"]["source_id"] == "12" and first["post"]["question"]["title"] == "Eigenvalues of a symmetric matrix"
    assert {"text", "bm25", "formula"} <= set(first["parts"]) and first["matched_formula"]["latex"] == "A^{T}=A"


@pytest.mark.parametrize("params, code", [({}, "missing_query"), ({"q": "$$"}, "missing_query"),
                                          ({"q": "x", "mode": "nope"}, "invalid_parameter"),
                                          ({"q": "x", "k": "0"}, "invalid_parameter")])
def test_the_api_refuses_bad_parameters_by_name(client, params, code):
    response = client.get("/api/posts", params)
    assert response.status_code == 400 and response.json()["code"] == code


def test_the_search_api_takes_context_and_returns_its_similarity(threads, client):
    response = client.get("/api/search", {"q": "A^T = A", "context": "symmetric matrix eigenvalues"})
    assert response.status_code == 200 and "context" in response.json()["results"][0]["parts"]
    too_long = client.get("/api/search", {"q": "x", "context": "w" * 6000})
    assert too_long.status_code == 400 and too_long.json()["code"] == "invalid_parameter"


def test_the_latex_a_query_in_unicode_is_read_as_is_served_for_the_formula_editor(client):
    assert client.get("/api/latex", {"q": " √(x² + 1) ≤ ½ "}).json() == {"latex": r"\sqrt{x^{2} + 1} \leq \frac{1}{2}"}
    assert client.get("/api/latex", {"q": r"x^2 + \alpha"}).json() == {"latex": r"x^2 + \alpha"}
    missing = client.get("/api/latex")
    assert (missing.status_code, missing.json()["code"]) == (400, "missing_query")
