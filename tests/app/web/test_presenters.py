"""Search results for pages and the API: alignment colours and snippets."""
import pytest

from searchapp.models import Occurrence, Post
from searchapp.web import snippets as cuts
from searchapp.web.presenters import HIGHLIGHT_COLOURS, colour_pairs, snippet


@pytest.mark.parametrize("pairs, query, result", [
    pytest.param([(0, 0, 0.9), (1, 0, 0.95), (2, 1, 0.8)], {0: 0, 1: 0, 2: 1}, {0: 0, 1: 1},
                 id="strongest-pair-takes-the-first-colour"),
    pytest.param([(0, 0, 0.3), (1, 1, 0.7)], {1: 0}, {1: 0}, id="weak-pairs-stay-grey"),
    pytest.param([(i, i, 0.9 - i / 100) for i in range(10)], {i: i for i in range(HIGHLIGHT_COLOURS)},
                 {i: i for i in range(HIGHLIGHT_COLOURS)}, id="at-most-the-palette"),
    pytest.param([], {}, {}, id="nothing-aligned"),
])
def test_colour_pairs(pairs, query, result):
    assert colour_pairs(pairs) == (query, result)


HTML_POST = "<p>Take <b>this</b> <span>$y$</span> &amp; go</p>"
TAG_CUT_POST = "a" * 10 + '<span class="long-attribute">' + "<i></i>" * 50 + "bb$q$"
LONG_FORMULA = "$" + " + ".join(f"a_{{{i}}}" for i in range(60)) + "$"
FORMULAS_POST = f"Words {LONG_FORMULA} so that $x$ holds and {LONG_FORMULA} again."
LONG_ENVIRONMENT = r"\begin{align} " + r" \\ ".join(f"a_{{{i}}} &= b_{{{i}}}" for i in range(30)) + r" \end{align}"
ENVIRONMENTS_POST = f"Words {LONG_ENVIRONMENT} so that $x$ holds and {LONG_ENVIRONMENT} again."
WORDY_POST = " ".join(["word"] * 40) + " $x$ " + " ".join(["more"] * 40)


@pytest.mark.parametrize("body, start, end, before, after", [
    pytest.param("Let $x^2$ be.", 4, 9, "Let", "be.", id="plain-text"),
    pytest.param(HTML_POST, HTML_POST.index("<span>"), HTML_POST.index(" &amp;"), "Take this", "& go", id="html"),
    pytest.param(TAG_CUT_POST, len(TAG_CUT_POST) - 3, len(TAG_CUT_POST), "…bb", "", id="window-starts-inside-a-tag"),
    pytest.param("short", 3, 99, "", "", id="offsets-outside-the-body"),
    pytest.param(FORMULAS_POST, FORMULAS_POST.index("$x$"), FORMULAS_POST.index("$x$") + 3, "…so that", "holds and…",
                 id="window-edges-inside-other-formulas"),
    pytest.param(ENVIRONMENTS_POST, ENVIRONMENTS_POST.index("$x$"), ENVIRONMENTS_POST.index("$x$") + 3, "…so that",
                 "holds and…", id="window-edges-inside-environments"),
    pytest.param(WORDY_POST, WORDY_POST.index("$x$"), WORDY_POST.index("$x$") + 3, "…" + " ".join(["word"] * 18),
                 " ".join(["more"] * 18) + "…", id="cut-between-words"),
])
def test_snippet_shows_the_formula_in_plain_context(body, start, end, before, after):
    post = Post(pk=1, source_id="p", title="", body=body)
    cut = snippet(Occurrence(post=post, latex="x", start=start, end=end))
    assert (cut.before, cut.after, cut.title) == (before, after, "p")


@pytest.mark.parametrize("padding", [pytest.param("\n\n", id="paragraphs-apart"), pytest.param(" ", id="one-paragraph")])
def test_a_snippet_of_a_huge_post_reads_a_window_and_shows_what_a_short_one_does(monkeypatch, padding):
    """40 KB of unclosed `\\(` 50 times over on either side: the formulas are looked for in a few KB around the
    occurrence, never in the whole body, and the snippet is the one of the post without them."""
    reads: list[int] = []
    for name in ("extract_formulas", "tex_spans"):
        scan = getattr(cuts, name)
        monkeypatch.setattr(cuts, name, lambda text, scan=scan: reads.append(len(text)) or scan(text))
    hostile = ("`" + "\\(" * 20_000 + "`") * 50
    body = hostile + padding + WORDY_POST + padding + hostile
    start = body.index("$x$")
    cut = snippet(Occurrence(post=Post(pk=1, source_id="p", title="", body=body), latex="x", start=start, end=start + 3))
    assert (cut.before, cut.after) == ("…" + " ".join(["word"] * 18), " ".join(["more"] * 18) + "…")
    assert reads and max(reads) <= 3 * cuts.WINDOW_CHARS < len(body) // 100
