"""English-Wikipedia formulas of npm `mathoid-texvcjs` (`en-wiki-formulae-good.json`): `{md5: latex}`.

Fetched by `make wiki-formulas`, never committed: the package is GPL-2.0 and the formulas CC BY-SA, so they
are training data only. Five entries are blank (`<math> </math>` in an article): they hold no formula and are
left out; an entry whose value is not a string is a problem naming its entry number.
"""
from __future__ import annotations

import json
from pathlib import Path

from corpora.tolerant import Problem, Read, read_text


def parse_wiki_formulas(text: str) -> Read[dict[str, str]]:
    """{md5: latex}; ValueError when the text is not one JSON object."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"invalid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    if not isinstance(data, dict):
        raise ValueError("expected one JSON object {md5: latex}")
    read: Read[dict[str, str]] = Read({})
    for number, (md5, latex) in enumerate(data.items(), start=1):
        if not isinstance(latex, str):
            read.problems.append(Problem(number, f"entry {md5!r}: expected a LaTeX string"))
        elif latex.strip():
            read.value[md5] = latex
    return read


def read_wiki_formulas(path: str | Path) -> Read[dict[str, str]]:
    try:
        return parse_wiki_formulas(read_text(path))
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None
