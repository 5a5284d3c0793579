"""SLT → LaTeX: what each layout becomes, the round trip through the LaTeX parser, and KaTeX typesetting it."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from mathparse import ParseError, parse_latex, slt_to_latex, to_slt_string, tree_from_slt_string
from mathparse.api import strip_math_delimiters
from mathparse.latex_parser import latex_to_slt
from mathparse.tree import Node, Tree
from tests.conftest import REPO, skip_unless_ci

JUDGED = Path("arqmath") / "arqmath1-task2-judged-formulas" / "visual_id_file.tsv"
KATEX = REPO / "node_modules" / "katex"
RENDER = """
const katex = require(process.argv[1]);
const failures = [];
JSON.parse(require("fs").readFileSync(0, "utf8")).forEach((tex, index) => {
  try { katex.renderToString(tex, {throwOnError: true, displayMode: true}); }
  catch (error) { failures.push([index, tex, error.message]); }
});
process.stdout.write(JSON.stringify(failures));
"""

CASES = [
    pytest.param("[V!x[+[N!1]],a[N!2[V!y]]]", "x^{2 y} + 1", id="superscript-then-next"),
    pytest.param("[V!x,a[N!2],b[V!i]]", "x^{2}_{i}", id="both-scripts"),
    pytest.param("[V!f,a[′]]", r"f^{\prime}", id="prime"),
    pytest.param("[O!divide,o[V!a],u[V!b]]", r"\frac{a}{b}", id="fraction"),
    pytest.param("[O!root,c[N!3],w[V!x]]", r"\sqrt[{3}]{x}", id="root-with-index"),
    pytest.param("[∑[V!k],o[V!n],u[V!k[=[N!1]]]]", r"\sum_{k = 1}^{n} k", id="sum-limits"),
    pytest.param("[∑,o[V!n],a[N!2]]", r"{\sum^{n}}^{2}", id="limits-and-script-grouped"),
    pytest.param("[∫[V!f],o[N!1],u[N!0]]", r"\int_{0}^{1} f", id="integral"),
    pytest.param("[lim,u[V!x[→[N!0]]]]", r"\lim_{x \rightarrow 0}", id="limit"),
    pytest.param("[V!max,u[V!i]]", r"\operatorname*{max}_{i}", id="named-operator-limits"),
    pytest.param("[V!sin[V!x]]", r"\operatorname{sin} x", id="function-name"),
    pytest.param("[V!α[V!β]]", r"\alpha \beta", id="greek"),
    pytest.param("[V!ℝ,a[V!n]]", r"\mathbb{R}^{n}", id="double-struck"),
    pytest.param("[V!𝐱]", r"\mathbf{x}", id="bold"),
    pytest.param("[V!n̸]", r"\not n", id="negated"),
    pytest.param("[V!x,o[^]]", r"\hat{x}", id="accent"),
    pytest.param("[V!x,u[⏟,u[V!k]]]", r"\underbrace{x}_{k}", id="labelled-underbrace"),
    pytest.param("[=,o[V!d]]", r"\overset{d}{=}", id="over-symbol"),
    pytest.param("[M!()1x2,w[V!a[&comma;],e[V!b]]]", r"\left( a , b \right)", id="fenced-list"),
    pytest.param("[M!&lsqb;)1x2,w[N!0[&comma;],e[N!1]]]", r"\left[ 0 , 1 \right)", id="half-open-interval"),
    pytest.param("[M!{}1x1,w[V!x]]", r"\left\{ x \right\}", id="braces"),
    pytest.param("[M!∥∥1x1,w[V!x]]", r"\left\| x \right\|", id="norm"),
    pytest.param("[M!()2x2,w[V!a,e[V!b,e[V!c,e[V!d]]]]]", r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", id="pmatrix"),
    pytest.param("[M!2x1,w[V!a,e[V!b]]]", r"\begin{matrix} a \\ b \end{matrix}", id="bare-table"),
    pytest.param("[M!()1x2,w[V!a,e[V!b]]]", r"\begin{pmatrix} a & b \end{pmatrix}", id="row-without-commas"),
    pytest.param("[N!1[N!2]]", "1{}2", id="digits-kept-apart"),
    pytest.param("[T!if x]", r"\text{if x}", id="text"),
    pytest.param("[T!50%_{a}]", r"\text{50\%\_\{a\}}", id="text-escapes"),
    pytest.param("[&[#[%[_[$]]]]]", r"\& \# \% \_ \$", id="escaped-symbols"),
    pytest.param("[V!C,c[N!14],d[N!6]]", "{}^{14}_{6} C", id="pre-scripts"),
    pytest.param("[E![V!C],a[N!14]]", "{}^{14} C", id="empty-base"),
    pytest.param("[W!]", r"\square", id="wildcard"),
    pytest.param("[V!n[!]]", "n !", id="factorial"),
    pytest.param("[V!ж]", "ж", id="unknown-unicode-kept"),
]


@pytest.mark.parametrize("slt, latex", CASES)
def test_renders(slt, latex):
    assert slt_to_latex(tree_from_slt_string(slt)) == latex


@pytest.mark.parametrize("slt", [case.values[0] for case in CASES if case.id not in {
    "pre-scripts", "empty-base", "limits-and-script-grouped", "wildcard", "text-escapes", "row-without-commas"}])
def test_parser_reads_the_rendering_back(slt):
    assert to_slt_string(parse_latex(slt_to_latex(tree_from_slt_string(slt))).slt) == slt


def test_refuses_an_operator_tree():
    with pytest.raises(ValueError, match="Symbol Layout Trees"):
        slt_to_latex(parse_latex("x+1").opt)


@pytest.mark.parametrize("edge", ["a", "n", "w"])
def test_deep_trees_need_no_recursion(edge):
    node = Node("V!x")
    for _ in range(20_000):
        node = Node("M!()1x1" if edge == "w" else "V!x", ((edge, node),))
    assert len(slt_to_latex(Tree(node, "slt"))) > 20_000


def _round_trip_rate(latex_formulas) -> float:
    """Share of the parsable formulas whose rendered SLT parses back to the same SLT (operator trees skipped)."""
    same = total = 0
    for latex in latex_formulas:
        try:
            slt = Tree(latex_to_slt(strip_math_delimiters(latex)), "slt")
        except ParseError:
            continue
        total += 1
        same += to_slt_string(Tree(latex_to_slt(slt_to_latex(slt)), "slt")) == to_slt_string(slt)
    return same / total


def test_starter_corpus_round_trips():
    lines = (REPO / "searchapp" / "starter" / "formulas.jsonl").read_text(encoding="utf-8").splitlines()
    assert _round_trip_rate(json.loads(line)["latex"] for line in lines) >= 0.99  # measured 492 / 492


def _judged(shared_data: Path, column: int) -> list[str]:
    """One column of the judged visual ids: 1 the SLT string, 2 the LaTeX; rows without it say None."""
    rows = [line.split("\t") for line in (shared_data / JUDGED).read_text(encoding="utf-8").splitlines()]
    return [row[column].strip() for row in rows if len(row) == 3 and row[column].strip() != "None"]


def test_judged_formulas_round_trip(shared_data):
    assert _round_trip_rate(_judged(shared_data, 2)) >= 0.98  # measured 8,350 of 8,456 parsable (98.7 %)


@pytest.fixture(scope="module")
def katex() -> Path:
    if shutil.which("node") is None or not KATEX.is_dir():
        skip_unless_ci(f"node or KaTeX ({KATEX}) not installed")
    return KATEX


def _katex_failures(katex: Path, texts: list[str]) -> list:
    done = subprocess.run(["node", "-e", RENDER, str(katex)], input=json.dumps(texts), capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_katex_typesets_the_table(katex):
    assert _katex_failures(katex, [case.values[1] for case in CASES]) == []


def test_katex_typesets_every_formula_known_only_as_slt(shared_data, katex):
    texts = []
    for text in _judged(shared_data, 1):
        try:
            texts.append(slt_to_latex(tree_from_slt_string(text)))
        except ParseError:  # 4 strings of the file are CSV-quoted and not SLT strings
            continue
    assert len(texts) == 1439
    assert _katex_failures(katex, texts) == []
