"""A post's text for pages: paragraphs, snippets and parts, cut between words and never inside a formula."""
import pytest

from ml.extraction import extract_formulas
from searchapp.web import snippets
from searchapp.web.snippets import Part, ending, paragraphs, snippet, text_part

BODY = (r"Let $x^2 + y^2 = 1$ be a circle, and $$\int_0^1 f(x) \, dx$$ its area. Costs \$5 or \$6, "
        r"then \(a + b\) and \[\frac{a}{b} + c\]. Comment: the end $z$.")


@pytest.mark.parametrize("cut, text, limit, expected", [
    pytest.param(snippet, "short text", 50, "short text", id="start-short-text-unchanged"),
    pytest.param(snippet, "one  two\n\nthree", 50, "one two three", id="start-whitespace-collapsed"),
    pytest.param(snippet, "alpha beta gamma delta", 14, "alpha beta…", id="start-cut-between-words"),
    pytest.param(snippet, "alphabetagammadelta", 10, "alphabeta…", id="start-one-long-word-cut-at-the-limit"),
    pytest.param(snippet, "We have $a + b + c + d$ here", 16, "We have…", id="start-limit-inside-dollars"),
    pytest.param(snippet, "We have $$a + b + c + d$$ here", 16, "We have…", id="start-limit-inside-double-dollars"),
    pytest.param(snippet, r"We have \(a + b + c + d\) here", 16, "We have…", id="start-limit-inside-parentheses"),
    pytest.param(snippet, r"We have \[a + b + c + d\] here", 16, "We have…", id="start-limit-inside-brackets"),
    pytest.param(snippet, "We have $a$ and more words", 13, "We have $a$…", id="start-limit-after-a-formula"),
    pytest.param(snippet, "$a + b + c + d + e$ then text", 10, "$a + b + c + d + e$…", id="start-opening-formula-kept-whole"),
    pytest.param(snippet, "$a + b + c + d + e$", 10, "$a + b + c + d + e$", id="start-text-that-is-one-formula"),
    pytest.param(snippet, r"It costs \$5 and more \$6 now", 20, r"It costs \$5 and…", id="start-escaped-dollars-are-text"),
    pytest.param(ending, "short text", 50, "short text", id="end-short-text-unchanged"),
    pytest.param(ending, "alpha beta gamma delta", 14, "…gamma delta", id="end-cut-between-words"),
    pytest.param(ending, "alphabetagammadelta", 10, "…ammadelta", id="end-one-long-word-cut-at-the-limit"),
    pytest.param(ending, "Here $a + b + c + d$ we have", 16, "…we have", id="end-limit-inside-dollars"),
    pytest.param(ending, "More words and $a$ we have", 13, "…$a$ we have", id="end-limit-before-a-formula"),
    pytest.param(ending, "text then $a + b + c + d + e$", 10, "…$a + b + c + d + e$", id="end-closing-formula-kept-whole"),
    pytest.param(ending, "$a + b + c + d + e$", 10, "$a + b + c + d + e$", id="end-text-that-is-one-formula"),
])
def test_snippet_and_ending(cut, text, limit, expected):
    """`snippet` keeps the start of a text, `ending` its end."""
    assert cut(text, limit) == expected


@pytest.mark.parametrize("limit", range(1, len(BODY) + 2))
def test_snippets_and_endings_never_cut_inside_a_formula(limit):
    start, end = snippet(BODY, limit), ending(BODY, limit)
    head, tail = start.removesuffix("…"), end.removeprefix("…")
    assert BODY.startswith(head) and (head == BODY) == (start == BODY)
    assert BODY.endswith(tail) and (tail == BODY) == (end == BODY)
    assert not any(f.start < cut < f.end for f in extract_formulas(BODY) for cut in (len(head), len(BODY) - len(tail)))
    assert len(start) <= limit and len(end) <= limit


def test_more_marks_text_that_was_cut_before_it_reached_us():
    assert (snippet("a b", 10, more=True), ending("a b", 10, more=True)) == ("a b…", "…a b")
    assert (snippet("", 10, more=True), ending("", 10, more=True)) == ("", "")
    assert snippet("alpha beta gamma", 12, more=True) == "alpha beta…"


def test_paragraphs_split_at_blank_lines_and_mark_comments():
    text = "First line\nsame paragraph $x$.\n\n  \n\nSecond.\n \nComment: a remark $y$\n\nNot a Comment: here\n\n"
    assert [(p.text, p.comment) for p in paragraphs(text)] == [
        ("First line\nsame paragraph $x$.", False), ("Second.", False), ("Comment: a remark $y$", True),
        ("Not a Comment: here", False)]


def test_anchored_formulas_are_parts_of_their_own():
    text = "Let $a$ be.\n\nThen $$a^2$$ and $b$ hold."
    anchors = {(4, 7): "formula-0", (18, 25): "eq-square"}
    first, second = paragraphs(text, anchors)
    assert first.parts == (Part("Let "), Part("$a$", "formula-0"), Part(" be."))
    assert second.parts == (Part("Then "), Part("$$a^2$$", "eq-square"), Part(" and $b$ hold."))
    assert second.text == "Then $$a^2$$ and $b$ hold."


def test_empty_text_has_no_paragraphs():
    assert paragraphs("  \n\n ") == []


def parts_of(text: str) -> list:
    formulas = [(f.start, f.end) for f in extract_formulas(text)]
    return [text_part(text, number, formulas) for number in range(1, text_part(text, 1, formulas).parts + 1)]


def test_a_text_within_the_limit_is_one_part_and_there_is_no_second(monkeypatch):
    monkeypatch.setattr(snippets, "PART_CHARS", 100)
    assert text_part("short $x$", 1, [(6, 9)]) == snippets.TextPart("short $x$", 1, 1, 0, 9, 9)
    assert text_part("", 1, []).parts == 1 and text_part("short", 2, []) is None and text_part("short", 0, []) is None


def test_a_long_text_is_cut_at_a_paragraph_end_near_the_limit(monkeypatch):
    monkeypatch.setattr(snippets, "PART_CHARS", 100)
    text = "a" * 95 + "\n\n" + "b" * 90
    parts = parts_of(text)
    assert [(part.start, part.end) for part in parts] == [(0, 97), (97, 187)]
    assert parts[1].text == "b" * 90 and "".join(part.text for part in parts) == text


def test_a_long_paragraph_is_cut_between_words_and_never_inside_a_formula(monkeypatch):
    monkeypatch.setattr(snippets, "PART_CHARS", 100)
    text = "We take $x^2 + y^2 + z^2 + w^2$ and " * 30
    parts = parts_of(text)
    assert len(parts) == 11 and "".join(part.text for part in parts) == text
    for part in parts:
        assert len(part.text) <= 100 + 10 + 23 and part.text.count("$") % 2 == 0  # a cut moves back a tenth, a formula
        assert part.start == 0 or text[part.start - 1] == " " or text[part.start] == "$"  # between words


@pytest.mark.parametrize("text, formulas", [
    pytest.param(r"a $x$ b $$y$$ c \(z\) d \[w\]", [("$x$", False), ("$$y$$", True), (r"\(z\)", False), (r"\[w\]", True)],
                 id="the-four-delimiters"),
    pytest.param(r"It costs \$5 and \$6, not $x$.", [("$x$", False)], id="escaped-dollars-are-text"),
    pytest.param(r"$\text{a $b$ c}$ then $y$", [(r"$\text{a $b$ c}$", False), ("$y$", False)], id="dollars-in-braces"),
    pytest.param(r"$a \$ b$ and $c$", [(r"$a \$ b$", False), ("$c$", False)], id="escaped-dollar-inside"),
    pytest.param(r"$x^{2$ rest $q$", [], id="an-unclosed-brace-leaves-the-rest-as-words"),
    pytest.param(r"so \begin{align*} a &= b \\ c &= d \end{align*} and \begin{split} x \end{split}",
                 [(r"\begin{align*} a &= b \\ c &= d \end{align*}", True), (r"\begin{split} x \end{split}", True)],
                 id="environments"),
    pytest.param(r"$$\begin{pmatrix} 1 \\ 2 \end{pmatrix}$$", [(r"$$\begin{pmatrix} 1 \\ 2 \end{pmatrix}$$", True)],
                 id="an-environment-inside-dollars-is-one-formula"),
    pytest.param(r"\begin{proof} words \end{proof}", [], id="other-environments-are-words"),
])
def test_tex_spans_finds_formulas_as_the_page_draws_them(text, formulas):
    assert [(text[span.start:span.end], span.display) for span in snippets.tex_spans(text)] == formulas


ENVIRONMENT_BODY = (r"We expand \begin{align} a &= b + c \\ &= d \end{align} and then $$\begin{split} x &= 1 \\ y &= 2"
                    r" \end{split}$$ at \$5, and $\text{a $b$}$ with $z$ holds.")


@pytest.mark.parametrize("limit", range(1, len(ENVIRONMENT_BODY) + 2))
def test_snippets_never_cut_inside_an_environment_or_a_formula_the_page_draws(limit):
    start, end = snippet(ENVIRONMENT_BODY, limit), ending(ENVIRONMENT_BODY, limit)
    head, tail = start.removesuffix("…"), end.removeprefix("…")
    spans = snippets.tex_spans(ENVIRONMENT_BODY)
    assert not any(s.start < cut < s.end for s in spans for cut in (len(head), len(ENVIRONMENT_BODY) - len(tail)))
    assert len(snippets.tex_spans(head)) == sum(s.end <= len(head) for s in spans)  # the page reads what it read whole
    assert len(start) <= limit and len(end) <= limit
