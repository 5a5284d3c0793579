import pytest

from tests.ml.data.documents.conftest import posts


def test_sections_become_posts_with_titles_and_ids(upload):
    path = upload({"notes/ch2.tex": r"""\documentclass{book}
\title{Linear \emph{Algebra}}
\begin{document}
\maketitle
Before any section $a$.
\chapter{Spectra}
\section{Eigenvalues}
Let $Av=\lambda v$.
\subsection{Multiplicity}
Text $m$.
\section*{Eigenvalues}
Again $b$.
\subsubsection{Run-in}
Still here.
\end{document}
"""})
    records = posts(path)
    assert [(r.post.source_id, r.post.title) for r in records] == [
        ("notes/ch2.tex", "Linear Algebra"),
        ("notes/ch2.tex#eigenvalues", "Linear Algebra › Spectra › Eigenvalues"),
        ("notes/ch2.tex#multiplicity", "Linear Algebra › Spectra › Eigenvalues › Multiplicity"),
        ("notes/ch2.tex#eigenvalues-2", "Linear Algebra › Spectra › Eigenvalues"),
    ]
    assert records[3].post.body == "Again $b$.\n\nRun-in\n\nStill here."
    assert [r.line for r in records] == [1, 2, 3, 4]


def test_a_document_without_title_is_titled_by_its_file_name(upload):
    [record] = posts(upload({"paper.tex": "\\documentclass{article}\\begin{document}\\section{Intro}x\\end{document}"}))
    assert (record.post.title, record.post.source_id) == ("paper › Intro", "paper.tex#intro")


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"An \emph{important} \textbf{bold} \textit{word}.", "An important bold word.", id="formatting"),
    pytest.param(r"See \cite{knuth} and \ref{x} or \eqref{y}.", "See and or.", id="references-dropped"),
    pytest.param(r"A footnote\footnote{with words} here.", "A footnote with words here.", id="footnote"),
    pytest.param(r"\href{http://x.org}{the site} and \url{http://y}", "the site and http://y", id="links"),
    pytest.param(r"caf\'e, na\"ive, 10\% and \$5", r"café, naïve, 10% and \$5", id="accents-and-escapes"),
    pytest.param("one\n\ntwo", "one\n\ntwo", id="paragraphs"),
    pytest.param(r"\begin{itemize}\item one $x$\item two\end{itemize}", "– one $x$\n\n– two", id="lists"),
    pytest.param(r"a \verb|$x$| b", r"a \$x\$ b", id="verb-is-plain-text"),
    pytest.param("a\n\\begin{verbatim}\n$x$\n\\end{verbatim}\nb", "a\n\nb", id="verbatim-left-out"),
    pytest.param("a\n\\begin{lstlisting}\n$x$\n\\end{lstlisting}\nb", "a\n\nb", id="lstlisting-left-out"),
    pytest.param("a\n\\begin{minted}{python}\n$x$\n\\end{minted}\nb", "a\n\nb", id="minted-left-out"),
    pytest.param("a % $x$ comment\nb", "a b", id="comment"),
    pytest.param(r"a \iffalse $x$ \fi b", "a b", id="iffalse"),
    pytest.param(r"with \ensuremath{x^2} in text", "with $x^2$ in text", id="ensuremath"),
])
def test_prose(upload, body, expected):
    source = "\\documentclass{article}\n\\title{T}\\begin{document}\n" + body + "\n\\end{document}\n"
    [record] = posts(upload({"a.tex": source}))
    assert record.post.body == expected


def test_macros_are_expanded_in_formulas_and_text(upload):
    source = r"""\documentclass{article}
\newcommand{\R}{\mathbb{R}}
\newcommand{\name}{Hilbert}
\DeclareMathOperator{\Tr}{Tr}
\begin{document}
A \name\ space over $\R$ with $\Tr A$.
\end{document}
"""
    [record] = posts(upload({"a.tex": source}))
    assert record.post.body == r"A Hilbert space over $\mathbb{R}$ with $\operatorname{Tr} A$."
    assert [f.text for f in record.formulas] == [r"\mathbb{R}", r"\operatorname{Tr} A"]


def test_a_file_without_documentclass_is_read_alone(upload):
    records = posts(upload({"fragment.tex": r"Some $x$ \section{S} and $y$"}))
    assert [(r.post.source_id, r.post.title, r.post.body) for r in records] == [
        ("fragment.tex", "fragment", "Some $x$"), ("fragment.tex#s", "fragment › S", "and $y$")]


def test_text_before_the_first_section_needs_words(upload):
    source = "\\documentclass{article}\\title{T}\\begin{document}\\maketitle\n\\section{S}x\\end{document}"
    assert [r.post.source_id for r in posts(upload({"a.tex": source}))] == ["a.tex#s"]


def test_intertext_is_read_as_words_with_its_formulas(upload):
    source = ("\\documentclass{article}\\begin{document}\\begin{align}a&=b\\intertext{Or, if $u = v$, then}c&=d"
              "\\end{align}\\end{document}")
    [record] = posts(upload({"a.tex": source}))
    assert record.post.body == "$$a =b$$\n\nOr, if $u = v$, then\n\n$$c =d$$"


def test_a_short_verb_is_verbatim(upload):
    source = "\\documentclass{article}\\MakeShortVerb{\\|}\\begin{document}Use |\\section{$x$}| here.\\end{document}"
    [record] = posts(upload({"a.tex": source}))
    assert (record.post.body, record.formulas) == (r"Use \section{\$x\$} here.", ())
