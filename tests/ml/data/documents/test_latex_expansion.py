import time

import pytest

from ml.data.documents import latex_expansion
from ml.data.documents.latex_expansion import expand


def _no_files(command, name, including):
    if command == "usepackage":
        raise LookupError(name)
    raise ValueError("no such file in the upload")


def expanded(text: str) -> str:
    return " ".join(expand(text, "main.tex", _no_files).text.split())


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\newcommand{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand"),
    pytest.param(r"\newcommand\R{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand-without-braces"),
    pytest.param(r"\newcommand*{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="newcommand-starred"),
    pytest.param(r"\newcommand{\p}[2]{(#1,#2)}$\p{a}{b}$", "$(a,b)$", id="arguments"),
    pytest.param(r"\newcommand{\p}[2][x]{(#1,#2)}$\p{b} \p[a]{b}$", "$(x,b) (a,b)$", id="optional-default"),
    pytest.param(r"\newcommand{\R}{R}\renewcommand{\R}{\mathbb{R}}$\R$", r"$\mathbb{R}$", id="renewcommand"),
    pytest.param(r"\newcommand{\R}{R}\providecommand{\R}{S}\providecommand{\Q}{Q}$\R\Q$", "$RQ$", id="providecommand"),
    pytest.param(r"\def\abs#1{\lvert#1\rvert}$\abs{x} \abs y$", r"$\lvert x\rvert \lvert y\rvert$", id="def"),
    pytest.param(r"\gdef\two#1#2{#2#1}$\two ab$", "$ba$", id="gdef-two-arguments"),
    pytest.param(r"\def\pt#1,#2.{P(#1;#2)}$\pt x,y.$", "$P(x;y)$", id="def-delimited"),
    pytest.param(r"\def\hash{a##b}$\hash$", "$a#b$", id="def-double-hash"),
    pytest.param(r"\let\eps\varepsilon$\eps$", r"$\varepsilon$", id="let"),
    pytest.param(r"\let\eps=\varepsilon$\eps$", r"$\varepsilon$", id="let-equals"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}\let\RR\R$\RR$", r"$\mathbb{R}$", id="let-a-macro"),
    pytest.param(r"\let\oldsqrt\sqrt\renewcommand{\sqrt}[1]{\oldsqrt{#1}}$\sqrt{2}$", r"$\sqrt{2}$",
                 id="let-keeps-the-old-meaning"),
    pytest.param(r"\DeclareMathOperator{\Tr}{Tr}$\Tr A$", r"$\operatorname{Tr} A$", id="declaremathoperator"),
    pytest.param(r"\DeclareMathOperator*{\argmax}{arg\,max}$\argmax_x$", r"$\operatorname*{arg\,max}_x$",
                 id="declaremathoperator-starred"),
    pytest.param(r"\NewDocumentCommand{\norm}{O{2}m}{\|#2\|_{#1}}$\norm{x} \norm[1]{y}$", r"$\|x\|_{2} \|y\|_{1}$",
                 id="xparse"),
    pytest.param(r"\newenvironment{eq}{\begin{equation}}{\end{equation}}\begin{eq}x\end{eq}",
                 r"\begin{equation}x\end{equation}", id="newenvironment"),
    pytest.param(r"\def\a{\frac}$\a{1}{2}$", r"$\frac{1}{2}$", id="arguments-after-the-replacement"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}\newcommand{\Rn}{\R^n}$\Rn$", r"$\mathbb{R}^n$", id="nested"),
    pytest.param(r"\def\my@x{y}\my $a$", r"\my $a$", id="at-names-are-defined-apart"),
])
def test_macros_are_expanded(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, expected", [
    pytest.param("a % comment\nb", "a b", id="comment"),
    pytest.param("a\\% b", "a\\% b", id="escaped-percent"),
    pytest.param("a %\n\n b", "a b", id="comment-keeps-paragraph"),
    pytest.param(r"a \iffalse $x$ \fi b", "a b", id="iffalse"),
    pytest.param(r"a \iffalse $x$ \else c \fi b", "a c b", id="iffalse-else"),
    pytest.param(r"a \iffalse \ifx y \fi $x$ \fi b", "a b", id="iffalse-nested"),
    pytest.param(r"\iftrue a \else b \fi c", "a c", id="iftrue"),
    pytest.param(r"\newif\ifdraft \ifdraft a\else b\fi \drafttrue \ifdraft c\else d\fi", "b c", id="newif"),
    pytest.param(r"$a \iff b$", r"$a \iff b$", id="iff-is-not-a-conditional"),
])
def test_what_tex_skips(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("source, verbatim", [
    pytest.param(r"a \verb|$x$| b", ["$x$"], id="verb"),
    pytest.param(r"a \verb*+$x$+ b", ["$x$"], id="verb-starred"),
    pytest.param(r"a \lstinline[language=TeX]!$y$! b", ["$y$"], id="lstinline"),
    pytest.param(r"a \mintinline{latex}{$z$} b", ["$z$"], id="mintinline"),
    pytest.param("\\begin{verbatim}\n$x$ \\newcommand{\\R}{S}\n\\end{verbatim}$\\R$", ["$x$ \\newcommand{\\R}{S}"],
                 id="verbatim"),
    pytest.param("\\begin{lstlisting}[language=TeX]\n$x$\n\\end{lstlisting}", ["[language=TeX]\n$x$"],
                 id="lstlisting"),
    pytest.param("\\begin{minted}{latex}\n$x$\n\\end{minted}", ["{latex}\n$x$"], id="minted"),
    pytest.param("\\DefineVerbatimEnvironment{code}{Verbatim}{}\\begin{code}$x$\\end{code}", ["$x$"],
                 id="own-verbatim-environment"),
])
def test_verbatim_is_set_aside(source, verbatim):
    expansion = expand(source, "main.tex", _no_files)
    assert expansion.verbatim == verbatim
    assert "$x$" not in expansion.text


def test_a_comment_environment_is_dropped():
    assert expanded("a \\begin{comment}\n$x$\n\\end{comment} b") == "a b"


@pytest.mark.parametrize("definition", [
    pytest.param(r"\def\a{\a}", id="direct"),
    pytest.param(r"\def\a{x\a}", id="growing"),
    pytest.param(r"\def\a{\b}\def\b{\a}", id="mutual"),
    pytest.param(r"\newcommand{\a}{\a\a}", id="doubling"),
    pytest.param(r"\def\a#1{\a{#1#1}}", id="growing-argument"),
])
def test_a_looping_macro_is_reported_once_and_left_as_written(definition):
    started = time.monotonic()
    expansion = expand(definition + r"$\a + 1$ and $\a$", "main.tex", _no_files)
    assert time.monotonic() - started < 5
    assert len(expansion.problems) == 1
    assert expansion.problems[0].startswith("main.tex: macro \\a ")
    assert "left as written" in expansion.problems[0]
    assert r"$\a" in expansion.text and "and $\\a$" in expansion.text


def test_the_whole_text_is_bounded(monkeypatch):
    monkeypatch.setattr(latex_expansion, "MAX_TOTAL_CHARS", 1000)
    with pytest.raises(ValueError, match="grew past 1,000 characters"):
        expand(r"\def\a{xxxxxxxxxx}" + r"\a" * 200, "main.tex", _no_files)


def test_an_undefined_macro_is_left_to_the_formula_parser():
    assert expanded(r"$\undefined{x}$") == r"$\undefined{x}$"


def test_the_text_after_end_document_is_not_read():
    assert expanded("\\begin{document}a\\end{document}\n\\def\\x{") == "\\begin{document}a\\end{document}"


def test_includes_are_read_in_place_with_file_markers():
    def resolve(command, name, including):
        return {"a": ("a.tex", r"\newcommand{\R}{\mathbb{R}}A")}[name]
    expansion = expand(r"x \input{a} $\R$", "main.tex", resolve)
    assert " ".join(expansion.text.split()) == r"x \mathsearchfile{a.tex}A\mathsearchfile{main.tex} $\mathbb{R}$"
    assert expansion.included == {"a.tex"}


def test_a_missing_include_is_reported():
    expansion = expand(r"x \include{gone} y", "main.tex", _no_files)
    assert expansion.problems == [r"main.tex: \include{gone}: no such file in the upload"]


def test_an_include_cycle_is_reported():
    def resolve(command, name, including):
        return {"a": ("a.tex", r"A \input{b}"), "b": ("b.tex", r"B \input{a}")}[name]
    expansion = expand(r"\input{a}", "main.tex", resolve)
    assert expansion.problems == [r"b.tex: \input{a}: include cycle a.tex → b.tex → a.tex"]


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\def\{{\symbol{`\{}}$\{$", r"$\symbol{`\{}$", id="backtick-character-code"),
    pytest.param(r"{\def\x{a}$\x$}$\x$", r"{$a$}$\x$", id="definition-ends-with-its-group"),
    pytest.param(r"{\gdef\x{a}}$\x$", r"{}$a$", id="gdef-is-global"),
    pytest.param(r"{\global\def\x{a}}$\x$", r"{}$a$", id="global-prefix"),
    pytest.param(r"\csname alpha\endcsname", r"\alpha", id="csname"),
    pytest.param(r"\newcommand{\R}{\mathbb{R}}$\csname R\endcsname$", r"$\mathbb{R}$", id="csname-of-a-macro"),
])
def test_tex_details(source, expected):
    assert expanded(source) == expected


def test_a_runaway_delimited_argument_stops_at_a_blank_line_and_the_text_is_kept():
    expansion = expand("\\def\\a#1/{(#1)}\\a x y\n\nnext $z$", "main.tex", _no_files)
    assert "next $z$" in expansion.text and "x y" in expansion.text
    assert expansion.problems == ["main.tex: macro \\a has a runaway argument: an argument's delimiter '/' does not "
                                  "come before a blank line; left as written"]


def test_expl3_definitions_are_not_expanded():
    assert expanded(r"\ExplSyntaxOn \NewDocumentCommand{\x}{m}{\seq_item:Nn #1} \ExplSyntaxOff $\x{a}$") == r"$\x{a}$"
