"""The stored formulas that the site's own KaTeX cannot render, checked in Node (`scripts/katex_check.mjs --site`)
with the options, rewrites and macros the pages render with: what a reader of a post would see as red source."""
from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "katex_check.mjs"


@dataclass(frozen=True)
class KatexCheck:
    formulas: int
    failed: set[int]
    """Indexes (into the formulas checked) of those KaTeX refuses."""
    undefined: dict[str, int]
    """The undefined commands and environments behind the failures, most frequent first."""


def katex_check(formulas: list[tuple[str, bool]]) -> KatexCheck:
    """(LaTeX, display) each; RuntimeError when Node or the vendored KaTeX is missing (`make setup`)."""
    lines = "".join(json.dumps({"latex": latex, "display": display}) + "\n" for latex, display in formulas)
    try:
        done = subprocess.run(["node", str(SCRIPT), "--site"], input=lines, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise RuntimeError(f"the KaTeX check could not run: {error}") from None
    *failures, summary = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return KatexCheck(summary["formulas"], {failure["index"] for failure in failures}, summary["undefined"])
