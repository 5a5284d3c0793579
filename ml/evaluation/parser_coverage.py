"""Parser coverage and speed: how much of the real benchmark LaTeX parses, and how fast (the quality bars).

Functions return plain dicts so that management commands and tests can print or assert them. The formulas
come from the shared data through the `corpora` readers; a malformed line stops the report (MalformedFile).
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from corpora.corpus_files import read_formulas
from corpora.formula_representations import alttext, read_formula_representations
from corpora.topic_latex import read_topic_latex
from corpora.topic_posts import read_topic_xml
from corpora.visual_ids import VisualIdRecord, read_visual_ids
from mathparse.api import parse_latex, parse_mathml
from mathparse.errors import ParseError
from mathparse.slt_string import to_slt_string, tree_from_slt_string

JUDGED = Path("arqmath") / "arqmath1-task2-judged-formulas"
TOPICS = Path("arqmath") / "topics"
TOPIC_MATHML = Path("arqmath") / "formula-representations" / "Topics_2021_Formulas_SLT_V1.1.tsv"


def judged_latex(data_dir: Path) -> list[str]:
    """The LaTeX of the judged ARQMath-1 visual ids (whitespace-stripped, as the organisers keyed them)."""
    return [record.latex for record in _judged(data_dir) if record.latex]


def judged_slt_strings(data_dir: Path) -> list[str]:
    """SLT strings of the judged visual ids without LaTeX, then of the 22,446 collection formulas."""
    path = Path(data_dir) / JUDGED / "formulas_slt_string.tsv"
    return [record.slt for record in _judged(data_dir) if record.slt] + [f.text for f in read_formulas(path, "slt_tsv")]


def _judged(data_dir: Path) -> Iterable[VisualIdRecord]:
    path = Path(data_dir) / JUDGED / "visual_id_file.tsv"
    return read_visual_ids(path).checked(path).values()


def task2_queries(data_dir: Path) -> list[str]:
    """Query LaTeX of every `topics.arqmath-202?-task2*.txt` file (official and refined)."""
    queries: list[str] = []
    for path in sorted((Path(data_dir) / TOPICS).glob("topics.arqmath-202?-task2*.txt")):
        queries += read_topic_latex(path).checked(path).values()
    return queries


def topic_post_formulas(data_dir: Path) -> list[str]:
    """The `math-container` formulas of every `topics/*-origin.xml` post (those with a formula id)."""
    formulas = []
    for path in sorted((Path(data_dir) / TOPICS).glob("*-origin.xml")):
        topics = read_topic_xml(path).value  # its problems are id-less containers, which have no formula id
        formulas += [formula.latex for topic in topics.values() for formula in topic.formulas]
    return [formula for formula in formulas if formula.strip("$ ")]


def summarize(latex_lines: Iterable[str], slowest: int = 5) -> dict:
    """Parse every line; count SLT and OPT successes, error kinds, and keep the slowest inputs."""
    total = slt_ok = opt_ok = 0
    errors: Counter[str] = Counter()
    opt_errors: Counter[str] = Counter()
    failures: dict[str, str] = {}
    timings: list[tuple[float, str]] = []
    for latex in latex_lines:
        total += 1
        start = time.perf_counter()
        try:
            graphs = parse_latex(latex)
        except ParseError as error:
            errors[error.kind] += 1
            failures.setdefault(error.kind, latex)
            continue
        finally:
            timings.append((time.perf_counter() - start, latex))
        slt_ok += 1
        if graphs.opt is not None:
            opt_ok += 1
        else:
            opt_errors[graphs.opt_error or "unknown"] += 1
    timings.sort(reverse=True)
    return {
        "total": total, "slt_ok": slt_ok, "opt_ok": opt_ok,
        "slt_rate": slt_ok / total if total else 0.0, "opt_rate": opt_ok / total if total else 0.0,
        "errors_by_kind": dict(errors), "example_failures": failures,
        "opt_errors": dict(opt_errors.most_common(10)),
        "slowest": [{"ms": round(seconds * 1000, 3), "latex": latex[:200]} for seconds, latex in timings[:slowest]],
    }


def round_trip(slt_strings: Iterable[str]) -> dict:
    """Parse each SLT string and write it back: every string should parse and come back identical."""
    total = parsed = identical = 0
    mismatches: list[str] = []
    for text in slt_strings:
        total += 1
        try:
            tree = tree_from_slt_string(text)
        except ParseError:
            mismatches.append(text[:200])
            continue
        parsed += 1
        if to_slt_string(tree) == text.strip():
            identical += 1
        else:
            mismatches.append(text[:200])
    return {"total": total, "parsed": parsed, "identical": identical, "mismatches": mismatches[:5]}


def benchmark_speed(latex_lines: list[str], min_seconds: float = 1.0) -> dict:
    """Formulas per second for LaTeX → SLT + OPT in this process, over whole passes of `latex_lines`.

    `cpu_per_second` counts this process's CPU time only, which is what to compare on a shared machine.
    """
    formulas, start, cpu_start = 0, time.perf_counter(), time.process_time()
    while True:
        for latex in latex_lines:
            try:
                parse_latex(latex)
            except ParseError:
                pass
        formulas += len(latex_lines)
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds or not latex_lines:
            break
    cpu = time.process_time() - cpu_start
    return {"formulas": formulas, "seconds": round(elapsed, 3), "cpu_seconds": round(cpu, 3),
            "per_second": round(formulas / elapsed, 1) if elapsed else 0.0,
            "cpu_per_second": round(formulas / cpu, 1) if cpu else 0.0}


def mathml_agreement(data_dir: Path) -> dict:
    """How often the organisers' LaTeXML MathML of the 2021 topic formulas gives the SLT of its own LaTeX."""
    path = Path(data_dir) / TOPIC_MATHML
    total = agree = 0
    disagreements = []
    for mathml in read_formula_representations(path).checked(path).values():
        total += 1
        latex = alttext(mathml)
        try:
            same = to_slt_string(parse_mathml(mathml).slt) == to_slt_string(parse_latex(latex).slt)
        except ParseError:
            same = False
        agree += same
        if not same:
            disagreements.append(latex[:200])
    return {"total": total, "agree": agree, "rate": agree / total if total else 0.0, "disagreements": disagreements[:10]}


def coverage_report(data_dir: Path) -> dict:
    """Coverage of every benchmark source the quality bars name, plus the SLT-string round trip."""
    data_dir = Path(data_dir)
    return {
        "judged_latex": summarize(judged_latex(data_dir)),
        "task2_queries": summarize(task2_queries(data_dir)),
        "topic_posts": summarize(topic_post_formulas(data_dir)),
        "slt_strings": round_trip(judged_slt_strings(data_dir)),
        "mathml_agreement": mathml_agreement(data_dir),
    }

