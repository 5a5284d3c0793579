"""The search page and the formula page, server-rendered (no JavaScript), on the real database."""
import html
import json
import re
from urllib.parse import parse_qs

import numpy as np
import pytest

from corpora.documents.latex_macros import Macro, Param
from ml.ranking.features import FEATURES
from ml.ranking.ranker import Capacity, TrainingTopic, fit
from searchapp.models import Corpus, Formula, Occurrence, Post
from tests.app.factories import result_ids
from tests.app.search.test_notation import BOOK, LINES, NORM, QUERY, SPELLED

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed(index_file):
    return index_file()


def test_home_without_query_offers_the_query_box_palette_and_examples(client):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<label for="q"' in html and 'id="q"' in html
    assert html.count('class="palette-item"') >= 10
    assert 'data-insert="\\qvar{x}"' in html and "%5Cqvar%7Bx%7D" in html  # a query variable: a button, an example
    assert 'href="?q=x%5E2%20%2B%20y%5E2%20%3D%20z%5E2"' in html
    assert "vendor/katex/katex.min.js" in html and "cdn" not in html.lower()
    assert "csrftoken" in response.cookies


def test_results_are_rendered_on_the_server_with_scores_and_snippets(indexed, client):
    html = client.get("/", {"q": r"\sin^2 x + \cos^2 x = 1"}).content.decode()
    ids = result_ids(html)
    top = Formula.objects.get(pk=ids[0])
    assert top.latex == r"\sin^2 x + \cos^2 x = 1"
    assert re.search(r"\d+ formulas?\s+in\s+\d+ ms", html)
    assert re.search(r">(SLG|OPG)</abbr> 1\.000", html)
    assert html.count('class="feedback"') == len(ids)
    assert 'id="query-tree"' in html and 'data-node="0"' in html


def test_results_explain_the_match_with_colour_linked_nodes(indexed, client):
    html = client.get("/", {"q": r"e^{i\pi} + 1 = 0"}).content.decode()
    first = html[html.index('<li class="result"'):html.index("</li>", html.index('<li class="result"'))]
    highlight = json.loads(re.search(r'data-highlight="([^"]*)"', first).group(1).replace("&quot;", '"'))
    assert highlight["query"] and highlight["result"]
    # Every colour used on the query side also marks a result node, which the result's SVG draws.
    assert set(highlight["query"].values()) <= set(highlight["result"].values())
    for node, colour in highlight["result"].items():
        assert re.search(rf'class="node [^"]*hl-{colour}" data-node="{node}"', first)
    assert 'class="chip hl-0"' in first


@pytest.mark.parametrize("query, status, message", [
    pytest.param(r"\frac{1}{", 400, "(at character 9)", id="unbalanced-brace"),  # the 9th, counted from 1
    pytest.param(r"x^", 400, "(at the end)", id="nothing-after-the-script"),
    pytest.param("x" * 5001, 400, "limit is 5000", id="too-long"),
])
def test_bad_queries_explain_themselves(indexed, client, query, status, message):
    response = client.get("/", {"q": query})
    assert response.status_code == status
    assert message in response.content.decode()


def test_pagination_shows_twenty_per_page(index_file, client):
    index_file([f"x^{{{n}}} + {n}" for n in range(1, 26)])
    first = client.get("/", {"q": "x^{3} + 3"}).content.decode()
    second = client.get("/", {"q": "x^{3} + 3", "page": 2}).content.decode()
    assert len(result_ids(first)) == 20
    assert 'start="21"' in second
    assert set(result_ids(first)).isdisjoint(result_ids(second))
    scored = Formula.objects.search("x^{3} + 3", k=1).candidates  # every candidate is listed, none twice
    assert len(result_ids(first)) + len(result_ids(second)) == scored > 20
    assert "Page 2 of 2" in second


def test_the_learned_ranker_is_the_default_and_dense_fusion_its_fallback(indexed, client, settings, tmp_path):
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-ranker"
    assert "fusion f1" in client.get("/", {"q": "x^2"}).content.decode()
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "ranker"
    rng = np.random.default_rng(0)
    topics = [TrainingTopic(features := rng.random((30, len(FEATURES))).astype(np.float32),
                            np.digitize(features[:, FEATURES.index("path_recall")], [0.5, 0.8])) for _ in range(6)]
    fit(topics, Capacity(3, 10)).save(settings.MATHSEARCH_RANKER_DIR, {})
    assert "fusion learned" in client.get("/", {"q": "x^2"}).content.decode()
    assert "fusion avg" in client.get("/", {"q": "x^2", "fusion": "avg"}).content.decode()


def test_post_content_is_escaped_and_unsafe_links_dropped(index_file, client):
    line = json.dumps({"id": "p1", "title": "<script>alert(1)</script>", "url": "javascript:alert(1)",
                       "body": "Consider <b>bold</b> $x^2 + 1$ and more &amp; more."})
    index_file([line], name="posts.jsonl", format="jsonl")
    html = client.get("/", {"q": "x^2 + 1"}).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "javascript:" not in html
    assert "Consider bold" in html and "and more &amp; more." in html


def test_formula_page_lists_posts_trees_and_neighbours(index_file, client):
    lines = [json.dumps({"id": f"p{n}", "title": f"Post {n}", "url": f"https://example.org/{n}",
                         "body": f"We have $a^2 + b^2 = c^2$ here and $a^{n} + b$ there."}) for n in range(3)]
    index_file(lines, name="posts.jsonl", format="jsonl")
    formula = Formula.objects.get(latex="a^2 + b^2 = c^2")
    html = client.get(f"/formula/{formula.pk}").content.decode()
    assert all(f'href="https://example.org/{n}"' in html for n in range(3))
    assert "Symbol layout tree (SLT)" in html and "Operator tree (OPT)" in html
    assert html.count('<svg class="tree') == 2
    nearest = html[html.index('id="nearest-title"'):]
    assert f'href="/formula/{formula.pk}"' not in nearest
    assert re.search(r'href="/formula/\d+"', nearest)
    like = re.search(r'<a class="search-like" href="/\?([^"]*)"', html).group(1)
    assert parse_qs(like.replace("&amp;", "&")) == {"q": ["a^2 + b^2 = c^2"], "corpus": ["test"]}


def test_a_formula_page_names_the_other_corpora_holding_it_and_its_neighbours_are_other_formulas(index_file, client):
    index_file(corpus="sample")
    index_file(corpus="full", name="full.txt")
    here, there = (Formula.objects.get(latex="a^2 + b^2 = c^2", corpus__name=name) for name in ("sample", "full"))
    html = client.get(f"/formula/{here.pk}").content.decode()
    assert f'also in <a href="/formula/{there.pk}">full</a>' in html
    nearest = html[html.index('id="nearest-title"'):]
    assert f'href="/formula/{there.pk}"' not in nearest and "a^2 + b^2 = c^2" not in nearest
    assert len(re.findall(r'href="/formula/\d+"', nearest)) == 6  # the other distinct formulas, each once
    assert client.get(f"/api/formulas/{here.pk}").json()["also_in"] == [{"id": there.pk, "corpus": "full"}]
    results = client.get("/api/search", {"q": "a^2 + b^2 = c^2", "k": 3}).json()["results"]
    assert results[0]["also_in"] == [{"id": there.pk, "corpus": "full"}]
    search_page = client.get("/", {"q": "a^2 + b^2 = c^2"}).content.decode()
    assert f'also in <a href="/formula/{there.pk}">full</a>' in search_page


def test_a_corpus_whose_upload_stored_nothing_is_neither_offered_nor_searched(index_file, client):
    index_file(corpus="kept")
    failed = index_file(["{not json", "[1, 2]"], corpus="empty", name="bad.jsonl", format="jsonl")
    assert failed.state == "failed" and failed.corpus.name == "empty"  # kept, with its job, for the staff
    for page in ("/", "/questions"):
        options = re.findall(r'<option value="([^"]*)"', client.get(page).content.decode())
        assert "kept" in options and "empty" not in options
    response = client.get("/", {"q": "x^2", "corpus": "empty"})
    assert response.status_code == 404 and "no corpus named &#x27;empty&#x27;; the corpora are kept" in response.content.decode()


@pytest.mark.parametrize("query, corpus, first, notice", [
    pytest.param(QUERY, "test", BOOK, r"<code>\norm</code></p>", id="in-the-corpus"),
    pytest.param(QUERY, "", SPELLED, None, id="every-corpus-says-nothing"),
    pytest.param(r"\< x, y\rangle \le \norm{x}", "test", None, r"<code>\&lt;</code>, <code>\norm</code></p>",
                 id="names-escaped-in-order-of-use"),
])
def test_a_query_read_with_the_corpus_macros_says_so(index_file, client, query, corpus, first, notice):
    index_file(LINES)
    Corpus.objects.filter(name="test").update(macros={"norm": NORM, "<": Macro("<", (), r"\langle").to_json()})
    page = client.get("/", {"q": query, "corpus": corpus}).content.decode()
    said = re.search(r'<p class="read-as" id="macros-hint">Read with the macros of this corpus:\s*(.*?</p>)', page, re.S)
    assert (said and said.group(1)) == notice
    assert first is None or Formula.objects.get(pk=result_ids(page)[0]).latex == first


def test_a_query_read_in_several_ways_says_how_many_readings_were_searched(index_file, client):
    index_file(LINES)
    Corpus.objects.filter(name="test").update(
        macros={"norm": NORM}, other_macros={"norm": [Macro("norm", (Param("m"),), r"|#1|").to_json()]})
    page = client.get("/", {"q": QUERY, "corpus": "test"}).content.decode()
    assert re.search(r"<code>\\norm</code>;\s*its documents define them in more than one way, so 2 readings were "
                     r"searched</p>", page)
    api = client.get("/api/search", {"q": QUERY, "corpus": "test"}).json()
    assert (api["macros"], api["readings"]) == (["norm"], 2)


def test_an_error_in_a_query_read_with_macros_points_into_what_was_typed(index_file, client):
    index_file(LINES)
    Corpus.objects.filter(name="test").update(macros={"norm": NORM})
    response = client.get("/", {"q": r"\norm{x} + \frac{1}{", "corpus": "test"})
    assert response.status_code == 400 and "(at character 20)" in response.content.decode()


def test_unknown_formula_is_404(client):
    assert client.get("/formula/999999").status_code == 404


def test_posts_listing_is_still_reachable(indexed, client):
    response = client.get("/posts")
    assert response.status_code == 200
    assert f"{Post.objects.count()} posts indexed" in response.content.decode()
    assert Occurrence.objects.exists()


def test_the_search_box_reads_pasted_mathml_and_says_so(indexed, client):
    mathml = ('<math xmlns="http://www.w3.org/1998/Math/MathML"><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo>'
              "<msup><mi>y</mi><mn>2</mn></msup><mo>=</mo><msup><mi>z</mi><mn>2</mn></msup></math>")
    page = client.get("/", {"q": mathml}).content.decode()
    assert "read as MathML" in page and "Your query, read as MathML:" in page
    assert 'data-latex="x^2 + y^2 = z^2"' in page


def test_a_tangent_slt_string_is_named_with_its_article(indexed, client):
    page = client.get("/", {"q": "[V!x,a[N!2]]"}).content.decode()
    assert "Your query, read as a Tangent SLT string:" in page and "Your a " not in page
    assert re.search(r"read as a Tangent SLT string</h2>", page)


def test_a_result_shows_its_first_posts_and_links_to_all_when_there_are_more(index_file, client):
    lines = [json.dumps({"id": f"p{n}", "title": f"Post {n}", "body": "We have $a^2 + b^2 = c^2$ here."}) for n in range(5)]
    lines.append(json.dumps({"id": "p5", "title": "Post 5", "body": "Only here: $z^3 = 1$."}))
    index_file(lines, name="posts.jsonl", format="jsonl")
    formula = Formula.objects.get(latex="a^2 + b^2 = c^2")
    first = client.get("/", {"q": "a^2 + b^2 = c^2"}).content.decode().split('<li class="result"')[1]
    assert first.count('class="snippet') == 4  # three posts and the link
    assert re.search(rf'href="/formula/{formula.pk}\?back=[^"]*">All\s+5 occurrences</a>', first)
    hit = client.get("/api/search", {"q": "a^2 + b^2 = c^2", "k": 1}).json()["results"][0]
    assert (len(hit["posts"]), hit["occurrences"]) == (3, 5)
    alone = Formula.objects.get(latex="z^3 = 1")
    shown_whole = client.get("/", {"q": "z^3 = 1"}).content.decode().split('<li class="result"')[1]
    assert f'data-formula="{alone.pk}"' in shown_whole and "occurrences</a>" not in shown_whole

@pytest.mark.parametrize("query, offered", [
    (r"\frac{}{}", r"\frac{\qvar{x}}{\qvar{y}}"),  # the palette's fraction, searched as inserted
    (r"\frac{1}{ }", r"\frac{1}{\qvar{x}}"),
    (r"a_{} + b^{}", r"a_{\qvar{x}} + b^{\qvar{y}}"),
    (r"\sqrt{} + \binom{n}{}", r"\sqrt{\qvar{x}} + \binom{n}{\qvar{y}}"),
    (r"\frac{\qvar{x}}{}", r"\frac{\qvar{x}}{\qvar{y}}"),  # named apart from the query's own variable
    (r"\frac{?x}{} + ?y", r"\frac{?x}{\qvar{z}} + ?y"),  # and from those written `?x`
    (r"{}^{14}C", None),  # an empty group that attaches to nothing is LaTeX, not a box left empty
    (r"\frac{1}{2}", None),
])
def test_boxes_left_empty_are_offered_as_query_variables(indexed, client, query, offered):
    page = client.get("/", {"q": query, "corpus": "test", "page": "2"}).content.decode()
    hint = re.search(r'<p class="read-as" id="empty-hint">(.*?)</p>', page, re.S)
    if offered is None:
        assert hint is None
    else:
        link = re.search(r'href="\?([^"]*)"', hint.group(1)).group(1)
        assert parse_qs(html.unescape(link)) == {"q": [offered], "corpus": ["test"]}, "the options kept, page 1"
        assert client.get("/", parse_qs(html.unescape(link))).status_code == 200

def test_a_post_holding_the_formula_several_times_is_named_once_and_a_title_formula_is_said_to_be_there(
        client, tmp_path):
    """Each occurrence is a snippet, but the post's title leads only its first: three lines each opening with the
    same title read as three posts. A formula of the title has no words around it, so the page says where it is."""
    from tests.app.factories import index_thread_pages
    from tests.ml.factories import formula_span

    index_thread_pages(tmp_path / "pages", {"11_12.html": (
        f"Why is {formula_span(1, 'a^2+b^2')} positive", f"<p>I see {formula_span(2, 'a^2+b^2')} first.</p>"
        f"<p>Then {formula_span(3, 'a^2+b^2')} again.</p>", "<p>Squares are never negative.</p>")})
    formula = Formula.objects.get(latex="a^2+b^2")
    result = client.get("/", {"q": "a^2+b^2"}).content.decode().split('<li class="result"')[1]
    posts = client.get(f"/formula/{formula.pk}").content.decode().split('id="posts-title"')[1].split("</section>")[0]
    for page in (result, posts):
        assert page.count('href="/post/') == 1, "the post is named once, by its first occurrence"
        assert page.count('class="snippet same-post"') + page.count('class="same-post"') == 2
        assert "in the title" in page and "I see" in page and "again." in page
    posts = client.get(f"/api/formulas/{formula.pk}").json()["posts"]
    assert [snippet["in_title"] for snippet in posts] == [True, False, False]


def back_to_results(html_text: str) -> str | None:
    found = re.search(r'<a class="back-to-results" href="([^"]*)">', html_text)
    return html.unescape(found.group(1)) if found else None


def test_back_to_results_returns_to_the_same_page_with_every_setting(index_file, client):
    """A result's links carry the results page's address; the formula page and the post page link back to it, and a
    formula page passes it on to its posts."""
    index_file([json.dumps({"id": f"p{n}", "title": f"Post {n}", "body": f"Here $x^{{{n}}} + y = z$ holds."})
                for n in range(30)], name="posts.jsonl", format="jsonl")
    search = {"q": "x^2 + y = z", "page": "2", "corpus": "test", "fusion": "max", "notation": "latex",
              "context": "holds here"}
    page = client.get("/", search).content.decode()
    formula_link, post_link = (html.unescape(re.search(rf'<a class="{kind}" href="([^"]*)"', page).group(1))
                               for kind in ("formula-link", "post-link tex-text"))
    for link in (formula_link, post_link):
        back = parse_qs(link.split("?", 1)[1].split("#")[0])["back"][0]
        assert back.startswith("/?") and parse_qs(back[2:]) == {name: [value] for name, value in search.items()}
        shown = client.get(link.split("#")[0]).content.decode()
        assert back_to_results(shown) == back and "Back to results for <code>x^2 + y = z</code>" in shown
    formula_page = client.get(formula_link).content.decode()
    posts = formula_page.split('id="posts-title"')[1].split("</section>")[0]
    onward = html.unescape(re.search(r'href="(/post/[^"]*)"', posts).group(1))
    assert back_to_results(client.get(onward.split("#")[0]).content.decode()) == back


@pytest.mark.parametrize("back", [
    pytest.param("https://evil.example/?q=x", id="another-site"),
    pytest.param("//evil.example/?q=x", id="scheme-relative"),
    pytest.param("/\\evil.example/?q=x", id="backslash"),
    pytest.param("/admin/?q=x", id="not-a-results-page"),
    pytest.param("/", id="no-search"),
])
def test_back_to_results_refuses_an_address_that_is_not_a_results_page(indexed, client, back):
    formula = Formula.objects.first()
    assert back_to_results(client.get(f"/formula/{formula.pk}", {"back": back}).content.decode()) is None


def test_an_older_link_with_only_the_query_goes_back_to_its_results(indexed, client):
    formula = Formula.objects.first()
    page = client.get(f"/formula/{formula.pk}", {"q": "a + b"}).content.decode()
    assert back_to_results(page) == "/?q=a+%2B+b" and "for <code>a + b</code>" in page


def test_the_help_page_explains_every_representation_fusion_notation_and_mode(client):
    from searchapp.search.questions import MODES
    from searchapp.search.ranking import ORDERS
    from searchapp.web.search_page import NOTATION_CHOICES

    page = client.get("/help").content.decode()
    anchors = set(re.findall(r'id="([\w-]+)"', page))
    assert {"slg", "opg", "query-variables", "context", "feedback", "tags"} <= anchors
    assert {f"fusion-{name}" for name in ORDERS} | {f"mode-{mode}" for mode in MODES} <= anchors
    assert {f"notation-{value}" for value, _ in NOTATION_CHOICES} <= anchors
    assert "The harmonic mean of the SLG and OPG scores" in page and r"\qvar{x}" in page
    assert "best and 30th best scores" in page
    assert '<a href="/help">Help</a>' in client.get("/posts").content.decode()  # every page's header


def test_results_explain_slg_opg_and_link_their_fusion_to_the_help(indexed, client):
    page = client.get("/", {"q": "x^2 + y^2 = z^2", "fusion": "rrf"}).content.decode()
    assert re.search(r'<a href="/help#fusion-rrf" title="Reciprocal rank fusion: [^"]+">fusion rrf</a>', page)
    assert '<abbr title="Symbol layout graph: the formula as it is written' in page
    assert '<abbr title="Operator graph: the formula as what it computes' in page


def pressed(html: str) -> list[tuple[str, str]]:
    """(the result's id field and value, the pressed button's kind) of every result judged on the page."""
    found = []
    for form in re.findall(r'<form class="feedback".*?</form>', html, re.S):
        target = re.search(r'name="(formula_id|post_id)" value="(\d+)"', form)
        for kind in re.findall(r'data-kind="(\w+)"\s+class="fb [^"]*" aria-pressed="true"', form):
            found.append((f"{target[1]}={target[2]}", kind))
    return found


def test_the_results_show_this_persons_judgments_read_in_one_query(indexed, client):
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client.get("/", {"q": "x^2 + y^2"})
    ids = result_ids(client.get("/", {"q": "x^2 + y^2"}).content.decode())
    judge = {"query": "x^2 + y^2", "rank": 1}
    client.post("/api/feedback", {**judge, "formula_id": ids[0], "kind": "relevant"})
    client.post("/api/feedback", {**judge, "formula_id": ids[1], "kind": "relevant"})
    client.post("/api/feedback", {**judge, "formula_id": ids[1], "kind": "not_relevant"})
    client.post("/api/feedback", {**judge, "formula_id": ids[2], "kind": "relevant"})
    client.post("/api/feedback", {**judge, "formula_id": ids[2], "kind": "none"})
    client.post("/api/feedback", {**judge, "query": "x^2", "formula_id": ids[3], "kind": "relevant"})
    page = client.get("/", {"q": "  x^2 + y^2 "}).content.decode()
    assert pressed(page) == [(f"formula_id={ids[0]}", "relevant"), (f"formula_id={ids[1]}", "not_relevant")]
    assert 'value="none" data-kind="relevant"' in page  # pressing it again takes it back, without JavaScript too
    assert pressed(Client().get("/", {"q": "x^2 + y^2"}).content.decode()) == []  # another person
    with CaptureQueriesContext(connection) as queries:
        client.get("/", {"q": "x^2 + y^2"})
    # the pressed buttons, and the evidence the search reads (searchapp.search.feedback_boost)
    assert sum("searchapp_feedback" in q["sql"] for q in queries.captured_queries) == 2


def test_a_result_people_judged_says_so_and_how_many_places_it_moved(indexed, client):
    from django.test import Client

    page = client.get("/", {"q": "x^2 + y^2"}).content.decode()
    ids, scores = result_ids(page), re.findall(r'<span class="score"[^>]*>score ([-\d.]+)</span>', page)
    for _ in range(3):  # three people, each with a session of their own
        Client().post("/api/feedback", {"query": "x^2+y^2", "formula_id": ids[-1], "rank": len(ids), "kind": "relevant"})
    client.post("/api/feedback", {"query": "x^{2} + y^{2}", "formula_id": ids[0], "rank": 1, "kind": "not_relevant"})
    page = client.get("/", {"q": "x^2 + y^2"}).content.decode()
    explained = re.findall(r'<p class="people-feedback people-said ?([\w-]*)"><span class="why-title">([^<]*)</span>\s*'
                           r'<span class="people-words">([^<]*)</span>', page)
    moved = len(ids) - 1 - result_ids(page).index(ids[-1])
    assert sorted(explained) == [("", "People said:", "1 person found this not relevant"),  # one person moves nothing down
                                 ("moved-up", f"Moved up {moved} places:", "3 people found this relevant")]
    assert moved > 1
    shown = dict(zip(result_ids(page), re.findall(r'<span class="score"[^>]*>score ([-\d.]+)</span>', page)))
    assert shown == dict(zip(ids, scores))  # the order changed; every score is what it was


def test_the_no_javascript_form_takes_a_judgment_back(indexed, client):
    ids = result_ids(client.get("/", {"q": "x^2 + y^2"}).content.decode())
    form = {"query": "x^2 + y^2", "formula_id": ids[0], "rank": 1, "next": "/?q=x%5E2"}
    client.post("/feedback", {**form, "kind": "relevant"})
    response = client.post("/feedback", {**form, "kind": "none"}, follow=True)
    assert "Your judgment was taken back." in response.content.decode()
    assert pressed(response.content.decode()) == []
