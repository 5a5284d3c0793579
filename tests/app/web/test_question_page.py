"""The Answers tab and the search page's words-around field, server-rendered (no JavaScript), on
thread pages indexed for real."""
import html
import re
from urllib.parse import parse_qs, quote, quote_plus

import pytest
from django.http import QueryDict

from searchapp.embedding import get_fusion
from searchapp.models import Corpus, Post
from searchapp.web.search_page import page_numbers
from tests.app.factories import EIGEN_QUESTION, INTEGRAL, index_threads
from tests.app.search.test_notation import AREA

pytestmark = pytest.mark.django_db

@pytest.fixture
def threads(tmp_path):
    return index_threads(tmp_path / "pages")


def first_result(html: str) -> str:
    start = html.index('<li class="result post-result"')
    return html[start:html.index("</li>", start)]


def post_link(html: str, pk: int) -> int:
    """Where `html` first links to a post (to the formula that matched, `#formula-N`, or to its top); -1 if nowhere."""
    found = re.search(rf'href="/post/{pk}(\?back=[^"#]*)?(#[^"]*)?"', html)
    return found.start() if found else -1


def test_the_question_tab_offers_a_form_that_works_without_javascript(client):
    response = client.get("/questions")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<form class="search-form question-form" id="question-form" method="get" action="/questions"' in html
    assert '<textarea id="question" name="q"' in html and 'id="question-preview"' in html
    assert re.findall(r'<option value="(\w+)"(?: selected)?>([^<]+)</option>', html)[:5] == [
        ("ssemb", "words and formulas (SSEmb)"), ("marf", "words fused with formulas (MaRF)"), ("text", "words (MiniLM)"),
        ("bm25", "BM25"), ("formula", "formulas only")]
    assert '<option value="ssemb" selected>' in html
    assert "js/question.js" in html and "vendor/katex/katex.min.js" in html and "js/render_math.js" in html
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # the CSP allows no inline script
    assert 'class="error"' not in html and 'id="results-title"' not in html


def test_the_tabs_filter_the_search_in_the_box_and_mark_the_open_one(client):
    assert _tabs(client.get("/").content.decode()) == [
        ("/", True, "All"), ("/?as=formula", False, "Formulas"), ("/questions", False, "Answers")]
    assert _tabs(client.get("/questions").content.decode()) == [
        ("/", False, "All"), ("/?as=formula", False, "Formulas"), ("/questions", True, "Answers")]


def test_the_tabs_keep_the_query_and_its_options(client):
    page = client.get("/questions", {"q": "why $x^2$", "corpus": "", "page": "2"}).content.decode()
    assert _tabs(page) == [("/?q=why+%24x%5E2%24&corpus=", False, "All"),
                           ("/?q=why+%24x%5E2%24&corpus=&as=formula", False, "Formulas"),
                           ("/questions?q=why+%24x%5E2%24&corpus=", True, "Answers")]


def _tabs(page: str) -> list[tuple[str, bool, str]]:
    nav = re.search(r'<nav class="tabs".*?</nav>', page, re.S).group(0)
    return [(html.unescape(href), bool(current), name)
            for href, current, name in re.findall(r'<a href="([^"]*)"( aria-current="page")?>(\w+)</a>', nav)]


def test_answers_are_rendered_on_the_server_with_their_question_snippet_matched_formula_and_scores(threads, client):
    response = client.get("/questions", {"q": EIGEN_QUESTION})
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'3 answers in\s+\d+ ms · ranked by <a href="/help#mode-ssemb" title="0.4 × how alike the formulas '
                     r'are \+ 0.6 × how alike the words are \(SSEmb\); the default">words and formulas \(SSEmb\)</a>', html)
    answer = Post.objects.get(source_id="12")
    first = first_result(html)
    formula_id = answer.occurrences.get(position=1).formula_id
    # the answer's link lands on the formula that matched
    back = "back=" + quote(f"/questions?q={quote_plus(EIGEN_QUESTION)}", safe="")
    assert (f'<a class="post-link tex-text" href="/post/{answer.pk}?{back}#formula-1">Eigenvalues of $A^{{T}}=A$</a>'
            in first)
    assert '<p class="snippet tex-text">Take an eigenvector v of the symmetric matrix with $A^{T}=A$;' in first
    assert (f'<a class="formula-link" href="/formula/{formula_id}?{back}"><mark class="math" data-latex="A^{{T}}=A">'
            in first)
    assert re.search(r"text 0\.\d{3}</span>.*BM25 \d+\.\d</span>.*formula 1\.000</span>", first, re.S)  # its own formula
    assert f'href="{answer.url}" rel="noopener nofollow">source</a>' in first
    assert html.count('<li class="result post-result"') == 3
    assert 0 <= post_link(html, answer.pk) < post_link(html, Post.objects.get(source_id="22").pk)
    assert '<textarea id="question" name="q" rows="2" maxlength="5000"' in html and f">{EIGEN_QUESTION}</textarea>" in html


def test_the_mode_and_corpus_chosen_are_kept_in_the_form(threads, client):
    html = client.get("/questions", {"q": "eigenvalues of a symmetric matrix", "mode": "bm25", "corpus": "threads"}).content.decode()
    assert '<option value="bm25" selected>' in html and '<option value="threads" selected>' in html
    assert re.search(r'ranked by <a href="/help#mode-bm25" title="[^"]*">BM25</a>', html)
    assert post_link(first_result(html), Post.objects.get(source_id="12").pk) >= 0


@pytest.mark.parametrize("page, corpus, said", [
    pytest.param("/questions", "threads", True, id="answers-tab"),
    pytest.param("/", "threads", True, id="search-box-question"),
    pytest.param("/questions", "", False, id="every-corpus-says-nothing"),
])
def test_a_question_read_with_the_corpus_macros_says_so(threads, client, page, corpus, said):
    Corpus.objects.filter(name="threads").update(macros={"area": AREA})
    html = client.get(page, {"q": r"What is $\area{x^2}$ for a symmetric matrix?", "corpus": corpus}).content.decode()
    assert ("Formulas read with the macros of this corpus:\n  <code>\\area</code>" in html) == said
    api = client.get("/api/posts", {"q": r"What is $\area{x^2}$ ?", "corpus": corpus}).json()
    assert api["macros"] == (["area"] if said else [])


def test_formulas_the_question_cannot_read_are_named_and_the_words_still_search(threads, client):
    html = client.get("/questions", {"q": r"Why infinitely many primes, $\frac{1$ ?"}).content.decode()
    assert "Searched without this formula:" in html
    assert re.search(r"could not read <code>\$\\frac\{1\$</code>: unbalanced_braces", html)
    assert post_link(first_result(html), Post.objects.get(source_id="32").pk) >= 0



@pytest.mark.parametrize("question, offered", [
    (r"\int_0^1 x^2 \, dx", r"$\int_0^1 x^2 \, dx$"),  # all formula: one click searches it as one
    (r"Why is x^2 + 1 > 0 for every real x?", None),  # words and LaTeX: where the formula ends is the writer's to say
    (r"How do I evaluate \int_0^1 x^2 dx?", None),
    (INTEGRAL.join("$$"), "no hint"),  # between dollars: a formula, read as one
    ("Why are there infinitely many primes?", "no hint"),  # words only
])
def test_latex_outside_dollar_signs_is_pointed_out(threads, client, question, offered):
    page = client.get("/questions", {"q": question, "mode": "formula"}).content.decode()
    hint = re.search(r'<p class="read-as" id="dollars-hint">(.*?)</p>', page, re.S)
    if offered == "no hint":
        assert hint is None
        return
    assert "No formula was read" in hint.group(1)
    link = re.search(r'href="\?([^"]*)"', hint.group(1))
    if offered is None:
        assert link is None
    else:
        assert parse_qs(html.unescape(link.group(1))) == {"q": [offered], "mode": ["formula"]}
        answers = client.get("/questions", {"q": offered, "mode": "formula"}).content.decode()
        assert "Integral of a polynomial" in answers and 'id="dollars-hint"' not in answers

def test_user_text_is_escaped(threads, client):
    html = client.get("/questions", {"q": "<script>alert(1)</script> primes $x<y$"}).content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; primes $x&lt;y$" in html


@pytest.mark.parametrize("params, message", [
    pytest.param({"q": "  "}, "write your question first", id="empty"),
    pytest.param({"q": "$ $"}, "write your question first", id="empty-formula"),
    pytest.param({"q": "primes", "mode": "nope"}, "mode must be one of ssemb, marf, text, bm25, formula", id="bad-mode"),
    pytest.param({"q": "w" * 5001}, "the limit is 5000", id="too-long"),
    pytest.param({"q": "primes", "page": "0"}, "page must be between 1 and 50", id="bad-page"),
])
def test_bad_questions_explain_themselves_with_a_400(client, params, message):
    response = client.get("/questions", params)
    html = response.content.decode()
    assert response.status_code == 400
    assert '<div class="error" role="alert"><strong>Cannot search:</strong>' in html and message in html


def test_the_pager_repeats_every_option_of_the_search():
    params = QueryDict("q=x%5E2&context=prime+numbers&fusion=avg&page=2")
    pager = page_numbers(45, 2, params)
    assert pager["previous"] == "?q=x%5E2&context=prime+numbers&fusion=avg&page=1"
    assert pager["next"] == "?q=x%5E2&context=prime+numbers&fusion=avg&page=3"
    assert (pager["pages"], pager["first"]) == (3, 21)
    assert page_numbers(45, 3, params)["next"] is None and page_numbers(45, 1, params)["previous"] is None


def test_the_formula_tab_takes_the_words_around_the_formula(client):
    html = client.get("/").content.decode()
    assert '<label for="context">Words around the formula</label>' in html
    assert '<input id="context" name="context" type="text" value=""' in html
    assert "optional: the sentence your formula appears in; results whose surrounding words match rank higher" in html


def test_words_around_the_formula_are_kept_and_their_similarity_shown(threads, client):
    plain = client.get("/", {"q": "A^T = A"}).content.decode()
    assert 'class="result"' in plain and not re.search(r">context -?\d", plain)
    words = 'symmetric "matrix" <eigenvalues>'
    html = client.get("/", {"q": "A^T = A", "context": words}).content.decode()
    assert 'value="symmetric &quot;matrix&quot; &lt;eigenvalues&gt;"' in html
    scores = re.findall(r'<span class="part" title="[^"]*">context (-?\d\.\d{3})</span>', html)
    assert scores and len(scores) == html.count('<li class="result"')


def test_marf_without_a_trained_fusion_says_it_ranked_by_ssemb(threads, client, settings, tmp_path):
    settings.MATHSEARCH_FUSION_DIR = tmp_path / "no-fusion"
    get_fusion.cache_clear()
    html = client.get("/questions", {"q": "eigenvalues of a symmetric matrix", "mode": "marf"}).content.decode()
    assert re.search(r'ranked by <a href="/help#mode-ssemb"[^>]*>words and formulas \(SSEmb\)</a>\n  \(words fused with '
                     r'formulas \(MaRF\) needs a trained fusion; none is installed\)', html)
    assert '<option value="marf" selected>' in html and "MaRF 0." not in html


@pytest.mark.usefixtures("trained_fusion")  # before threads: indexing stores MaRF vectors only with a fusion
def test_marf_with_a_fusion_ranks_and_shows_its_similarity(threads, client):
    html = client.get("/questions", {"q": "Are the eigenvalues of a symmetric matrix real? $A^T = A$", "mode": "marf"}).content.decode()
    assert re.search(r'ranked by <a href="/help#mode-marf" title="[^"]*">words fused with formulas \(MaRF\)</a></h2>', html)
    first = first_result(html)
    assert post_link(first, Post.objects.get(source_id="12").pk) >= 0 and re.search(r">MaRF -?\d\.\d{3}</span>", first)


def test_a_tag_keeps_the_answers_to_questions_with_that_tag(threads, client):
    Post.objects.filter(source_id="21").update(tags=["calculus"])
    api = client.get("/api/posts", {"q": "integrate a polynomial", "tag": "calculus"}).json()
    assert [hit["post"]["source_id"] for hit in api["results"]] == ["22"]
    page = client.get("/questions", {"q": "integrate a polynomial", "tag": "calculus", "mode": "text"}).content.decode()
    assert page.count('<li class="result post-result"') == 1
    assert 'only answers to questions tagged <a class="tag" href="/posts?tag=calculus">calculus</a>' in page
    assert '<input type="hidden" name="tag" value="calculus">' in page  # a new question keeps the filter
    assert '(<a href="?q=integrate+a+polynomial&amp;mode=text">all answers</a>)' in page
    untagged = client.get("/api/posts", {"q": "integrate a polynomial"}).json()
    assert len(untagged["results"]) == 3


def test_the_answers_tab_shows_this_persons_judgment_of_an_answer(threads, client):
    page = client.get("/questions", {"q": EIGEN_QUESTION}).content.decode()
    first = int(re.search(r'name="post_id" value="(\d+)"', page)[1])
    client.post("/api/feedback", {"query": EIGEN_QUESTION, "post_id": first, "rank": 1, "kind": "not_relevant",
                                  "fusion": "ssemb"})
    page = client.get("/questions", {"q": EIGEN_QUESTION}).content.decode()
    assert re.findall(r'name="post_id" value="(\d+)"', page)[0] == str(first)
    assert page.count('aria-pressed="true"') == 1
    assert re.search(r'value="none" data-kind="not_relevant"\s+class="fb fb-no" aria-pressed="true"', page)
    assert re.search(r'<li class="result post-result judged-not-relevant"', page)  # greyed, where it stood
    assert re.search(r'<p class="people-feedback people-said"><span class="why-title">People said:</span>\s*'
                     r'<span class="people-words">1 person found this not relevant</span></p>', page)
