import pytest
from pylatexenc.latexwalker import LatexWalker

from corpora.documents.latex_context import latex_context


@pytest.mark.parametrize("source, arguments", [
    pytest.param(r"\section*[short]{Long}", 3, id="section"),
    pytest.param(r"\mathsearchfile{a.tex}", 1, id="file-marker"),
    pytest.param(r"\tag*{1}", 2, id="tag"),
    pytest.param(r"\intertext{words}", 1, id="intertext"),
])
def test_macros_take_their_arguments(source, arguments):
    [node], _, _ = LatexWalker(source, latex_context=latex_context(), tolerant_parsing=True).get_latex_nodes()
    assert len(node.nodeargd.argnlist) == arguments


def test_alignat_keeps_its_column_count_out_of_the_content():
    [node], _, _ = LatexWalker(r"\begin{alignat}{2}a&=b\end{alignat}", latex_context=latex_context()).get_latex_nodes()
    assert node.latex_verbatim().startswith(r"\begin{alignat}{2}")
    assert "{2}" not in "".join(child.latex_verbatim() for child in node.nodelist)
