"""The starter corpus a new MathSearch install indexes first: well-formed posts whose formulas render and extract."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from latex2mathml.converter import convert

from mathparse.extraction import extract_formulas

STARTER = Path(__file__).resolve().parents[2] / "searchapp" / "starter" / "formulas.jsonl"
KEYS = {"id": str, "title": str, "body": str, "url": str, "tags": list, "latex": str}
AREAS = ("algebra", "calculus", "linear-algebra", "probability", "statistics", "number-theory", "geometry", "physics")
MIN_RECORDS, MIN_PER_AREA = 300, 30
DESCRIPTION_CHARS = (40, 600)
WIKIPEDIA = "https://en.wikipedia.org/wiki/"
# latex2mathml passes an unknown command through as text, e.g. `<mi>\fracc</mi>`.
UNCONVERTED = re.compile(r">(\\[A-Za-z]+)")


def _load() -> list[dict]:
    with open(STARTER, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


RECORDS = _load() if STARTER.is_file() else []
BY_RECORD = [pytest.param(record, id=record.get("id", "?")) for record in RECORDS]


def brace_problem(latex: str) -> str | None:
    """Why the braces of `latex` do not balance (escaped `\\{` `\\}` are literal), or None."""
    depth = 0
    for position, char in enumerate(re.sub(r"\\[{}]", "  ", latex)):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return f"unopened '}}' at {position}"
    return f"{depth} unclosed '{{'" if depth else None


def environment_problem(latex: str) -> str | None:
    """Why the `\\begin{…}`/`\\end{…}` pairs of `latex` do not nest, or None."""
    open_envs: list[str] = []
    for kind, name in re.findall(r"\\(begin|end)\{([^}]*)\}", latex):
        if kind == "begin":
            open_envs.append(name)
        elif not open_envs or open_envs.pop() != name:
            return f"\\end{{{name}}} does not close the innermost environment"
    return f"\\begin{{{open_envs[-1]}}} is never closed" if open_envs else None


def description(record: dict) -> str:
    return record["body"].removesuffix(f"$${record['latex']}$$").strip()


@pytest.mark.parametrize(
    ("latex", "braces", "environments"),
    [
        pytest.param(r"\frac{a}{b}", None, None, id="balanced"),
        pytest.param(r"\left\{ x \right\}", None, None, id="escaped-braces-are-text"),
        pytest.param(r"\frac{a}{b", "1 unclosed '{'", None, id="unclosed-brace"),
        pytest.param(r"a}{b", "unopened '}' at 1", None, id="unopened-brace"),
        pytest.param(r"\begin{pmatrix} a \end{pmatrix}", None, None, id="matching-environment"),
        pytest.param(
            r"\begin{cases} a \end{pmatrix}", None, r"\end{pmatrix} does not close the innermost environment",
            id="mismatched-environment",
        ),
        pytest.param(r"\begin{aligned} a", None, r"\begin{aligned} is never closed", id="unclosed-environment"),
    ],
)
def test_checkers_find_broken_latex(latex, braces, environments):
    assert brace_problem(latex) == braces
    assert environment_problem(latex) == environments


def test_corpus_is_large_enough():
    assert len(RECORDS) >= MIN_RECORDS, f"{STARTER} has {len(RECORDS)} records"


@pytest.mark.parametrize("field", [pytest.param(field, id=field) for field in ("id", "title", "latex")])
def test_field_is_unique(field):
    repeated = [value for value, count in Counter(record[field] for record in RECORDS).items() if count > 1]
    assert repeated == []


@pytest.mark.parametrize("area", [pytest.param(area, id=area) for area in AREAS])
def test_area_is_covered(area):
    assert sum(record["tags"][0] == area for record in RECORDS) >= MIN_PER_AREA


def test_every_line_is_a_json_object():
    with open(STARTER, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            assert isinstance(json.loads(line), dict), f"line {number}"


@pytest.mark.parametrize("record", BY_RECORD)
def test_record_shape(record):
    assert set(record) == set(KEYS)
    assert all(isinstance(record[key], kind) for key, kind in KEYS.items())
    assert re.fullmatch(r"starter-\d{4}", record["id"])
    assert record["title"].strip() == record["title"] != ""
    assert record["url"].startswith(WIKIPEDIA) and " " not in record["url"]
    assert record["tags"] and all(isinstance(tag, str) and re.fullmatch(r"[a-z-]+", tag) for tag in record["tags"])
    assert record["tags"][0] in AREAS
    assert len(set(record["tags"])) == len(record["tags"])


@pytest.mark.parametrize("record", BY_RECORD)
def test_body_is_a_description_then_the_formula(record):
    assert record["body"].endswith(f"$${record['latex']}$$")
    assert record["body"].count("$") == 4, "the displayed formula is the only math in the body"
    low, high = DESCRIPTION_CHARS
    assert low <= len(description(record)) <= high


@pytest.mark.parametrize("record", BY_RECORD)
def test_latex_is_well_formed(record):
    latex = record["latex"]
    assert latex.strip() == latex != ""
    assert brace_problem(latex) is None
    assert environment_problem(latex) is None
    assert "\\begin{align}" not in latex and "\\begin{align*}" not in latex, "KaTeX needs aligned"


@pytest.mark.parametrize("record", BY_RECORD)
def test_latex_converts_to_mathml(record):
    mathml = convert(record["latex"])
    assert UNCONVERTED.findall(mathml) == []


@pytest.mark.parametrize("record", BY_RECORD)
def test_indexer_extracts_exactly_the_formula(record):
    found = extract_formulas(record["body"])
    assert [(formula.latex, formula.display) for formula in found] == [(record["latex"], True)]
