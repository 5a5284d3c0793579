import html
import random
import re

import pytest

from mathparse import extraction
from mathparse.extraction import MAX_FORMULA_CHARS, extract_formulas


@pytest.mark.parametrize("text, expected", [
    pytest.param("Let $x^2$ be", [("x^2", False)], id="inline-dollar"),
    pytest.param("so $$\\int_0^1 f$$ holds", [("\\int_0^1 f", True)], id="display-dollar"),
    pytest.param("a \\(a+b\\) and \\[c=d\\]", [("a+b", False), ("c=d", True)], id="paren-bracket"),
    pytest.param("costs \\$5 and $y$", [("y", False)], id="escaped-dollar"),
    pytest.param('<p>See <span class="math-container" id="q_1">$a &lt; b$</span></p>', [("a < b", False)],
                 id="math-container-unescaped"),
    pytest.param('<span class="math-container">$$x$$</span> and $z$', [("x", True), ("z", False)],
                 id="container-then-dollar"),
    pytest.param("no math here, $ alone", [], id="unclosed"),
    pytest.param("$$  $$", [], id="empty"),
])
def test_extract_formulas(text, expected):
    assert [(f.latex, f.display) for f in extract_formulas(text)] == expected


def test_positions_point_at_the_source():
    text = "First $a$ then $$b+c$$."
    found = extract_formulas(text)
    assert [text[f.start:f.end] for f in found] == ["$a$", "$$b+c$$"]


SPECIFICATION = re.compile(
    r"(?<!\\)\$\$(?P<dd>.+?)(?<!\\)\$\$|(?<!\\)\$(?P<d>[^$]+?)(?<!\\)\$|\\\[(?P<br>.+?)\\\]|\\\((?P<pa>.+?)\\\)", re.S)
"""The regular expression the one-pass scan replaced (quadratic in unclosed openers): what it found is the answer."""
CONTAINER = re.compile(r'<span class="math-container"[^>]*>(.*?)</span>', re.S)
PIECES = ["$", "$$", "\\", "\\(", "\\)", "\\[", "\\]", "a", " ", "\n", "{", "&lt;", '<span class="math-container">',
          '<span class="math-container" id="q">', "</span>", ">"]


def specified(text: str) -> list[tuple[str, int, int, bool]]:
    """(latex, start, end, display) of each formula as the regular expressions found them."""
    containers = [(m.start(), m.end(), html.unescape(m.group(1)).strip()) for m in CONTAINER.finditer(text)]
    found = [(inner.strip("$").strip(), start, end, inner.startswith("$$")) for start, end, inner in containers]
    found += [(m.group(m.lastgroup).strip(), m.start(), m.end(), m.lastgroup in ("dd", "br"))
              for m in SPECIFICATION.finditer(text) if not any(s <= m.start() < e for s, e, _ in containers)]
    return sorted((f for f in found if f[0] and len(f[0]) <= MAX_FORMULA_CHARS), key=lambda f: f[1])


def test_the_one_pass_scan_finds_what_the_regular_expression_found():
    """Identical results on any text made of delimiters, escapes, containers and words (seeded, so a failure
    reproduces)."""
    rng = random.Random(51)
    for _ in range(10_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 60)))
        assert [(f.latex, f.start, f.end, f.display) for f in extract_formulas(text)] == specified(text), text


def test_a_formula_over_the_limit_is_dropped_but_still_pairs_its_delimiters():
    text = f"$$ {'a' * (MAX_FORMULA_CHARS + 1)} $$ b $$ c $$"
    assert [(f.latex, f.display) for f in extract_formulas(text)] == [("c", True)]
    assert [(f.latex, f.start, f.end, f.display) for f in extract_formulas(text)] == specified(text)


def counted(monkeypatch) -> list[int]:
    """Characters each search of the text passes over, from where it starts to the end of what it finds (or of the
    text): the work of a scan, counted rather than timed."""
    examined: list[int] = []
    search = extraction._search

    def counting(pattern, text, position):
        match = search(pattern, text, position)
        examined.append((match.end() if match else len(text)) - position)
        return match
    monkeypatch.setattr(extraction, "_search", counting)
    return examined


@pytest.mark.parametrize("make, expected", [
    pytest.param(lambda n: "\\(" * n, [], id="unclosed-parentheses"),
    pytest.param(lambda n: "\\[" * n, [], id="unclosed-brackets"),
    pytest.param(lambda n: "\\(\\[" * n, [], id="both-unclosed"),
    pytest.param(lambda n: "`" + "\\(" * n + "` and $x$", ["x"], id="in-a-code-span-then-a-formula"),
    pytest.param(lambda n: "<code>" + "\\[" * n + "</code> \\(y\\)", ["y"], id="in-html-code-then-a-formula"),
    pytest.param(lambda n: "\\verb|" + "\\(" * n + "| $$z$$", ["z"], id="in-verb-then-a-formula"),
    pytest.param(lambda n: "$$ a" + " \\$$" * n, [], id="unclosed-double-dollar-and-escaped-closers"),
    pytest.param(lambda n: "$a\\" * n, [], id="dollars-each-closed-by-an-escaped-one"),
    pytest.param(lambda n: "$$a\\" * n, [], id="double-dollars-each-closed-by-an-escaped-one"),
    pytest.param(lambda n: "\\begin{equation}" * n, [], id="unclosed-environments"),
    pytest.param(lambda n: '<span class="math-container">' * n, [], id="containers-without-a-closing-tag"),
    pytest.param(lambda n: '<span class="math-container"' * n, [], id="containers-without-a-tag-end"),
    pytest.param(lambda n: "\\)" + "\\(" * n + " $$" + "a" * 10 + "$$", ["a" * 10], id="a-closer-before-all-openers"),
])
def test_pathological_text_is_read_in_linear_work(monkeypatch, make, expected):
    """Doubling the text at most doubles the characters examined (the regular expression examined n²/2 for n
    unclosed `\\(`); the formulas found are still the right ones."""
    examined = counted(monkeypatch)
    work = []
    for n in (10_000, 20_000):  # 20,000 `\(` is the 40 KB post that took 12 s
        examined.clear()
        text = make(n)
        assert [f.latex for f in extract_formulas(text)] == expected
        work.append(sum(examined))
    assert work[1] <= 2.2 * work[0]
