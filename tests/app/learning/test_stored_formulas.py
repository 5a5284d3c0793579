import pytest

from ml.training.corpus import CorpusFormula
from searchapp.learning.stored_formulas import stored_formulas
from searchapp.models import Formula


@pytest.mark.django_db
def test_each_corpus_gives_its_formulas_in_their_own_notation(index_file):
    index_file([r"x^2 + y^2 = z^2"], corpus="written")
    slt = Formula.objects.get().slt_string
    index_file([f"7\t1\t{slt}"], corpus="trees", name="slt.tsv", format="slt_tsv")
    assert list(stored_formulas(["written", "trees"])) == [CorpusFormula(r"x^2 + y^2 = z^2", "latex", "db:written"),
                                                           CorpusFormula(slt, "slt", "db:trees")]
