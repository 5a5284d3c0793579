"""A page per post, the Posts list and the links to posts from formulas and results, server-rendered."""
import json
import re
from urllib.parse import quote

import pytest

from searchapp.models import Corpus, Formula, Post

pytestmark = pytest.mark.django_db

BODY = "Take $a^2 + b^2 = c^2$ here.\nA second line <script>alert(1)</script> & $a^{1} + b$.\n\nComment: nice $x$"


@pytest.fixture
def indexed_post(index_file) -> Post:
    """A post indexed for real, so its formulas and occurrences are what indexing makes."""
    line = json.dumps({"id": "q1", "title": "Pythagoras <b>again</b>", "url": "https://math.example.org/q/1",
                       "tags": ["geometry", "<i>algebra</i>"], "body": BODY})
    index_file([line], corpus="threads", name="posts.jsonl", format="jsonl")
    return Post.objects.get(source_id="q1")


@pytest.fixture
def thread() -> tuple[Post, list[Post]]:
    """A question with two answers, made directly."""
    corpus = Corpus.objects.create(name="thread")
    question = Post.objects.create(corpus=corpus, source_id="q", title="Is $x > 0$?", body="Question text.",
                                   url="https://math.stackexchange.com/q/11")
    answers = [Post.objects.create(corpus=corpus, source_id=f"a{n}", parent=question, body=f"Yes, answer {n} $y_{n}$.",
                                   url=f"https://math.stackexchange.com/a/{n}") for n in (1, 2)]
    return question, answers


def test_post_page_shows_its_text_escaped_tags_corpus_source_and_formulas(indexed_post, client):
    response = client.get(f"/post/{indexed_post.pk}")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1 class=\"tex-text\">Pythagoras &lt;b&gt;again&lt;/b&gt;</h1>" in html
    assert "<script>alert(1)</script>" not in html
    assert '&lt;script&gt;alert(1)&lt;/script&gt; &amp; <span class="formula-anchor" id="formula-1">$a^{1} + b$</span>' in html
    # one paragraph, its line break kept as text; each formula an anchor that a result's link lands on
    assert '<p>Take <span class="formula-anchor" id="formula-0">$a^2 + b^2 = c^2$</span> here.\nA second line' in html
    assert '<p class="comment">Comment: nice <span class="formula-anchor" id="formula-2">$x$</span></p>' in html
    assert re.findall(r'<li><a class="tag"[^>]*>([^<]*)</a></li>', html) == ["geometry", "&lt;i&gt;algebra&lt;/i&gt;"]
    assert "Corpus threads" in html and 'href="https://math.example.org/q/1"' in html
    formulas = html[html.index('id="formulas-title"'):]
    linked = [int(pk) for pk in re.findall(r'href="/formula/(\d+)"', formulas)]
    assert linked == [o.formula_id for o in indexed_post.occurrences.order_by("position")] and len(linked) == 3
    assert 'data-latex="a^2 + b^2 = c^2"' in formulas


def test_a_formula_the_post_writes_again_is_listed_once_with_its_count(index_file, client):
    line = json.dumps({"id": "q1", "title": "Primes", "body": "Let $p$ be prime, $p > 2$; then $p$ is odd, and $p$ too."})
    index_file([line], corpus="threads", name="posts.jsonl", format="jsonl")
    post = Post.objects.get(source_id="q1")
    formulas = client.get(f"/post/{post.pk}").content.decode().split('id="formulas-title"')[1].split("</section>")[0]
    items = re.findall(r'data-latex="([^"]*)".*?</a>(.*?)</li>', formulas, re.S)
    assert [(latex, " ".join(rest.split())) for latex, rest in items] == [
        ("p", '<span class="muted">× 3</span>'), ("p &gt; 2", "")]


def test_post_page_loads_katex_and_its_renderer_from_the_site(indexed_post, client):
    html = client.get(f"/post/{indexed_post.pk}").content.decode()
    scripts = re.findall(r"<script([^>]*)>", html)
    assert [re.search(r'src="([^"]+)"', attributes).group(1) for attributes in scripts] == [
        "/static/vendor/katex/katex.min.js", "/static/js/render_math.js",
        "/static/js/search.js"]  # search.js reads render_math.js's texSource
    assert "cdn" not in html.lower()


def test_a_question_lists_its_answers_and_an_answer_names_its_question(thread, client):
    question, answers = thread
    page = client.get(f"/post/{question.pk}").content.decode()
    assert "2 answers" in page
    for n, answer in enumerate(answers, start=1):
        assert f'<a href="/post/{answer.pk}">Answer {n}</a>' in page and f"Yes, answer {n} $y_{n}$." in page
    answer_page = client.get(f"/post/{answers[0].pk}").content.decode()
    assert f'Answer to: <a href="/post/{question.pk}">Is $x &gt; 0$?</a></h1>' in answer_page
    assert "<title>Answer to: Is $x &gt; 0$? – MathSearch</title>" in answer_page
    assert 'id="answers-title"' not in answer_page


def test_post_page_reads_four_queries_however_many_answers(thread, client, django_assert_num_queries):
    question, _ = thread
    with django_assert_num_queries(4):  # the post with its corpus and question, its answers, its occurrences, its copies
        # (no related threads: these posts have no words vector to compare)
        assert client.get(f"/post/{question.pk}").status_code == 200


def test_a_post_page_lists_the_questions_nearest_in_words_to_its_thread(client, tmp_path):
    from tests.app.factories import index_thread_pages

    titles = ["Integral of a polynomial over the unit interval", "Integrating polynomials from zero to one",
              "Eigenvalues of a symmetric matrix", "Infinitely many primes"]
    index_thread_pages(tmp_path / "pages", {f"{n}1_{n}2.html": (title, f"<p>{title}: how?</p>", "<p>Like this.</p>")
                                            for n, title in enumerate(titles, start=1)})
    question, answer = Post.objects.get(source_id="11"), Post.objects.get(source_id="12")
    for post in (question, answer):  # an answer's page lists its question's related threads, not its question
        html = client.get(f"/post/{post.pk}").content.decode()
        related = re.findall(r'<a class="tex-text" href="/post/\d+">([^<]*)</a>', html.split('id="related-title"')[1])
        assert related[0] == titles[1] and sorted(related) == sorted(titles[1:])
    quiet = Post.objects.create(corpus=question.corpus, source_id="n", title="No words")  # nothing to compare by
    assert 'id="related-title"' not in client.get(f"/post/{quiet.pk}").content.decode()


def test_unsafe_source_links_are_dropped(thread, client):
    question, _ = thread
    Post.objects.filter(pk=question.pk).update(url="javascript:alert(1)")
    assert "javascript:" not in client.get(f"/post/{question.pk}").content.decode()
    assert "javascript:" not in client.get("/posts").content.decode()


def test_unknown_post_is_404(client):
    assert client.get("/post/999999").status_code == 404


def test_posts_list_links_each_title_to_its_page_and_keeps_the_source(thread, client):
    question, answers = thread
    html = client.get("/posts").content.decode()
    assert f'<a href="/post/{question.pk}">Is $x &gt; 0$?</a>' in html
    assert f'<a href="/post/{answers[0].pk}">Answer to: Is $x &gt; 0$?</a>' in html
    assert 'href="https://math.stackexchange.com/q/11" rel="noopener nofollow">source</a>' in html
    assert "vendor/katex/katex.min.js" in html and "js/render_math.js" in html


def test_posts_list_snippets_never_cut_a_formula(thread, client, django_assert_max_num_queries):
    question, _ = thread
    body = "word " * 78 + r"$\frac{a}{b} + \frac{c}{d}$ and more. <script>alert(1)</script>"
    Post.objects.filter(pk=question.pk).update(body=body)
    with django_assert_max_num_queries(2):  # the count and the page: no query per post
        html = client.get("/posts").content.decode()
    shown = re.search(rf'<h2 class="tex-text"><a href="/post/{question.pk}">.*?<p class="tex-text">(.*?)</p>', html,
                      re.S).group(1)
    assert shown == " ".join(["word"] * 78) + "…"
    assert "<script>" not in html


def test_formula_page_and_results_link_posts_to_their_pages(indexed_post, client):
    formula = Formula.objects.get(latex="a^2 + b^2 = c^2")
    page = client.get(f"/formula/{formula.pk}").content.decode()
    assert f"<title>a^2 + b^2 = c^2 – formula {formula.pk} in {formula.corpus.name} – MathSearch</title>" in page
    occurrences = page[page.index('id="posts-title"'):page.index('id="nearest-title"')]
    # each link lands on the formula's place in the post
    assert (f'<a class="tex-text" href="/post/{indexed_post.pk}#formula-0">Pythagoras &lt;b&gt;again&lt;/b&gt;</a>'
            in occurrences)
    assert 'href="https://math.example.org/q/1" rel="noopener nofollow">source</a>' in occurrences
    results = client.get("/", {"q": "a^2 + b^2 = c^2"}).content.decode()
    back = "back=" + quote("/?q=a%5E2+%2B+b%5E2+%3D+c%5E2", safe="")  # to these results
    assert f'<a class="post-link tex-text" href="/post/{indexed_post.pk}?{back}#formula-0">' in results
    assert 'class="source-link" href="https://math.example.org/q/1"' in results


def test_an_answer_a_formula_occurs_in_is_named_after_its_question_not_its_number(index_file, client):
    lines = [json.dumps({"id": "q7", "title": "Why is $e^{i\\pi} = -1$?", "body": "Asking."}),
             json.dumps({"id": "a8", "body": "Because $e^{i\\theta} = \\cos\\theta + i\\sin\\theta$."})]
    index_file(lines, corpus="threads", name="thread.jsonl", format="jsonl")
    Post.objects.filter(source_id="a8").update(parent=Post.objects.get(source_id="q7"))  # JSONL has no threads
    answer = Post.objects.get(source_id="a8")
    formula = Formula.objects.get(occurrences__post=answer)
    expected = f'href="/post/{answer.pk}#formula-0">Answer to: Why is $e^{{i\\pi}} = -1$?</a>'
    assert expected in client.get(f"/formula/{formula.pk}").content.decode()
    back = "?back=" + quote("/?q=e%5E%7Bi%5Ctheta%7D", safe="")
    assert expected.replace("#", back + "#") in client.get("/", {"q": r"e^{i\theta}"}).content.decode()


def test_a_long_text_is_shown_a_part_at_a_time_cut_before_a_formula_with_links_to_the_rest(index_file, client):
    formula = "$x^{2} + y^{2} + z^{2}$"
    body = "a " * 99_995 + formula + " and more" * 20_000  # one paragraph; the formula spans character 200,000
    index_file([json.dumps({"id": "long", "title": "Long", "body": body})], corpus="long", name="posts.jsonl",
               format="jsonl")
    post = Post.objects.get(source_id="long")
    first = client.get(f"/post/{post.pk}").content.decode()
    assert "this page shows part 1 of 2 (characters 1–199990 of 380013)" in " ".join(first.split())
    assert formula not in first.split('id="formulas-title"')[0] and first.count("a a a") < 100_000
    assert 'href="?part=2"' in first and f'href="/post/{post.pk}/text"' in first
    second = client.get(f"/post/{post.pk}", {"part": 2}).content.decode()
    assert f'<p><span class="formula-anchor" id="formula-0">{formula}</span> and more' in second
    assert 'href="?part=1"' in second and 'href="?part=3"' not in second
    assert client.get(f"/post/{post.pk}", {"part": 3}).status_code == 404
    assert client.get(f"/post/{post.pk}", {"part": "x"}).status_code == 404
    whole = client.get(f"/post/{post.pk}/text")
    assert whole["Content-Type"] == "text/plain; charset=utf-8" and whole.content.decode() == body


@pytest.mark.parametrize("part", [pytest.param("²", id="a-superscript-digit"), pytest.param("٣", id="arabic-indic"),
                                  pytest.param("9" * 5000, id="five-thousand-digits"), pytest.param("0", id="zero"),
                                  pytest.param("-1", id="negative"), pytest.param("+1", id="signed"),
                                  pytest.param(" 1", id="spaced"), pytest.param("999999", id="past-the-last-part")])
def test_a_part_that_is_not_one_is_not_found(indexed_post, client, part):
    assert client.get(f"/post/{indexed_post.pk}", {"part": part}).status_code == 404


def test_a_short_text_is_shown_whole_without_parts(indexed_post, client):
    html = client.get(f"/post/{indexed_post.pk}").content.decode()
    assert "this page shows part" not in html and "?part=" not in html


def test_a_posts_tags_link_to_the_posts_with_that_tag(indexed_post, client):
    html = client.get(f"/post/{indexed_post.pk}").content.decode()
    assert '<a class="tag" href="/posts?tag=geometry" title="Posts tagged geometry">geometry</a>' in html
    assert 'href="/posts?tag=%3Ci%3Ealgebra%3C/i%3E"' in html and ">&lt;i&gt;algebra&lt;/i&gt;</a>" in html


def test_the_posts_list_filtered_by_a_tag_holds_its_questions_and_their_answers(thread, client):
    question, answers = thread
    question.tags = ["inequalities", "real-analysis"]
    question.save()
    other = Post.objects.create(corpus=question.corpus, source_id="q2", title="Other", body="Untagged.",
                                tags=["algebra"])
    listed = client.get("/posts", {"tag": "inequalities"}).content.decode()
    ids = [int(pk) for pk in re.findall(r'<h2 class="tex-text"><a href="/post/(\d+)">', listed)]
    assert ids == [question.pk, *(answer.pk for answer in answers)]
    assert 'Posts tagged <span class="tag">inequalities</span>' in listed and "3 posts:" in listed
    everything = client.get("/posts").content.decode()
    assert f'href="/post/{other.pk}"' in everything and "4 posts indexed" in everything
    assert '<a class="tag" href="/posts?tag=real-analysis">real-analysis</a>' in everything
    assert client.get("/posts", {"tag": "geometry"}).content.decode().count('<li class="post">') == 0
    assert client.get("/posts", {"tag": "x" * 101}).status_code == 400


def test_the_pages_of_a_tag_keep_the_tag(client):
    corpus = Corpus.objects.create(name="many")
    Post.objects.bulk_create([Post(corpus=corpus, source_id=f"p{n}", title=f"P{n}", body="b", tags=["t"] if n % 2 else [])
                              for n in range(120)])
    first = client.get("/posts", {"tag": "t"}).content.decode()
    assert "60 posts:" in first and 'href="?page=2&amp;tag=t">Next</a>' in first
    second = client.get("/posts", {"tag": "t", "page": "2"}).content.decode()
    assert second.count('<li class="post">') == 10 and 'href="?page=1&amp;tag=t">Previous</a>' in second
