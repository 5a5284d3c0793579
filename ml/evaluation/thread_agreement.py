"""LaTeX-vs-MathML agreement on the ARQMath thread pages: a check of notation normalisation that needs no judgments.

Every formula of `threads-mathdowsers/` is there twice: the LaTeX LaTeXML was given (its `alttext`) and the
Presentation MathML LaTeXML made of it. Both readers should give the identical SLT; where they do not, one of
them (or LaTeXML) spells a notation differently. The sample is fixed: distinct LaTeX strings in page-name order,
`SAMPLE_SIZE` of them drawn with `random.Random(SEED)`, so numbers from different commits compare.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from corpora.mse_threads import read_thread_page, thread_pages
from mathparse.api import parse_latex, parse_mathml
from mathparse.errors import ParseError
from mathparse.slt_string import to_slt_string

THREADS = Path("arqmath") / "threads-mathdowsers"
SAMPLE_SIZE = 5_000
SEED = 0
_SMALL_DIFFERENCE = 2
"""Label differences of at most this many labels per side are tallied: they name one notation each."""


@dataclass(frozen=True)
class Pair:
    latex: str
    mathml: str


@dataclass(frozen=True)
class Outcome:
    pair: Pair
    kind: str
    """"identical", or why not: "latex fails", "mathml fails", "LaTeXML error", "layout", "symbols"."""
    only_latex: tuple[str, ...] = ()
    only_mathml: tuple[str, ...] = ()


def thread_pairs(folder: Path | str) -> list[Pair]:
    """(alttext, MathML) of every formula with LaTeX, each distinct LaTeX once (its first page in name order)."""
    pairs: dict[str, Pair] = {}
    for page in thread_pages(folder):
        for formula in read_thread_page(page).value.formulas:
            if formula.notation == "latex" and formula.text not in pairs:
                pairs[formula.text] = Pair(formula.text, formula.mathml)
    return list(pairs.values())


def compare(pair: Pair) -> Outcome:
    latex = _slt(parse_latex, pair.latex)
    mathml = _slt(parse_mathml, pair.mathml)
    if latex is None or mathml is None:
        return Outcome(pair, "latex fails" if latex is None else "mathml fails")
    if to_slt_string(latex) == to_slt_string(mathml):
        return Outcome(pair, "identical")
    if "<merror" in pair.mathml:
        return Outcome(pair, "LaTeXML error")
    ours, theirs = Counter(latex.labels), Counter(mathml.labels)
    only_latex, only_mathml = tuple(sorted((ours - theirs).elements())), tuple(sorted((theirs - ours).elements()))
    return Outcome(pair, "symbols" if only_latex or only_mathml else "layout", only_latex, only_mathml)


def _slt(parse, text: str):
    try:
        return parse(text).slt
    except ParseError:
        return None


def thread_agreement(data_dir: Path | str, size: int = SAMPLE_SIZE, seed: int = SEED) -> dict:
    """Identical-SLT rate of the two readers on the fixed sample, parse rates of each, and the disagreements."""
    pairs = thread_pairs(Path(data_dir) / THREADS)
    sample = random.Random(seed).sample(pairs, min(size, len(pairs)))
    outcomes = [compare(pair) for pair in sample]
    kinds = Counter(outcome.kind for outcome in outcomes)
    total = len(outcomes)
    differences = Counter((o.only_latex, o.only_mathml) for o in outcomes if o.kind == "symbols"
                          and max(len(o.only_latex), len(o.only_mathml)) <= _SMALL_DIFFERENCE)
    return {
        "distinct": len(pairs), "seed": seed, "total": total, "identical": kinds["identical"],
        "rate": kinds["identical"] / total if total else 0.0,
        "latex_parsed": 1 - kinds["latex fails"] / total if total else 0.0,
        "mathml_parsed": 1 - kinds["mathml fails"] / total if total else 0.0,
        "kinds": {kind: count for kind, count in kinds.most_common() if kind != "identical"},
        "differences": [{"latex": list(ours), "mathml": list(theirs), "count": count}
                        for (ours, theirs), count in differences.most_common(15)],
        "disagreements": [o for o in outcomes if o.kind != "identical"],
    }


def format_report(result: dict, examples: int = 10) -> str:
    """The rates, the disagreements by kind, the commonest small label differences and a few examples."""
    lines = [
        f"thread pages: {result['total']} of {result['distinct']} distinct formulas (seed {result['seed']})",
        f"identical SLT, LaTeX vs MathML: {result['identical']} ({result['rate']:.2%})",
        f"parsed: LaTeX {result['latex_parsed']:.2%}, MathML {result['mathml_parsed']:.2%}",
        "disagreements: " + ", ".join(f"{kind} {count}" for kind, count in result["kinds"].items()),
        "commonest label differences (LaTeX side | MathML side):",
    ]
    lines += [f"  {row['count']:>4}  {' '.join(row['latex']) or '-'} | {' '.join(row['mathml']) or '-'}"
              for row in result["differences"]]
    lines.append("examples:")
    lines += [f"  {o.kind:<14} {o.pair.latex[:100]}" for o in result["disagreements"][:examples]]
    return "\n".join(lines)
