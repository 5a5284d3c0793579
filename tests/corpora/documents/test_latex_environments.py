from corpora.documents.latex_expansion import expand
from tests.corpora.documents.conftest import expanded, no_files


def test_the_text_after_end_document_is_not_read():
    assert expanded("\\begin{document}a\\end{document}\n\\def\\x{") == "\\begin{document}a\\end{document}"


def test_an_example_of_a_whole_document_does_not_end_the_document():
    source = ("\\begin{document}\\begin{showexample}\\begin{document}x\\end{document}\\end{showexample} $y$"
              "\\end{document} after")
    assert expanded(source).endswith("$y$\\end{document}")



def test_a_document_s_own_environment_expands_at_its_begin_and_its_end():
    source = r"\newenvironment{thm}[1]{\textbf{Theorem (#1).}}{\qed}\begin{thm}{Euler}$e^{i\pi}=-1$\end{thm}"
    assert expanded(source) == r"\textbf{Theorem (Euler).}$e^{i\pi}=-1$\qed"


def test_any_other_environment_is_written_on_for_the_structure_reader():
    assert expanded(r"\begin{align}x\end{align}") == r"\begin{align}x\end{align}"


def test_a_begin_without_a_name_is_written_as_it_stands():
    assert expanded(r"\begin x") == r"\begin x"


def test_a_verbatim_environment_is_set_aside_not_read():
    expansion = expand("\\begin{verbatim}\n\\begin{document}\n\\end{document}\n\\end{verbatim}\nafter",
                       "main.tex", no_files)
    assert expansion.verbatim == ["\\begin{document}\n\\end{document}"]
    assert expansion.text.endswith("after")
