"""As staff, upload a zip of a small LaTeX project (its own macros, an `\\input`) in a real browser, watch a real
worker index it, search a formula written the way its macro expands, and land on the formula in its section."""
import zipfile
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from searchapp.models import IndexJob
from tests.polling import UNTIL_IT_HAPPENS

pytestmark = pytest.mark.e2e

MAIN = r"""\documentclass{article}
\newcommand{\norm}[1]{\left\lVert #1 \right\rVert}
\newcommand{\R}{\mathbb{R}}
\title{Normed spaces}
\begin{document}
\maketitle
\section{Definitions}
A norm on $\R^n$ is a map $\norm{\cdot} : \R^n \to \R$ with $\norm{x} = 0$ only for $x = 0$.
\input{chapters/properties}
\end{document}
"""
TRIANGLE = r"\norm{x + y} \le \norm{x} + \norm{y}"
EXPANDED = r"\left\lVert x + y \right\rVert \le \left\lVert x \right\rVert + \left\lVert y \right\rVert"


PROPERTIES = 120
"""Sections enough for several chunks of 0.8 s, so that the counters move while the page watches (polling each
second): 39 were indexed in two chunks on a warm worker, and the page saw only the start and the end."""


def _chapter() -> str:
    filler = "\n".join(rf"\section{{Property {n}}}" "\n" rf"For each $k \ge {n}$ we have $\norm{{k x}} = k^{{{n}}} "
                       rf"\norm{{x}}$ and" "\n" rf"\[ \sum_{{i=1}}^{{{n}}} \norm{{x_i}}^2 \ge {n} \]" for n in range(1, PROPERTIES + 1))
    return (filler + "\n\\section{Triangle inequality}\nEvery norm satisfies\n"
            f"\\begin{{equation}}\\label{{eq:triangle}}\n{TRIANGLE}\n\\end{{equation}}\nfor all vectors.\n")


@pytest.fixture
def project_zip(tmp_path):
    path = tmp_path / "normed-spaces.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("normed-spaces/main.tex", MAIN)
        archive.writestr("normed-spaces/chapters/properties.tex", _chapter())
    return path


def _watch_counts(page) -> list[str]:
    """Every text the job's counters showed until the job finished, each change waited for as it comes."""
    seen: list[str] = []
    while page.get_attribute("#job-state", "data-state") not in ("done", "failed"):
        text = page.inner_text("#job-counts")
        if not seen or seen[-1] != " ".join(text.split()):
            seen.append(" ".join(text.split()))
        page.wait_for_function("shown => document.querySelector('#job-counts').innerText !== shown || "
                               "['done', 'failed'].includes(document.querySelector('#job-state').dataset.state)",
                               arg=text, timeout=UNTIL_IT_HAPPENS)
    return seen


def test_a_latex_project_is_uploaded_indexed_and_searched_to_its_formula(
        staff_login, celery_worker_process, settings, tmp_path, project_zip, screenshot):
    page = staff_login
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    page.goto("/admin/searchapp/indexjob/upload/")
    page.set_input_files("#id_file", str(project_zip))
    page.select_option("#id_format", "documents")
    page.fill("#id_corpus", "papers")
    page.click(".upload-form button[type=submit]")
    page.wait_for_url("**/live/")
    seen = _watch_counts(page)
    screenshot("indexed")
    job = IndexJob.objects.get()
    assert job.state == "done" and job.failed == 0 and job.done == PROPERTIES + 2, (job.message, job.errors)
    # the live counters end on the whole job; a 122-record job now indexes between two polls, so the states on the
    # way (`seen`) are not always shown (the pipeline's own tests follow its progress chunk by chunk)
    final = " ".join(page.inner_text("#job-counts").split())
    assert final.startswith("2 / 2 files read (") and f"· {PROPERTIES + 2} sections indexed, 0 failed" in final, \
        (final, seen)

    for width, height in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/?q={quote(EXPANDED)}&corpus=papers")
        link = page.locator(".result .post-link").first
        assert link.get_attribute("href").endswith("#eq:triangle")
        link.click()
        page.wait_for_url("**/post/*#eq:triangle")
        assert page.inner_text("h1") == f"Normed spaces › {PROPERTIES + 2} Triangle inequality"  # numbered as LaTeX does
        assert "normed-spaces/chapters/properties.tex#triangle-inequality" in page.inner_text(".post-page .muted")
        formula = page.locator('[id="eq:triangle"]')
        formula.locator(".katex").first.wait_for()  # rendered by KaTeX, not left as source
        expect(formula).to_be_in_viewport()  # the scroll that follows rendering
        box, viewport = formula.bounding_box(), page.viewport_size
        assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], "the formula is not on screen"
        marked = formula.evaluate("el => el.matches(':target') && "
                                  "getComputedStyle(el.querySelector('.katex-display')).backgroundColor")
        assert marked == "rgb(255, 243, 176)", marked  # the displayed formula itself is marked
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(f"landed-{width}", full_page=False)
