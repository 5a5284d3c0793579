import pytest

from tests.corpora.documents.conftest import posts


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
        ("notes/ch2.tex#eigenvalues", "Linear Algebra › 1 Spectra › 1.1 Eigenvalues"),
        ("notes/ch2.tex#multiplicity", "Linear Algebra › 1 Spectra › 1.1 Eigenvalues › 1.1.1 Multiplicity"),
        ("notes/ch2.tex#eigenvalues-2", "Linear Algebra › 1 Spectra › Eigenvalues"),
    ]
    assert records[3].post.body == "Again $b$.\n\nRun-in\n\nStill here."
    assert [r.line for r in records] == [1, 2, 3, 4]


def test_a_document_without_title_is_titled_by_its_file_name(upload):
    [record] = posts(upload({"paper.tex": "\\documentclass{article}\\begin{document}\\section{Intro}x\\end{document}"}))
    assert (record.post.title, record.post.source_id) == ("paper › 1 Intro", "paper.tex#intro")


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"An \emph{important} \textbf{bold} \textit{word}.", "An important bold word.", id="formatting"),
    pytest.param(r"See \cite{knuth} and \ref{x} or \eqref{y}.", "See and [x] or [y].",
                 id="citations-dropped-unknown-references-in-brackets"),
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
    pytest.param(r"Use {\fcolorbox} to frame.", "Use to frame.", id="macro-without-the-arguments-it-needs"),
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


PREAMBLE = r"""\documentclass{article}
\newtheorem{thm}{Theorem}[section]
\newtheorem{lem}[thm]{Lemma}
\newtheorem{claim}[thm]{Claim}
\newtheorem*{rem}{Remark}
\begin{document}
"""
DEFINITIONS = r"""
\section{Intro}\label{sec:intro}
\begin{thm}\label{thm:a}A.\end{thm}
\begin{lem}[Key]\label{lem:b}B.\end{lem}
\begin{claim}[Bound on $x$] D.\end{claim}
\begin{rem}\label{rem:c}C.\end{rem}
\begin{equation}\label{eq:a}x\end{equation}
\begin{equation*}\label{eq:none}y\end{equation*}
\begin{figure}\caption{A plot.}\label{fig:a}\end{figure}
\begin{enumerate}\item\label{it:a}one\begin{enumerate}\item\label{it:b}two\end{enumerate}\end{enumerate}
\end{document}
"""


@pytest.mark.parametrize("text, expected", [
    pytest.param(r"\ref{thm:a}, \ref{lem:b}", "2.1, 2.2", id="ref"),
    pytest.param(r"By~\eqref{eq:a}.", "By (1).", id="eqref"),
    pytest.param(r"\autoref{sec:intro}, \autoref*{thm:a}, \autoref{eq:a}", "Section 2, Theorem 2.1, Equation 1",
                 id="autoref"),
    pytest.param(r"\cref{lem:b}, \cref{eq:a}, \Cref{eq:a}", "Lemma 2.2, eq. (1), Eq. (1)", id="cref"),
    pytest.param(r"\cref{thm:a, lem:b}", "Theorem 2.1 and Lemma 2.2", id="cref-list"),
    pytest.param(r"\pageref{fig:a}, \vref{it:a}, \ref{it:b}", "1, 1, 1a", id="pageref-vref-items"),
    pytest.param(r"\nameref{sec:intro}", "Intro", id="nameref"),
    pytest.param(r"\ref{rem:c}, \eqref{eq:none}, \cref{nowhere}", "[rem:c], [eq:none], [nowhere]",
                 id="unknown-in-brackets"),
])
def test_references_print_what_latex_prints(upload, text, expected):
    """The references stand before what they name: each is resolved once the document is read."""
    source = PREAMBLE + r"\section{Refs}" + text + DEFINITIONS
    first = posts(upload({"a.tex": source}))[0]
    assert (first.post.title, first.post.body) == ("a › 1 Refs", expected)


def test_numbered_environments_print_their_numbers(upload):
    [record] = posts(upload({"a.tex": PREAMBLE + DEFINITIONS}))
    assert record.post.body == ("Theorem 1.1. A.\n\nLemma 1.2 (Key). B.\n\nClaim 1.3 (Bound on $x$). D.\n\n"
                                "Remark. C.\n\n$$x$$\n\n$$y$$\n\nFigure 1: A plot.\n\n1. one\n\n(a) two")


def test_a_book_with_its_numbers(upload):
    source = r"""\documentclass{book}
\title{Types}
\newtheorem{thm}{Theorem}[chapter]
\newtheorem{lem}[thm]{Lemma}
\numberwithin{equation}{section}
\begin{document}
\chapter{Basics}\label{ch:basics}
As \cref{thm:main} and \eqref{eq:late} show.
\section{Type theory}\label{sec:types}
\begin{thm}[Main]\label{thm:main}
$x = x$.
\end{thm}
\begin{lem}\label{lem:aux}By \autoref{sec:types}.\end{lem}
\begin{align}
a &= b \label{eq:ab}\\
c &= d \nonumber\\
e &= f \tag{T}\label{eq:tagged}\\
g &= h
\end{align}
\section{Exercises from \cref{ch:basics}}
\subsection{Solution to \ref{thm:main}}
By \eqref{eq:ab}, \eqref{eq:tagged} and \Cref{lem:aux}.
\appendix
\chapter{Proofs}
\section{Late}
\begin{equation}\label{eq:late} z \end{equation}
\end{document}
"""
    records = posts(upload({"types.tex": source}))
    assert [(r.post.title, r.post.body, [(f.text, f.number) for f in r.formulas]) for r in records] == [
        ("Types › 1 Basics", "As Theorem 1.1 and (A.1.1) show.", []),
        ("Types › 1 Basics › 1.1 Type theory",
         "Theorem 1.1 (Main). $x = x$.\n\nLemma 1.2. By Section 1.1.\n\n$$a = b$$\n\n$$c = d$$\n\n$$e = f$$\n\n$$g = h$$",
         [("x = x", ""), ("a = b", "1.1.1"), ("c = d", ""), ("e = f", "T"), ("g = h", "1.1.2")]),
        ("Types › 1 Basics › 1.2 Exercises from Chapter 1 › 1.2.1 Solution to 1.1",
         "By (1.1.1), (T) and Lemma 1.2.", []),
        ("Types › A Proofs › A.1 Late", "$$z$$", [("z", "A.1.1")]),
    ]
    assert [r.post.source_id for r in records] == [
        "types.tex#basics", "types.tex#type-theory", "types.tex#solution-to-1-1", "types.tex#late"]


def test_a_dollar_in_the_preamble_does_not_swallow_the_body(upload):
    """A `$` in a `\\newcolumntype` opened math that ran over the whole body: a manual became one formula."""
    path = upload({"main.tex": "\\documentclass{article}\n\\newcolumntype{H}[2]{>{#1$\\hss}l<{$}}\n"
                               "\\begin{document}\n\\section{Arrows}\nSee \\(a \\to b\\) and\n"
                               "\\begin{gather*} x + y \\end{gather*}\n\\end{document}\n"})
    [record] = posts(path)
    assert record.post.source_id == "main.tex#arrows"
    assert [formula.text for formula in record.formulas] == ["a \\to b", "x + y"]
