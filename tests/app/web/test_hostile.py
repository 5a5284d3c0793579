"""Hostile but fair input to every public route: a clear 4xx naming what is wrong, never a 5xx.

The explicit cases pin the answers; the battery (over a thousand generated requests) demands only that nothing is a
5xx, that every API error is JSON with a code, and that the site still searches afterwards.
"""
import html
import json
import random
from urllib.parse import quote, unquote, urlsplit

import pytest
from django.core.cache import cache
from django.urls import Resolver404, resolve

from mathparse import parse_latex
from searchapp.models import Feedback, Formula
from searchapp.search.query import MAX_QUERY_NODES
from tests.app.factories import FORMULAS, csrf_client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query_string, message", [
    pytest.param("q=x%00y", "q must not contain a NUL character (at 1)", id="nul-in-q"),
    pytest.param("q=x&corpus=a%00b", "corpus must not contain a NUL character (at 1)", id="nul-in-corpus"),
    pytest.param("q=x&corpus=" + "a" * 101, "corpus names have at most 100 characters, got 101", id="corpus-too-long"),
    pytest.param("q=x&k=" + "9" * 5000, "k must be an integer, got '9999", id="k-of-5000-digits"),
    pytest.param("q=x&offset=" + "9" * 4000, "offset must be between 0 and 10000, got 9999", id="offset-of-4000-digits"),
    pytest.param("q=x&k=-1", "k must be between 1 and 1000, got -1", id="negative-k"),
    pytest.param("q=x&notation=tex", "notation must be one of auto, latex, mathml, slt, got 'tex'", id="unknown-notation"),
])
def test_bad_search_parameters_are_400s_naming_them(client, query_string, message):
    response = client.get(f"/api/search?{query_string}")
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["message"][:len(message)]) == ("invalid_parameter", message)
    assert len(response.json()["message"]) < 200  # a 5,000-digit value is quoted cut short
    page = client.get(f"/?{query_string}")
    assert page.status_code == 400 and message[:30] in html.unescape(page.content.decode())


def test_a_corpus_name_that_fits_but_names_nothing_is_a_404_naming_the_corpora(client, index_file):
    assert client.get("/api/search", {"q": "x", "corpus": "a" * 100}).json()["message"] == (
        f"no corpus named '{'a' * 100}'; none is indexed yet")
    index_file(["x^2"], corpus="starter")
    for path in ("/api/search", "/api/posts"):
        response = client.get(path, {"q": "x", "corpus": "startr"})
        assert response.status_code == 404 and response.json() == {
            "code": "unknown_corpus", "message": "no corpus named 'startr'; the corpora are starter"}
    page = client.get("/", {"q": "x", "corpus": "startr"})
    assert page.status_code == 404 and "no corpus named &#x27;startr&#x27;; the corpora are starter" in page.content.decode()
    assert client.get("/api/search", {"q": "x", "corpus": "starter"}).json()["results"]


MATRIX_OF_1000_ROWS = r"\begin{pmatrix}" + r"\\".join(["1"] * 1000) + r"\end{pmatrix}"


@pytest.mark.parametrize("text, notation, nodes, parts", [
    pytest.param("x" * (MAX_QUERY_NODES + 1), "latex", MAX_QUERY_NODES + 1, 2, id="one-past-the-limit"),
    pytest.param("x+" * 2499 + "x", "latex", 4999, 2, id="5000-characters"),
    pytest.param(MATRIX_OF_1000_ROWS, "latex", 1001, 1, id="1000-row-matrix"),
    pytest.param("<math>" + "<mi>x</mi>" * 200 + "</math>", "mathml", 200, 1, id="mathml"),  # two equal halves
    pytest.param("[V!x" * 200 + "]" * 200, "slt", 200, 1, id="slt-string"),
])
def test_a_query_too_large_to_search_whole_is_searched_by_its_largest_parts(client, text, notation, nodes, parts):
    response = client.get("/api/search", {"q": text, "notation": notation})
    searched = "its largest part was" if parts == 1 else f"its {parts} largest parts were"
    message = f"Your formula is long ({nodes} symbols); {searched} searched"
    assert response.status_code == 200 and response.json()["long_formula"]["note"] == message
    assert all(len(parse_latex(part).slt) <= MAX_QUERY_NODES for part in response.json()["long_formula"]["parts"])
    page = client.get("/", {"q": text, "notation": notation})
    assert page.status_code == 200 and message in html.unescape(page.content.decode())


def test_a_query_too_large_to_search_without_a_part_that_can_be_is_refused_after_parsing(client):
    text = r"\qvar{a}" * MAX_QUERY_NODES + " + x"  # its largest parts are query variables alone
    response = client.get("/api/search", {"q": text})
    assert (response.status_code, response.json()["code"]) == (400, "query_too_large")
    message = f"the formula has {MAX_QUERY_NODES + 2} symbols; a search compares at most {MAX_QUERY_NODES}"
    assert response.json()["message"] == message
    page = client.get("/", {"q": text})
    assert page.status_code == 400 and message in html.unescape(page.content.decode())


@pytest.mark.parametrize("text", [
    pytest.param("(" * 400 + "x" + ")" * 400, id="parentheses-400-deep"),
    pytest.param(r"\{" * 500 + "x" + r"\}" * 500, id="braces-500-deep"),
])
def test_a_query_nested_past_the_recursion_limit_is_refused(client, text):
    response = client.get("/api/search", {"q": text})
    assert (response.status_code, response.json()["code"]) == (400, "latex_too_deep")
    assert client.get("/", {"q": text}).status_code == 400


def test_a_query_at_the_limit_is_searched(client):
    assert client.get("/api/search", {"q": "x" * MAX_QUERY_NODES}).status_code == 200


def test_every_arqmath_topic_query_is_far_within_the_limit(shared_data):
    paths = sorted((shared_data / "arqmath" / "topics").glob("topics.arqmath-202*-task2*.txt"))
    formulas = [line.split("\t", 1)[1].strip() for path in paths for line in path.read_text(encoding="utf-8").splitlines()
                if "\t" in line]
    assert len(formulas) > 400
    assert max(len(parse_latex(latex).slt) for latex in formulas) * 3 <= MAX_QUERY_NODES


# The battery: generated requests to every public route. None may be a 5xx; every API error is JSON with a code.

def _lone_surrogates() -> list[str]:
    return ["\ud800", "\udfff", "x\ud800y", "\udfff\ud800", "\ud83d"]


def _latex_bombs() -> list[str]:
    return [
        "{" * 1000, "}" * 1000, "{" * 99 + "x" + "}" * 99, "{" * 101 + "x" + "}" * 101, r"\frac" * 1000,
        r"\frac{1}{" * 300, r"\frac{a}{b}" * 454, r"\sqrt{" * 200 + "x" + "}" * 200, r"\left(" * 800, r"\right)" * 800,
        MATRIX_OF_1000_ROWS, r"\begin{pmatrix}" + "1&" * 2400 + r"\end{pmatrix}", r"\begin{pmatrix}" * 300,
        r"\end{pmatrix}" * 300, r"\begin{array}{" + "c" * 2000 + "}1\\end{array}", "x^" * 2400, "x_{" * 1600,
        "^_" * 2500, "\\" * 5000, "&" * 5000, r"\\" * 2500, r"\not" * 1000 + "=", r"\mathrm{" * 200,
        r"\def\a{\a}\a", r"\newcommand{\x}{\x\x}\x", r"\input{/etc/passwd}", r"\text{" + "é" * 4000 + "}",
        r"\operatorname{" + "x" * 4900 + "}", "$" * 5000, "$$x$$", r"\(x\)", r"\[", "x" * 5000, "x" * 5001,
    ]


def _markup_bombs() -> list[str]:
    return [
        "<math>" + "<mrow>" * 200 + "<mi>x</mi>" + "</mrow>" * 200 + "</math>",
        "<math><mtable>" + "<mtr><mtd><mn>1</mn></mtd></mtr>" * 150 + "</mtable></math>",
        '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        "<math><mi>&b;</mi></math>",
        '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><math><mi>&x;</mi></math>',
        "<math>", "<math", "</math>", "<math><mi>&#0;</mi></math>", "<math><mi>&#xD800;</mi></math>",
        "<math><mi>&nosuch;</mi></math>", "<math><mi>" + "x" * 4980 + "</mi></math>",
        "<math><mfrac>" * 300, "<math xmlns='http://www.w3.org/1998/Math/MathML'><semantics/></math>",
        "[V!x" * 1000 + "]" * 1000, "[V!x" * 1300, "[", "]", "[]", "[V!]", "[!x]", "[V!x,a[", "[V!x,zz[V!y]]",
        "[V!x,a[V!y],a[V!z]]", "[M!()1x1,w" + "[N!1,e" * 600 + "[N!1]" + "]" * 601,
        "[M!()1x1,w" + "[N!1,e" * 600 + "]" * 601,
    ]


def _weird_text(rng: random.Random) -> str:
    """A short string drawn from the awkward corners of Unicode (and of LaTeX)."""
    pools = [range(0x20, 0x7F), range(0x00, 0x20), range(0xD800, 0xE000), range(0x300, 0x370), range(0x590, 0x900),
             range(0x4E00, 0x4E80), range(0x1F300, 0x1FAFF), range(0xE000, 0xE100), [0xFEFF, 0xFFFE, 0xFFFF, 0x10FFFF,
             0x202E, 0x200B, 0x2028], [ord(c) for c in "\\{}^_&$%#~'\"<>[]!,"]]
    return "".join(chr(rng.choice(rng.choice(pools))) for _ in range(rng.randint(1, 40)))


def _texts() -> list[str]:
    rng = random.Random(15)
    plain = ["", " ", "\x00", "x\x00", "\u202ex", "\u200b" * 100, "e\u0301" * 1000, "\ufeffx", "\uffff", "\U0010ffff",
             "\x1b[31mx", "\r\n\t", "%00", "%", "&", "=", "+", "#", "?", "'; DROP TABLE searchapp_formula; --",
             "<script>alert(1)</script>", "{{ 7*7 }}", "{% debug %}", "😀" * 2500, "é" * 5001, "x" * 100_000]
    return plain + _lone_surrogates() + _latex_bombs() + _markup_bombs() + [_weird_text(rng) for _ in range(40)]


NUMBERS = ["", "0", "-1", "1", "1.5", "1e3", "1_000", " 5 ", "+5", "0x10", "\u0663", "NaN", "Infinity", "-0",
           str(2**31), str(2**63), "9" * 30, "9" * 4300, "9" * 5000, "\x00", "1\x00", "\ud800", "[1]", "true"]
TEXTS = _texts()
WORDS = ["", "x", "\x00", "a\x00b", "\ud800", "LEARNED", "max ", "a" * 100, "a" * 101, "a" * 10_000, "😀", "%"]


def _url(path: str, **params: str) -> str:
    """`path` with `params` percent-encoded as sent on the wire: a lone surrogate goes out as its (invalid) UTF-8."""
    return path + "?" + "&".join(f"{name}={quote(value, safe='', errors='surrogatepass')}" for name, value in params.items())


def _search_urls() -> list[str]:
    urls = [_url(path, q=text, notation=notation) for text in TEXTS
            for path, notation in [("/api/search", "latex"), ("/api/search", "auto"), ("/", "auto")]]
    urls += [_url("/api/search", q=text, notation=notation) for text in _markup_bombs() for notation in ("mathml", "slt")]
    urls += [_url(path, q="x", **{name: value}) for path in ("/api/search", "/")
             for name, values in [("k", NUMBERS), ("offset", NUMBERS), ("page", NUMBERS), ("corpus", WORDS),
                                  ("notation", WORDS), ("fusion", WORDS)] for value in values]
    urls += [path + "?q=x&" + "a&" * 1100 for path in ("/api/search", "/")]  # more parameters than Django reads
    return urls


JSON_VALUES = [
    "Infinity", "-Infinity", "NaN", "1e400", "-1e400", "1e-400", "1.5", "1.0", "-0", "0", "-1", "true", "false",
    "null", "[]", "[1]", "{}", '{"a": 1}', '""', '" "', '"1"', '" 1"', '"1e3"', '"\\u0663"', '"\\u0000"', '"x\\u0000"',
    '"\\ud800"', '"\\udfff\\ud800"', '"\\ud83d\\ude00"', str(2**31 - 1), str(2**31), str(2**63 - 1), str(2**63),
    str(2**64), "9" * 4300, "9" * 5000, '"' + "9" * 5000 + '"', '"' + "x" * 5001 + '"', '"' + "x" * 100_000 + '"',
    "[" * 500 + "]" * 500, '{"a":' * 400 + "1" + "}" * 400, '"click"', '"not_relevant"', '"max"', '"learned"',
    json.dumps(MATRIX_OF_1000_ROWS),
]
FEEDBACK_FIELDS = ("query", "formula_id", "kind", "rank", "fusion")


def _feedback_bodies(formula_id: int) -> list[tuple[bytes | str, str]]:
    """(body, content type) pairs: each field given each JSON value, unreadable bodies, and hostile forms."""
    def body(**change: str) -> str:
        fields = {"query": '"x"', "formula_id": str(formula_id), "kind": '"click"', "rank": "1", "fusion": '"max"',
                  **change}
        return "{" + ", ".join(f'"{name}": {value}' for name, value in fields.items()) + "}"

    json_type = "application/json"
    cases: list[tuple[bytes | str, str]] = [(body(**{name: value}), json_type) for name in FEEDBACK_FIELDS
                                            for value in JSON_VALUES]
    valid = body()
    cases += [(raw, json_type) for raw in [
        b"", b" ", b"null", b"[]", b'"x"', b"1", b"{", b"}", b'{"query": "x",}', b"\xff", b"\xc3(", b"\x00" * 100,
        b"\xef\xbb\xbf" + valid.encode(), valid.encode("utf-16"), valid.encode("utf-32"), valid * 2,
        "[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000, "[" * 100_000, "[" * 1_000_000,
        valid[:-1] + ', "query": "y"}', b"x" * 3_000_000]]
    cases += [(valid, content_type) for content_type in ["text/plain", "application/xml", "application/json-seq"]]
    form = "application/x-www-form-urlencoded"
    cases += [(_url("", **{**{"query": "x", "formula_id": str(formula_id), "kind": "click", "rank": "1"},
                           name: value})[1:], form)
              for name, values in [("query", TEXTS[:40]), ("kind", WORDS), ("fusion", WORDS), ("rank", NUMBERS),
                                   ("formula_id", NUMBERS)] for value in values]
    cases.append((b"query=\xff&formula_id=1&kind=click&rank=1", form))
    return cases


def _check(request, path: str, what: str) -> str | None:
    """What is wrong with the answer to `request()`, a request for `path`, if anything."""
    try:
        response = request()
    except Exception as error:  # the test client re-raises what a view raised: a 500
        return f"{what}: raised {error!r:.200}"
    if response.status_code >= 500:
        return f"{what}: {response.status_code}"
    if response.status_code >= 400 and _api_view(path):
        if response["Content-Type"] != "application/json" or "code" not in json.loads(response.content):
            return f"{what}: {response.status_code} without a JSON error code"
    return None


def _api_view(path: str) -> bool:
    """Whether `path` reaches a view of the API (a path that matches no route is answered by Django itself)."""
    try:
        return resolve(unquote(urlsplit(path).path)).url_name.startswith("api-")
    except Resolver404:
        return False


def _battery(send, cases) -> None:
    problems = [problem for case in cases if (problem := send(case))]
    assert not problems, f"{len(problems)} of {len(cases)}:\n" + "\n".join(p[:300] for p in problems[:20])


@pytest.fixture
def hostile_corpus(index_file, settings):
    """The test formulas beside one too large to draw, so the pages that list it are tested too."""
    settings.MATHSEARCH_FEEDBACK_PER_MINUTE = 10**6
    cache.clear()
    index_file(FORMULAS + [MATRIX_OF_1000_ROWS])
    yield Formula.objects.order_by("pk")
    cache.clear()


def _still_searches(client) -> None:
    response = client.get("/api/search", {"q": "x^2 + y^2 = z^2"})
    assert response.status_code == 200 and response.json()["results"][0]["latex"] == "x^2 + y^2 = z^2"


def test_the_battery_has_at_least_500_cases():
    assert len(_search_urls()) + len(_feedback_bodies(1)) >= 500


def test_searches_never_fail(hostile_corpus, client):
    _battery(lambda url: _check(lambda: client.get(url), url, url[:200]), _search_urls())
    _still_searches(client)


def test_feedback_never_fails(hostile_corpus):
    client, token = csrf_client()
    formula_id = hostile_corpus.first().pk

    def send(case):
        body, content_type = case
        return _check(lambda: client.post("/api/feedback", body, content_type=content_type, HTTP_X_CSRFTOKEN=token),
                      "/api/feedback", f"/api/feedback {content_type} {str(body)[:200]}")

    _battery(send, _feedback_bodies(formula_id))
    assert Feedback.objects.exists()  # the token was accepted: the battery reached the view
    _still_searches(client)


def test_formula_pages_never_fail(hostile_corpus, client):
    ids = [str(pk) for pk in hostile_corpus.values_list("pk", flat=True)]
    ids += ["0", "-1", "1.5", "1e3", "9" * 30, "%00", "%ED%A0%80", "abc", "1%2F2", "%D9%A3", "1/", " 1"]
    urls = [f"{prefix}{pk}" for prefix in ("/api/formulas/", "/formula/") for pk in ids]
    urls += [_url(f"/formula/{ids[0]}", q=text) for text in TEXTS[:30]]
    _battery(lambda url: _check(lambda: client.get(url), url, url[:200]), urls)
    _still_searches(client)

