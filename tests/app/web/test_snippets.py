"""A post's text for pages: paragraphs, snippets and parts, cut between words and never inside a formula."""
import pytest

from mathparse.extraction import extract_formulas
from searchapp.web import snippets
from searchapp.web.snippets import Part, ending, paragraphs, snippet, tex_spans, text_part

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


HOSTILE = "`" + "\\(" * 20_000 + "`"
"""The 40 KB code span of unclosed `\\(` whose formulas took 12 s to find on every snippet of its post."""


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The length of each text the formula scans are given."""
    lengths: list[int] = []
    for name in ("extract_formulas", "tex_spans"):
        scan = getattr(snippets, name)
        monkeypatch.setattr(snippets, name, lambda text, scan=scan: lengths.append(len(text)) or scan(text))
    return lengths


def test_a_snippet_of_a_huge_text_reads_a_window_and_cuts_as_if_it_read_it_all(reads):
    start = "Words " * 45 + r"then \(a + b + c + d + e + f\) and more"  # the limit falls inside the formula
    assert snippet(start + HOSTILE * 25, 300) == snippet(start, 300, more=True) == "Words " * 44 + "Words then…"
    assert reads and max(reads) <= 300 + snippets.WINDOW_CHARS


def test_only_whitespace_past_the_window_is_no_more_text():
    assert snippet("a b" + " " * 2 * snippets.WINDOW_CHARS, 300) == "a b"
    assert snippet("a b" + " " * 2 * snippets.WINDOW_CHARS + "c", 300) == "a b…"


def spans_of(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The formulas of `text` that start in `text[start:end]`, as indexing and the page read the whole text."""
    return sorted((f.start - start, f.end - start) for f in [*extract_formulas(text), *tex_spans(text)]
                  if start <= f.start < end)


def test_the_formulas_near_a_place_are_read_from_a_window_around_it(reads):
    text = HOSTILE * 25 + "\n\n" + BODY + "\n\n" + HOSTILE * 25
    first = text.index(BODY)
    near = snippets.formulas_near(text, first + 10, first + 20)
    assert [(start - first, end - first) for start, end in near if first <= start < first + len(BODY)] == spans_of(
        BODY, 0, len(BODY))  # as the page draws the paragraph
    assert max(reads) <= 2 * snippets.WINDOW_CHARS + 10


def test_a_window_read_mid_paragraph_pairs_as_the_whole_text_does(reads):
    text = HOSTILE * 3 + " " + BODY + " " + HOSTILE * 3  # the first `\\(` of the text pairs with BODY's `\\)`
    first = text.index(BODY)
    near = snippets.formulas_near(text, first + 10, first + 20)
    assert [(start - first, end - first) for start, end in near if first <= start < first + len(BODY)] == spans_of(
        text, first, first + len(BODY))
    assert max(reads) <= 2 * snippets.WINDOW_CHARS + 10


def test_a_window_starts_at_a_paragraph_so_it_pairs_dollars_as_the_page_does():
    text = ("$" + "a" * 20 + "$ ") * 400 + "\n\nThen $x$ and $y$."
    place = text.index("$x$") + 1
    raw = place - snippets.WINDOW_CHARS
    assert text[raw] == "a" and (place - 1 - raw, place + 2 - raw) not in [(f.start, f.end) for f in
                                                                           extract_formulas(text[raw:])]
    assert (place - 1, place + 2) in snippets.formulas_near(text, place, place)


@pytest.mark.parametrize("make", [
    pytest.param(lambda n: "\\(" * n, id="unclosed-parentheses"),
    pytest.param(lambda n: "\\begin{equation}" * n, id="unclosed-environments"),
    pytest.param(lambda n: "$" + "a\\" * n, id="a-dollar-whose-closers-are-escaped"),
    pytest.param(lambda n: "${" + "}{" * n + "$", id="a-dollar-whose-closer-is-in-braces"),
    pytest.param(lambda n: "$a$ " * n, id="ordinary-formulas"),
])
def test_the_page_formulas_are_found_walking_each_character_at_most_once(monkeypatch, make):
    """The walk to a closing never goes back: every opening it passes was closed or ends the search."""
    walked = []
    end_of_math = snippets._end_of_math

    def counting(text, closing, position):
        end = end_of_math(text, closing, position)
        walked.append((end if end >= 0 else len(text)) - position)
        return end
    monkeypatch.setattr(snippets, "_end_of_math", counting)
    text = make(20_000)
    snippets.tex_spans(text)
    assert sum(walked) <= len(text)


class Counted(int):
    """An offset that counts how often it is compared: the work of placing anchors, however they are placed."""

    comparisons = 0

    def _counted(self, other, compare) -> bool:
        Counted.comparisons += 1
        return compare(int(self), int(other))

    def __lt__(self, other):
        return self._counted(other, int.__lt__)

    def __le__(self, other):
        return self._counted(other, int.__le__)

    def __gt__(self, other):
        return self._counted(other, int.__gt__)

    def __ge__(self, other):
        return self._counted(other, int.__ge__)

    def __eq__(self, other):
        return self._counted(other, int.__eq__)

    __hash__ = int.__hash__


def test_paragraphs_place_their_anchors_in_work_linear_in_their_number():
    """Each paragraph looks up its own anchors: reading all of them for each made 40,000 paragraphs of a formula each
    take minutes (n² comparisons)."""
    work = []
    for n in (2_000, 4_000):
        text = "\n\n".join(f"Let $x_{{{i}}}$ be." for i in range(n))
        anchors = {(Counted(f.start), Counted(f.end)): f"formula-{i}" for i, f in enumerate(extract_formulas(text))}
        Counted.comparisons = 0
        found = paragraphs(text, anchors)
        work.append(Counted.comparisons)
        assert [paragraph.parts[1] for paragraph in found] == [Part(f"$x_{{{i}}}$", f"formula-{i}") for i in range(n)]
    assert work[1] <= 2.5 * work[0]
