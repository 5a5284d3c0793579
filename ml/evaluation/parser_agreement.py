"""Parser agreement: how far our parsers agree with the ARQMath organisers' LaTeXML trees, formula by formula.

For every formula of `Topics_2021_Formulas_{SLT,OPT}_V1.1.tsv` (843 formulas of the 2021 topics):
* OPT: our LaTeX (the `alttext`) → SLT → OPT versus their Content MathML → OPT
  (`parse_content_mathml`), both in the label scheme of `mathparse.opt`;
* SLT: our LaTeX → SLT versus their Presentation MathML → SLT (`parse_mathml`).
The score is the F1 of the two node-label multisets (order and edges ignored); a side that fails
to parse scores 0. `agreement(data_dir)` returns the rows and the means; `format_table` prints them.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

from corpora.formula_representations import alttext, read_formula_representations
from mathparse.tree import Tree

SLT_FILE = "arqmath/formula-representations/Topics_2021_Formulas_SLT_V1.1.tsv"
OPT_FILE = "arqmath/formula-representations/Topics_2021_Formulas_OPT_V1.1.tsv"


@dataclass(frozen=True)
class Row:
    formula_id: str
    latex: str
    opt_f1: float
    slt_f1: float | None
    opt_error: str | None
    their_opt_error: str | None
    their_parse_failed: bool  # LaTeXML itself gave up (a `cerror` in its Content MathML)


def label_f1(ours: Iterable[str], theirs: Iterable[str]) -> float:
    """F1 of two label multisets: 2·|A∩B| / (|A|+|B|); 1.0 when both are empty."""
    a, b = Counter(ours), Counter(theirs)
    total = sum(a.values()) + sum(b.values())
    return 1.0 if total == 0 else 2 * sum((a & b).values()) / total


def agreement(data_dir: Path | str, limit: int | None = None) -> dict:
    """Rows for every formula in both files, with the means: `{"rows", "means", "count"}`."""
    data_dir = Path(data_dir)
    presentation, content = (_formulas(data_dir / name) for name in (SLT_FILE, OPT_FILE))
    ids = [i for i in presentation if i in content][:limit]
    rows = [_row(i, presentation[i], content[i]) for i in ids]
    return {"rows": rows, "means": means(rows), "count": len(rows)}


def _formulas(path: Path) -> dict[str, str]:
    return read_formula_representations(path).checked(path)


def means(rows: list[Row]) -> dict[str, float]:
    clean = [r for r in rows if not r.their_parse_failed]
    slt = [r.slt_f1 for r in rows if r.slt_f1 is not None]
    return {
        "opt_f1": fmean(r.opt_f1 for r in rows) if rows else 0.0,
        "opt_f1_where_latexml_parsed": fmean(r.opt_f1 for r in clean) if clean else 0.0,
        "opt_coverage": sum(r.opt_error is None for r in rows) / len(rows) if rows else 0.0,
        "slt_f1": fmean(slt) if slt else float("nan"),
    }


def _row(formula_id: str, presentation: str, content: str) -> Row:
    from mathparse import parse_latex  # A1's parsers; imported late so this module loads without them
    from mathparse.content_mathml import parse_content_mathml

    latex = alttext(presentation)
    ours, ours_error = _attempt(lambda: parse_latex(latex))
    theirs_opt, theirs_error = _attempt(lambda: parse_content_mathml(content))
    our_opt = ours.opt if ours is not None else None
    opt_error = ours_error or (ours.opt_error if ours is not None else None)
    return Row(
        formula_id=formula_id,
        latex=latex,
        opt_f1=_f1(our_opt, theirs_opt),
        slt_f1=_slt_f1(ours.slt if ours is not None else None, presentation),
        opt_error=opt_error,
        their_opt_error=theirs_error,
        their_parse_failed="<cerror" in content,
    )


def _slt_f1(ours: Tree | None, presentation: str) -> float | None:
    from mathparse import parse_mathml

    try:
        theirs, _ = _attempt(lambda: parse_mathml(presentation))
    except ImportError:  # the Presentation MathML reader is optional; without it there is no SLT score
        return None
    return _f1(ours, theirs.slt if theirs is not None else None)


def _f1(ours: Tree | None, theirs: Tree | None) -> float:
    return 0.0 if ours is None or theirs is None else label_f1(ours.labels, theirs.labels)


def _attempt(parse: Callable):
    """(result, None) or (None, "ErrorType: message") — a failed parse is a data point, not a crash."""
    try:
        return parse(), None
    except (ValueError, RecursionError) as error:  # ParseError and OptError are ValueErrors
        return None, f"{type(error).__name__}: {error}"


def format_table(result: dict, worst: int = 15) -> str:
    """Means, then the formulas with the lowest OPT agreement (for eyeballing what disagrees)."""
    m = result["means"]
    lines = [
        f"formulas: {result['count']}",
        f"OPT label F1 (mean, all formulas):            {m['opt_f1']:.3f}",
        f"OPT label F1 (mean, where LaTeXML parsed):    {m['opt_f1_where_latexml_parsed']:.3f}",
        f"OPT coverage (our LaTeX gets an OPT):         {m['opt_coverage']:.3%}",
        f"SLT label F1 (mean, LaTeX vs Presentation):   {m['slt_f1']:.3f}",
        "",
        f"{'id':<8} {'opt F1':>6} {'slt F1':>6}  latex",
    ]
    for row in sorted(result["rows"], key=lambda r: r.opt_f1)[:worst]:
        slt = f"{row.slt_f1:.2f}" if row.slt_f1 is not None else "-"
        lines.append(f"{row.formula_id:<8} {row.opt_f1:>6.2f} {slt:>6}  {row.latex[:90]}")
    return "\n".join(lines)
