"""How much of the math in real documents the `documents` reader hands over in a form the formula parser reads:
files read and failed, display and inline formulas found, and the share of each that parses.

The quality bar: at least 98 % of the display formulas of TeX Live's `texlive-science-doc` (`make texlive-docs`)
parse. From a shell:

    .venv/bin/python -c "from ml.evaluation.document_parsing import document_parse_report, report_text
    print(report_text(document_parse_report('var/texlive/science')))"
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from corpora.documents import Document, Formula, Unreadable, read_documents
from mathparse import ParseError, parse


def document_parse_report(path: str | Path, examples: int = 40) -> dict:
    """Counts over every document of a file, folder or zip, and up to `examples` failing display formulas
    (file, error kind, message, text)."""
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    failures: list[tuple[str, str, str, str]] = []
    failed_files: list[str] = []
    for document in read_documents(path):
        if isinstance(document, Unreadable):
            counts["files failed"] += 1
            failed_files.append(f"{document.file}: {document.message}")
            continue
        counts["documents read"] += 1
        counts["problems"] += len(document.problems)
        for formula, file in _formulas(document):
            kind = "display" if formula.display else "inline"
            counts[kind] += 1
            try:
                parse(formula.text, formula.notation)
            except ParseError as error:
                counts[f"{kind} failed"] += 1
                if formula.display:
                    kinds[error.kind] += 1
                    if len(failures) < examples:
                        failures.append((file, error.kind, error.message, formula.text))
            else:
                counts[f"{kind} parsed"] += 1
    return {
        "documents read": counts["documents read"], "files failed": counts["files failed"],
        "problems": counts["problems"], "display": counts["display"], "inline": counts["inline"],
        "display parsed": _share(counts["display parsed"], counts["display"]),
        "inline parsed": _share(counts["inline parsed"], counts["inline"]),
        "display failure kinds": dict(kinds.most_common()), "display failures": failures,
        "failed files": failed_files,
    }


def _formulas(document: Document) -> list[tuple[Formula, str]]:
    return [(piece, section.file) for section in document.sections for piece in section.pieces
            if isinstance(piece, Formula)]


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def report_text(report: dict) -> str:
    lines = [f"{name}: {report[name]}" for name in ("documents read", "files failed", "problems", "display",
                                                    "inline", "display parsed", "inline parsed")]
    lines.append(f"display failure kinds: {report['display failure kinds']}")
    lines += [f"  {file} [{kind}] {message}: {text[:200]}" for file, kind, message, text in report["display failures"]]
    lines += [f"  failed: {line}" for line in report["failed files"]]
    return "\n".join(lines)
