"""`bench_documents PATH`: a folder of documents indexed into a throw-away database, with what the reader found, how
fast each indexing stage ran, how much of what was stored a reader can see rendered, and a known-item test of the
search over them.

What was stored: `katex_error_share` (stored formulas the site's KaTeX cannot render), `unexpanded_macro_share`
(display formulas that still hold a command their document defines), `documents`, `sections` and
`duplicate_sections` (sections whose text equals another's). Times: `read_s` (reading every document alone),
`first_index_s` and `resync_unchanged_s` (indexing the same folder again, nothing changed).

The known-item test draws display formulas from the documents (seeded) and searches each as it is written, again
with one variable renamed (`ml.evaluation.known_item`), and, as `known_item_macros`, display formulas as their
source writes them with the document's own macros (the search reads them with the corpus's macros); a search
succeeds when its top 10 (or top 1) holds a formula that occurs in the same file. A formula that cannot be parsed
is a failure, not left out; one longer than a query may be (a font table set in `\\halign`, which indexing reports
as a formula error) is not drawn.
"""
from __future__ import annotations

import random
import re
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from corpora.documents import document_formulas, plan_upload
from corpora.documents.latex_verbatim import VERBATIM_ENVIRONMENTS
from mathparse import ParseError
from mathparse.errors import MAX_INPUT_CHARS
from ml.evaluation.bootstrap import mean_interval
from ml.evaluation.document_parsing import document_parse_report
from ml.evaluation.known_item import rename_variable
from searchapp.benchmarks.katex_check import katex_check
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Formula, Occurrence, Post, SourceDocument

CORPUS = "bench-documents"
SAMPLE = 200
K = 10


def benchmark(path: Path, sample: int = SAMPLE, seed: int = 0, progress: Callable[[str], None] = print) -> dict:
    progress(f"reading {path}")
    started = time.perf_counter()
    reading = document_parse_report(path, examples=0)
    read_s = time.perf_counter() - started
    progress(f"indexing {reading['documents read']} documents")
    started = time.perf_counter()
    job = run_job(start_index_job(path, "documents", CORPUS, enqueue=False))
    seconds = time.perf_counter() - started
    progress("indexing the same folder again, unchanged")
    started = time.perf_counter()
    resync = run_job(start_index_job(path, "documents", CORPUS, enqueue=False))
    resync_s = time.perf_counter() - started
    formulas = Occurrence.objects.filter(post__corpus__name=CORPUS).count()
    progress("checking the stored formulas with KaTeX")
    stored = stored_report()
    progress(f"known-item searches over {sample} formulas")
    known = known_items(path, sample, seed)
    return {
        "read_s": round(read_s, 1), "first_index_s": round(seconds, 1), "resync_unchanged_s": round(resync_s, 1),
        "resync_unchanged_documents": resync.unchanged, "resync_state": resync.state, **stored,
        "files": reading["documents read"] + reading["files failed"], "files_failed": reading["files failed"],
        "display_formulas": reading["display"], "inline_formulas": reading["inline"],
        "display_parsed_share": reading["display parsed"], "inline_parsed_share": reading["inline parsed"],
        "posts": job.done, "records_failed": job.failed, "formula_errors": job.formula_errors,
        "job_state": job.state, "formulas_indexed": formulas, "distinct_formulas": job.formulas_added,
        "index_seconds": round(seconds, 1), "formulas_per_s": round(formulas / seconds, 1),
        "posts_per_s": round(job.done / seconds, 2),
        "stage_seconds": dict(sorted(job.timings.items(), key=lambda item: -item[1])),
        **known,
    }


def stored_report() -> dict:
    """What was stored, as a reader sees it: see the module."""
    occurrences = list(Occurrence.objects.filter(post__corpus__name=CORPUS).values_list(
        "latex", "start", "post__body", "post__document__macros"))
    shown = [(latex, body[start:start + 2] == "$$") for latex, start, body, _ in occurrences]
    check = katex_check(shown)
    display = [(latex, macros or {}) for latex, start, body, macros in occurrences if body[start:start + 2] == "$$"]
    unexpanded = sum(1 for latex, macros in display if _defined_command(latex, macros))
    posts = Post.objects.filter(corpus__name=CORPUS)
    sections = posts.count()
    return {
        "katex_error_share": _share(len(check.failed), len(shown)),
        "katex_undefined_top": dict(list(check.undefined.items())[:15]),
        "unexpanded_macro_share": _share(unexpanded, len(display)),
        "documents": SourceDocument.objects.filter(corpus__name=CORPUS).count(), "sections": sections,
        "duplicate_sections": sections - posts.values("body").distinct().count(),
    }


def _defined_command(latex: str, macros: dict) -> bool:
    return any(command in macros for command in _COMMAND.findall(latex))


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def known_items(path: Path, sample: int, seed: int) -> dict:
    """success@1 and @10 with bootstrap intervals over the sampled formulas, as written, renamed and with the
    document's own macros, and latency."""
    pool = [formula for formula in document_formulas(path)
            if formula.display and formula.notation == "latex" and len(formula.text) <= MAX_INPUT_CHARS]
    rng = random.Random(seed)
    picked = rng.sample(pool, min(sample, len(pool)))
    in_file = _formulas_by_file()
    written = [_search(formula.text, in_file[formula.file]) for formula in picked]
    renamed_queries = [(rename_variable(formula.text, rng), formula.file) for formula in picked]
    renamed = [_search(latex, in_file[file]) for latex, file in renamed_queries if latex is not None]
    with_macros = [_search(latex, in_file[file]) for latex, file in macro_queries(path, sample, seed)]
    latencies = [ms for _, _, ms in written if ms is not None]
    return {
        "known_item_queries": len(written), "known_item_renamed_queries": len(renamed),
        "known_item_macros_queries": len(with_macros),
        **_successes("known_item", written), **_successes("known_item_renamed", renamed),
        **_successes("known_item_macros", with_macros),
        "p50_ms": round(float(np.percentile(latencies, 50)), 1) if latencies else None,
        "p95_ms": round(float(np.percentile(latencies, 95)), 1) if latencies else None,
    }


def macro_queries(path: Path, sample: int, seed: int) -> list[tuple[str, str]]:
    """(LaTeX, file) of up to `sample` display formulas as their `.tex` source writes them, among those that use a
    macro their document defines: what a reader copying from the source types."""
    files = plan_upload(path).files
    pool = []
    for document in SourceDocument.objects.filter(corpus__name=CORPUS).exclude(macros={}):
        for file in sorted(document.files):
            if file.endswith(".tex"):
                source = _COMMENT.sub("", files.read(file).decode("utf-8", "replace"))
                pool += [(line, file) for line in _display_lines(source) if _defined_command(line, document.macros)]
    return random.Random(seed).sample(pool, min(sample, len(pool)))


def _display_lines(source: str) -> list[str]:
    """Each line of the display math of a LaTeX source (its verbatim material and `\\verb` left out), without
    labels, tags and alignment marks; a line that still holds text or math delimiters is not a formula alone."""
    source = _VERB.sub(" ", _VERBATIM.sub(" ", source))
    lines = []
    for match in _DISPLAY.finditer(source):
        for line in _top_level_lines(match["body"] or match["bracketed"] or ""):
            line = " ".join(_DROPPED.sub(" ", line).split())
            if line and not _NOT_ALONE.search(line):
                lines.append(line)
    return lines


def _top_level_lines(body: str) -> list[str]:
    """An alignment's lines, split at its own `\\\\` and without its own `&`, as the reader splits them: a
    matrix or cases inside keeps its rows."""
    lines, current, depth, last = [], [], 0, 0
    for token in _STRUCTURE.finditer(body):
        text = token.group()
        depth += 1 if text == "{" or text.startswith("\\begin") else -1 if text == "}" or text.startswith(
            "\\end") else 0
        if depth == 0 and text in ("&", "\\\\") or text.startswith("\\\\["):
            current.append(body[last:token.start()])
            if text != "&":
                lines.append("".join(current))
                current = []
            else:
                current.append(" ")
            last = token.end()
    current.append(body[last:])
    return [*lines, "".join(current)]


_COMMAND = re.compile(r"\\([A-Za-z]+)")
_STRUCTURE = re.compile(r"\\begin\{[^}]*\}|\\end\{[^}]*\}|\\\\(?:\[[^\]]*\])?|\\[{}&]|[{}&]")
_COMMENT = re.compile(r"(?<!\\)%.*")
_VERBATIM = re.compile(r"\\begin\{(?P<name>" + "|".join(re.escape(name) for name in VERBATIM_ENVIRONMENTS)
                       + r")\}.*?\\end\{(?P=name)\}", re.S)
_VERB = re.compile(r"\\(?:verb|lstinline|Verb)\*?(?P<delimiter>[^A-Za-z\s{]).*?(?P=delimiter)|\\(?:verb|Verb)\{[^}]*\}")
_DISPLAY = re.compile(r"\\begin\{(?P<name>equation|align|gather|multline|eqnarray)\*?\}(?P<body>.*?)\\end\{(?P=name)\*?\}"
                      r"|(?<!\\)\\\[(?P<bracketed>.*?)(?<!\\)\\\]", re.S)
_DROPPED = re.compile(r"\\(?:label|tag\*?)\{[^{}]*\}|\\(?:nonumber|notag)\b")
_NOT_ALONE = re.compile(r"(?<!\\)\$|\\(?:begin|end)\{(?:equation|align|gather|multline|document|[A-Z]\w*)"
                        r"|\\(?:par|item)\b|\n\s*\n")


def _formulas_by_file() -> dict[str, set[int]]:
    """The formulas that occur in each file (a post's source id is `file#section`); a file without a section of its
    own (an `\\input` file of display math, read into its includer's section) holds its whole document's."""
    by_file: dict[str, set[int]] = defaultdict(set)
    by_document: dict[int, set[int]] = defaultdict(set)
    for source_id, document, formula_id in Occurrence.objects.filter(post__corpus__name=CORPUS).values_list(
            "post__source_id", "post__document", "formula_id"):
        by_file[source_id.split("#")[0]].add(formula_id)
        by_document[document].add(formula_id)
    for document, files in SourceDocument.objects.filter(corpus__name=CORPUS).values_list("pk", "files"):
        for file in files:
            if file not in by_file:
                by_file[file] = by_document[document]
    return by_file


def _search(latex: str, targets: set[int]) -> tuple[bool, bool, float | None]:
    """(hit at 1, hit in the top K, milliseconds); a query that cannot be parsed misses."""
    started = time.perf_counter()
    try:
        hits = [hit.formula_id for hit in Formula.objects.search(latex, k=K, corpus=CORPUS).hits]
    except ParseError:
        return False, False, None
    milliseconds = (time.perf_counter() - started) * 1000
    return bool(hits) and hits[0] in targets, bool(targets.intersection(hits)), milliseconds


def _successes(name: str, outcomes: list[tuple[bool, bool, float | None]]) -> dict:
    if not outcomes:
        return {}
    at_1 = mean_interval([float(first) for first, _, _ in outcomes])
    at_10 = mean_interval([float(top) for _, top, _ in outcomes])
    return {f"{name}_success_at_1": round(at_1.mean, 3), f"{name}_success_at_1_interval": [round(at_1.lo, 3),
                                                                                             round(at_1.hi, 3)],
            f"{name}_success_at_10": round(at_10.mean, 3),
            f"{name}_success_at_10_interval": [round(at_10.lo, 3), round(at_10.hi, 3)]}
