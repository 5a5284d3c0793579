"""A post's text for pages: paragraphs, and snippets cut between words and never inside a formula."""
import pytest

from ml.extraction import extract_formulas
from searchapp.web.snippets import Paragraph, ending, paragraphs, snippet

BODY = (r"Let $x^2 + y^2 = 1$ be a circle, and $$\int_0^1 f(x) \, dx$$ its area. Costs \$5 or \$6, "
        r"then \(a + b\) and \[\frac{a}{b} + c\]. Comment: the end $z$.")


@pytest.mark.parametrize("text, limit, expected", [
    pytest.param("short text", 50, "short text", id="short-text-unchanged"),
    pytest.param("one  two\n\nthree", 50, "one two three", id="whitespace-collapsed"),
    pytest.param("alpha beta gamma delta", 14, "alpha beta…", id="cut-between-words"),
    pytest.param("alphabetagammadelta", 10, "alphabeta…", id="one-long-word-cut-at-the-limit"),
    pytest.param("We have $a + b + c + d$ here", 16, "We have…", id="limit-inside-dollars"),
    pytest.param("We have $$a + b + c + d$$ here", 16, "We have…", id="limit-inside-double-dollars"),
    pytest.param(r"We have \(a + b + c + d\) here", 16, "We have…", id="limit-inside-parentheses"),
    pytest.param(r"We have \[a + b + c + d\] here", 16, "We have…", id="limit-inside-brackets"),
    pytest.param("We have $a$ and more words", 13, "We have $a$…", id="limit-after-a-formula"),
    pytest.param("$a + b + c + d + e$ then text", 10, "$a + b + c + d + e$…", id="opening-formula-kept-whole"),
    pytest.param("$a + b + c + d + e$", 10, "$a + b + c + d + e$", id="text-that-is-one-formula"),
    pytest.param(r"It costs \$5 and more \$6 now", 20, r"It costs \$5 and…", id="escaped-dollars-are-text"),
])
def test_snippet(text, limit, expected):
    assert snippet(text, limit) == expected


@pytest.mark.parametrize("limit", range(1, len(BODY) + 2))
def test_a_snippet_never_ends_inside_a_formula(limit):
    cut = snippet(BODY, limit)
    kept = cut.removesuffix("…")
    assert BODY.startswith(kept) and (kept == BODY) == (cut == BODY)
    assert not any(f.start < len(kept) < f.end for f in extract_formulas(BODY))
    assert len(cut) <= limit


@pytest.mark.parametrize("text, limit, expected", [
    pytest.param("short text", 50, "short text", id="short-text-unchanged"),
    pytest.param("alpha beta gamma delta", 14, "…gamma delta", id="cut-between-words"),
    pytest.param("alphabetagammadelta", 10, "…ammadelta", id="one-long-word-cut-at-the-limit"),
    pytest.param("Here $a + b + c + d$ we have", 16, "…we have", id="limit-inside-dollars"),
    pytest.param("More words and $a$ we have", 13, "…$a$ we have", id="limit-before-a-formula"),
    pytest.param("text then $a + b + c + d + e$", 10, "…$a + b + c + d + e$", id="closing-formula-kept-whole"),
    pytest.param("$a + b + c + d + e$", 10, "$a + b + c + d + e$", id="text-that-is-one-formula"),
])
def test_ending(text, limit, expected):
    assert ending(text, limit) == expected


@pytest.mark.parametrize("limit", range(1, len(BODY) + 2))
def test_an_ending_never_starts_inside_a_formula(limit):
    cut = ending(BODY, limit)
    kept = cut.removeprefix("…")
    assert BODY.endswith(kept) and (kept == BODY) == (cut == BODY)
    assert not any(f.start < len(BODY) - len(kept) < f.end for f in extract_formulas(BODY))
    assert len(cut) <= limit or extract_formulas(kept)[-1].end == len(kept)  # only a closing formula runs over


def test_more_marks_text_that_was_cut_before_it_reached_us():
    assert (snippet("a b", 10, more=True), ending("a b", 10, more=True)) == ("a b…", "…a b")
    assert (snippet("", 10, more=True), ending("", 10, more=True)) == ("", "")
    assert snippet("alpha beta gamma", 12, more=True) == "alpha beta…"


def test_paragraphs_split_at_blank_lines_and_mark_comments():
    text = "First line\nsame paragraph $x$.\n\n  \n\nSecond.\n \nComment: a remark $y$\n\nNot a Comment: here\n\n"
    assert paragraphs(text) == [Paragraph("First line\nsame paragraph $x$.", False), Paragraph("Second.", False),
                                Paragraph("Comment: a remark $y$", True), Paragraph("Not a Comment: here", False)]


def test_empty_text_has_no_paragraphs():
    assert paragraphs("  \n\n ") == []
