"""An indexed corpus's formulas as training formulas for the node encoders (`manage.py train --db-corpus NAME`)."""
from __future__ import annotations

from collections.abc import Iterator

from ml.training.corpus import CorpusFormula
from searchapp.models import Formula


def stored_formulas(corpora: list[str]) -> Iterator[CorpusFormula]:
    """Each corpus's stored formulas in their own notation: LaTeX as written, anything else as its SLT string."""
    for name in corpora:
        rows = Formula.objects.filter(corpus__name=name).values_list("notation", "latex", "slt_string")
        for notation, latex, slt_string in rows.iterator():
            yield (CorpusFormula(latex, "latex", f"db:{name}") if notation == Formula.Notation.LATEX
                   else CorpusFormula(slt_string, "slt", f"db:{name}"))
