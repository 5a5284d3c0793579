import pytest

from corpora.documents.latex_math import latex_formulas
from corpora.documents.posts import Formula
from tests.corpora.documents.conftest import posts


def document(body: str) -> str:
    return "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n"


def read(upload, body: str) -> list[tuple[str, bool, str]]:
    """(text, display, anchor) of each formula of a one-file document."""
    [record] = posts(upload({"a.tex": document(body)}))
    return [(f.text, record.post.body[f.start:f.end].startswith("$$"), f.anchor) for f in record.formulas]


@pytest.mark.parametrize("body, expected", [
    pytest.param("a $x+1$ b", [("x+1", False, "")], id="dollar"),
    pytest.param(r"a \(x\) b", [("x", False, "")], id="parenthesis"),
    pytest.param(r"a \[x\] b", [("x", True, "")], id="bracket"),
    pytest.param("a $$x$$ b", [("x", True, "")], id="double-dollar"),
    pytest.param(r"\begin{math}x\end{math}", [("x", False, "")], id="math"),
    pytest.param(r"\begin{displaymath}x\end{displaymath}", [("x", True, "")], id="displaymath"),
    pytest.param(r"\begin{equation}x\end{equation}", [("x", True, "")], id="equation"),
    pytest.param(r"\begin{equation*}x\end{equation*}", [("x", True, "")], id="equation-starred"),
    pytest.param(r"\begin{align}a&=b\\c&=d\end{align}", [("a =b", True, ""), ("c =d", True, "")], id="align"),
    pytest.param(r"\begin{align*}a&=b\\c&=d\end{align*}", [("a =b", True, ""), ("c =d", True, "")], id="align-starred"),
    pytest.param(r"\begin{alignat}{2}a&=b&c\\d&=e\end{alignat}", [("a =b c", True, ""), ("d =e", True, "")],
                 id="alignat"),
    pytest.param(r"\begin{gather}a\\b\end{gather}", [("a", True, ""), ("b", True, "")], id="gather"),
    pytest.param(r"\begin{flalign}a&=b\\c\end{flalign}", [("a =b", True, ""), ("c", True, "")], id="flalign"),
    pytest.param(r"\begin{eqnarray}a&=&b\\c&<&d\end{eqnarray}", [("a = b", True, ""), ("c < d", True, "")],
                 id="eqnarray"),
    pytest.param(r"\begin{multline}a+b\\+c\end{multline}", [("a+b+c", True, "")], id="multline-is-one-formula"),
    pytest.param(r"\begin{gather*}a\\[2pt]b\\\end{gather*}", [("a", True, ""), ("b", True, "")],
                 id="spacing-and-empty-line-dropped"),
])
def test_math_delimiters_and_environments(upload, body, expected):
    assert read(upload, body) == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"\begin{align}a&=\begin{cases}1&x\\2&y\end{cases}\\b&=c\end{align}",
                 [r"a =\begin{cases}1&x\\2&y\end{cases}", "b =c"], id="cases-not-split"),
    pytest.param(r"\begin{align}a&=\begin{pmatrix}1&2\\3&4\end{pmatrix}\end{align}",
                 [r"a =\begin{pmatrix}1&2\\3&4\end{pmatrix}"], id="matrix-not-split"),
    pytest.param(r"\begin{align}a&={x\\y}\\b\end{align}", [r"a ={x\\y}", "b"], id="braces-not-split"),
    pytest.param(r"\begin{equation}\begin{split}a&=b\\&=c\end{split}\end{equation}",
                 [r"\begin{split}a&=b\\&=c\end{split}"], id="split-inside-equation"),
    pytest.param(r"\begin{align}a&=b\intertext{so that}c&=d\end{align}", ["a =b", "c =d"], id="intertext"),
])
def test_multi_line_split(upload, body, expected):
    assert [text for text, _, _ in read(upload, body)] == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"\begin{equation}\label{eq:x}x\end{equation}", [("x", "eq:x")], id="label-to-anchor"),
    pytest.param(r"\begin{align}a\label{eq:a}\\b\nonumber\\c\notag\\d\tag{4}\\e\tag*{5}\end{align}",
                 [("a", "eq:a"), ("b", ""), ("c", ""), ("d", ""), ("e", "")], id="tags-removed"),
    pytest.param(r"\begin{equation}\begin{split}a\label{in}\end{split}\end{equation}", [(r"\begin{split}a \end{split}", "in")],
                 id="nested-label"),
    pytest.param(r"\[x\label{b}\]", [("x", "b")], id="label-in-brackets"),
])
def test_labels_and_tags(upload, body, expected):
    assert [(text, anchor) for text, _, anchor in read(upload, body)] == expected


def test_intertext_words_stay_in_the_text(upload):
    [record] = posts(upload({"a.tex": document(r"\begin{align}a\intertext{so that}b\end{align}")}))
    assert record.post.body == "$$a$$\n\nso that\n\n$$b$$"


@pytest.mark.parametrize("latex, display, expected", [
    pytest.param("x", False, [Formula("x")], id="plain"),
    pytest.param(r"\begin{align}a&=b\\c\end{align}", True,
                 [Formula("a =b", display=True), Formula("c", display=True)], id="alignment"),
    pytest.param(r"x\label{e}", True, [Formula("x", display=True, anchor="e")], id="label"),
    pytest.param(r"x\tag{3}", True, [Formula("x", display=True, number="3")], id="tag-is-the-number"),
    pytest.param(r"\begin{pNiceMatrix}[first-row] a & b\end{pNiceMatrix}", True,
                 [Formula(r"\begin{pmatrix} a & b\end{pmatrix}", display=True)], id="nicematrix-alias"),
])
def test_latex_formulas(latex, display, expected):
    assert latex_formulas(latex, display) == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"$a = \verb|\x{y}|$", [r"a = \texttt{\textbackslash{}x\{y\}}"], id="verb-in-math"),
    pytest.param(r"$$\halign{#\cr a\cr}$$ and $$\vbox{\hbox{b}}$$ $$c$$", ["c"], id="display-layout-is-no-formula"),
])
def test_tex_inside_math(upload, body, expected):
    assert [text for text, _, _ in read(upload, body)] == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"\[a + \begin{tikzpicture}\draw (0,0);\end{tikzpicture} b\]", ["a + b"], id="tikz-left-out"),
    pytest.param(r"\[\begin{pNiceMatrix}\CodeBefore \rowcolor{red}{1} \Body a & b \CodeAfter \line{1-1}{2-2}"
                 r"\end{pNiceMatrix}\]", [r"\begin{pmatrix}a & b \end{pmatrix}"], id="nicematrix-code-left-out"),
])
def test_drawings_are_not_math(upload, body, expected):
    assert [text for text, _, _ in read(upload, body)] == expected


def numbers(upload, body: str) -> list[tuple[str, str]]:
    """(text, number) of each formula of a one-file article."""
    [record] = posts(upload({"a.tex": document(body)}))
    return [(f.text, f.number) for f in record.formulas]


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"\begin{equation}x\end{equation}\begin{equation*}y\end{equation*}\begin{equation}z\end{equation}",
                 [("x", "1"), ("y", ""), ("z", "2")], id="equation"),
    pytest.param(r"\begin{align}a\\b\nonumber\\c\notag\\d\end{align}", [("a", "1"), ("b", ""), ("c", ""), ("d", "2")],
                 id="align-per-line-unless-nonumber"),
    pytest.param(r"\begin{gather}a\tag{A}\\b\tag*{B'}\\c\end{gather}", [("a", "A"), ("b", "B'"), ("c", "1")],
                 id="tag-replaces-the-number"),
    pytest.param(r"\begin{align*}a\\b\tag{$*$}\end{align*}", [("a", ""), ("b", "*")], id="tag-in-starred"),
    pytest.param(r"\begin{multline}a+b\\+c\end{multline}\begin{eqnarray}c&=&d\\e&=&f\end{eqnarray}",
                 [("a+b+c", "1"), ("c = d", "2"), ("e = f", "3")], id="multline-once-eqnarray-per-line"),
    pytest.param(r"\begin{flalign}a\\b\end{flalign}\begin{alignat}{1}c\end{alignat}",
                 [("a", "1"), ("b", "2"), ("c", "3")], id="flalign-alignat"),
    pytest.param(r"\[x\]$$y$$\[z\tag{Z}\] $w$", [("x", ""), ("y", ""), ("z", "Z"), ("w", "")], id="unnumbered-forms"),
    pytest.param(r"\begin{equation}x\end{equation}\begin{subequations}\begin{align}a\\b\end{align}"
                 r"\end{subequations}\begin{equation}y\end{equation}",
                 [("x", "1"), ("a", "2a"), ("b", "2b"), ("y", "3")], id="subequations"),
])
def test_formula_numbers(upload, body, expected):
    assert numbers(upload, body) == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"$a \overset{\eqref{e}}{=} b$ \begin{equation}\label{e}x\end{equation}",
                 [r"a \overset{\text{(1)}}{=} b", "x"], id="reference-in-a-formula"),
    pytest.param(r"$\ref{no_where}$", [r"\text{[no\_where]}"], id="unknown-reference-escaped"),
    pytest.param(r"$\ensuremath{x}+1$", ["x+1"], id="ensuremath"),
    pytest.param(r"$a^\ensuremath{xy}$", ["a^{xy}"], id="ensuremath-as-a-script-keeps-its-braces"),
    pytest.param(r"$\ensuremath{\alpha}_\ensuremath{i}$", [r"\alpha_{i}"], id="ensuremath-twice"),
])
def test_references_and_ensuremath_inside_formulas(upload, body, expected):
    assert [text for text, _, _ in read(upload, body)] == expected


def test_a_macro_made_with_ensuremath_is_just_its_math(upload):
    source = "\\documentclass{article}\\newcommand{\\R}{\\ensuremath{\\mathbb{R}}}\\begin{document}$\\R^n$ and \\R."
    [record] = posts(upload({"a.tex": source + "\\end{document}"}))
    assert record.post.body == r"$\mathbb{R}^n$ and $\mathbb{R}$."
