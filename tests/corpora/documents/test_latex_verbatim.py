import pytest

from corpora.documents.latex_expansion import expand
from corpora.documents.latex_verbatim import CODE_MARKER, VERBATIM_MARKER
from tests.corpora.documents.conftest import expanded, no_files


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
    pytest.param("\\begin{tkzexample}[]\n\\def\\to{\\mapsto}$x$\n\\end{tkzexample}", ["[]\n\\def\\to{\\mapsto}$x$"],
                 id="tkzexample"),
])
def test_verbatim_is_set_aside(source, verbatim):
    expansion = expand(source, "main.tex", no_files)
    assert expansion.verbatim == verbatim
    assert "$x$" not in expansion.text


def test_a_comment_environment_is_dropped():
    assert expanded("a \\begin{comment}\n$x$\n\\end{comment} b") == "a b"



def test_each_piece_set_aside_leaves_its_numbered_marker():
    expansion = expand("a \\verb|x| b \\verb|y|\n\\begin{verbatim}\nz\n\\end{verbatim}", "main.tex", no_files)
    assert expansion.verbatim == ["x", "y", "z"]
    assert " ".join(expansion.text.split()) == (f"a \\{VERBATIM_MARKER}{{0}} b \\{VERBATIM_MARKER}{{1}} "
                                                f"\\{CODE_MARKER}{{2}}")


def test_a_short_verb_character_starts_inline_verbatim_until_it_is_deleted():
    expansion = expand(r"\MakeShortVerb{\|}a |$x$| \DeleteShortVerb{\|}$|y|$", "main.tex", no_files)
    assert expansion.verbatim == ["$x$"]
    assert expansion.text.endswith("$|y|$")
