"""Formulas in post text and snippets as the browser draws them (render_math.js), and Back to results, in Chromium."""
import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Formula, Post
from searchapp.web.snippets import tex_spans

pytestmark = pytest.mark.e2e

SPLIT = r"\begin{split} a &= b + c \\ &= d \end{split}"
BODY = (f"We expand $${SPLIT}$$ and write it inline as ${SPLIT}$, then " r"\begin{align} y &= 2x \end{align}"
        r" stands alone. It costs \$5 and \$6, not $x^2$.")


@pytest.fixture
def split_post(transactional_db, tmp_path) -> Post:
    """A post whose text writes a split environment in display and inline, and a bare align, indexed for real."""
    path = tmp_path / "posts.jsonl"
    path.write_text(json.dumps({"id": "s1", "title": "Expanding", "body": BODY, "tags": ["algebra"]}) + "\n")
    assert run_job(start_index_job(path, "jsonl", "envs", enqueue=False)).state == "done"
    return Post.objects.get(source_id="s1")


@pytest.mark.parametrize("text", [
    pytest.param(BODY, id="environments-and-escaped-dollars"),
    pytest.param(r"a $x^{2$ rest $q$ and $y$", id="unclosed-brace-leaves-the-rest"),
    pytest.param(r"\(a\) \[b\] $$c$$ $d$ \begin{pmatrix} 1 \\ 2 \end{pmatrix} \begin{gather*} e \end{gather*}", id="all"),
    pytest.param(r"$\text{a $b$ c}$ and $\{x\}$ and \\$y$", id="braces-and-backslashes"),
])
def test_the_page_finds_the_formulas_snippets_are_cut_between(page, text):
    """render_math.js and searchapp.web.snippets.tex_spans read one text into the same formulas."""
    page.goto("/posts")
    drawn = page.evaluate("text => texSplit(text).filter(p => p.math !== undefined).map(p => [p.math, p.display])", text)
    spans = tex_spans(text)
    assert len(drawn) == len(spans) and [display for _, display in drawn] == [span.display for span in spans]
    assert all(math in text[span.start:span.end] for (math, _), span in zip(drawn, spans))


def test_split_and_align_render_in_a_post_its_snippets_and_the_results(page, split_post, console_errors, screenshot):
    page.goto(f"/post/{split_post.pk}")
    text = page.locator(".post-text")
    expect(text.locator(".katex")).to_have_count(4)  # $$split$$, $split$, the align, $x^2$
    assert text.locator(".katex-display").count() == 2 and text.locator(".katex-error").count() == 0
    assert "costs $5 and $6, not" in text.inner_text()  # escaped dollars are dollar signs, not formulas
    screenshot("post")
    page.goto("/posts")
    snippet = page.locator(".post-list .post p.tex-text").first
    expect(snippet.locator(".katex").first).to_be_visible()
    assert snippet.locator(".katex-error").count() == 0
    formula = Formula.objects.get(latex__contains="split")  # written twice, one formula
    page.goto("/?q=" + quote(formula.latex))
    first = page.locator(".result").first
    expect(first.locator(".snippet mark.math.rendered").first).to_be_visible()  # the occurrence, drawn inline
    assert first.locator(".unrendered, .katex-error").count() == 0
    assert first.locator(".snippet .katex").count() >= 3 and first.locator(".snippet .katex-display").count() == 0
    screenshot("results")
    assert console_errors == []


def test_back_to_results_returns_to_the_same_page_of_the_same_search(page, indexed):
    indexed([f"x^{{{n}}} + y_{{{n}}} = z" for n in range(2, 50)])
    address = "/?q=" + quote("x^{2} + y_{2} = z") + "&page=2&fusion=max&notation=latex&context=" + quote("the sum")
    page.goto(address)
    first = page.locator(".result").first.get_attribute("data-formula")
    assert page.locator(".pager").inner_text().startswith("← Previous")
    page.locator(".result .formula-link").first.click()
    page.wait_for_url(re.compile(r"/formula/\d+"))
    page.click("a.back-to-results")
    page.wait_for_url(re.compile(r"/\?q="))
    assert page.url.endswith(address) and page.locator(".result").first.get_attribute("data-formula") == first
    expect(page.locator("select[name=fusion]")).to_have_value("max")
    assert page.input_value("#context") == "the sum"


SHOWN = (r"The divergence theorem says $$\iiint_V \operatorname{div} \mathbf{F} \, dV = \oiint_S \mathbf{F} \cdot"
         r" \mathbf{n} \, dS$$ for a field $\mathbf{F}$; in coordinates \begin{align*} \operatorname{div} \mathbf{F} &="
         r" \frac{\partial F_x}{\partial x} + \frac{\partial F_y}{\partial y} \\ &\quad + \frac{\partial F_z}{\partial z}"
         r" \end{align*} and with $\frac{\arctan x}{\sqrt{1 + x^2}}$ it reads as a quotient. It costs \$0.")


@pytest.mark.parametrize("width, height", [pytest.param(1366, 768, id="desktop"), pytest.param(390, 844, id="phone")])
def test_formula_post_and_help_pages_fit_the_screen(page, transactional_db, tmp_path, screenshot, console_errors,
                                                    width, height):
    """Screenshots to look at; at either width nothing but a tree box scrolls sideways."""
    path = tmp_path / "posts.jsonl"
    path.write_text(json.dumps({"id": "d1", "title": r"Why is $\nabla \cdot \mathbf{F}$ the divergence?", "body": SHOWN,
                                "tags": ["vector-analysis", "multivariable-calculus"], "url": "https://example.org/d1"})
                    + "\n")
    assert run_job(start_index_job(path, "jsonl", "screens", enqueue=False)).state == "done"
    page.set_viewport_size({"width": width, "height": height})
    formula = Formula.objects.get(latex__startswith=r"\frac{\arctan")
    back = quote("/?q=" + quote(formula.latex) + "&page=1&fusion=f1", safe="")
    for name, address in (("formula", f"/formula/{formula.pk}?back={back}"),
                          ("post", f"/post/{Post.objects.get(source_id='d1').pk}?back={back}"), ("help", "/help")):
        page.goto(address)
        page.wait_for_load_state("networkidle")
        assert page.locator(".katex-error, .unrendered").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        screenshot(f"{name}-{width}", full_page=name == "help")
    assert console_errors == []
