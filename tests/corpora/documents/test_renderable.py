import json
import shutil
import subprocess

import pytest

from corpora.documents.renderable import katex_names, renderable
from mathparse import parse, to_slt_string
from tests.conftest import REPO, skip_unless_ci

KATEX_CHECK = REPO / "scripts" / "katex_check.mjs"
VENDORED_KATEX = REPO / "static" / "vendor" / "katex" / "katex.min.js"


def run_katex_check(lines: str) -> subprocess.CompletedProcess:
    node = shutil.which("node") or ""
    if not node or not VENDORED_KATEX.is_file():
        skip_unless_ci("node and the vendored KaTeX (scripts/setup.sh) are needed to render formulas")
    return subprocess.run([node, str(KATEX_CHECK)], input=lines, capture_output=True, text=True, timeout=300)


def katex_failures(formulas: list[str], display: bool = False) -> dict[str, str]:
    """Each formula the site's KaTeX cannot render → its error, from scripts/katex_check.mjs."""
    result = run_katex_check("".join(json.dumps({"latex": latex, "display": display}) + "\n" for latex in formulas))
    assert result.returncode == 0, result.stderr
    *failures, summary = (json.loads(line) for line in result.stdout.splitlines())
    assert summary["formulas"] == len(formulas) and summary["failed"] == len(failures)
    return {formulas[failure["index"]]: failure["error"] for failure in failures}


PLAIN = [
    pytest.param("x^2+1", id="letters"),
    pytest.param(r"\frac{a}{b} + \sqrt[3]{x}", id="known-commands"),
    pytest.param(r"\sum_{i=1}^{n} i = \binom{n+1}{2}", id="scripts"),
    pytest.param(r"\left( x \right) \Bigl[ y \Bigr]", id="delimiters"),
    pytest.param(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", id="inline-environment"),
    pytest.param(r"\text{if } x > 0 \text{ and Stra\ss e}", id="text-with-a-text-symbol"),
    pytest.param(r"\Bbbk \coloneqq \mathscr{A} \bm{x}", id="amssymb-mathtools-bm"),
    pytest.param(r"\operatorname{Tr} A \, \! \; \{ \}", id="operatorname-and-control-symbols"),
]


@pytest.mark.parametrize("latex", PLAIN)
def test_a_formula_katex_renders_is_returned_as_it_is(latex):
    assert renderable(latex) == latex


@pytest.mark.parametrize("latex", [pytest.param("x^2+1", id="no-command"), pytest.param(r"\alpha+\beta", id="known")])
def test_a_plain_formula_is_not_rewritten(latex):
    assert renderable(latex) is latex  # the set lookup decides; no rewriting pass builds a copy


REWRITTEN = [
    pytest.param(r"\bbbk", r"\operatorname{bbbk}", id="unknown-command"),
    pytest.param(r"x + \ensuremath{\mathrm{i}} y", r"x + {\mathrm{i}} y", id="ensuremath-leaves-its-argument"),
    pytest.param(r"\lefteqn{Foldl~f~e~Nil}\quad", r"{Foldl~f~e~Nil}\quad", id="lefteqn-leaves-its-argument"),
    pytest.param(r"\Tr A", r"\operatorname{Tr} A", id="operator-name"),
    pytest.param(r"\abs{x}", r"\operatorname{abs}{x}", id="its-argument-stays-a-group"),
    pytest.param(r"x^\foo + y_\foo", r"x^{\operatorname{foo}} + y_{\operatorname{foo}}", id="sub-and-superscript"),
    pytest.param(r"\frac\foo\baz", r"\frac{\operatorname{foo}}{\operatorname{baz}}", id="arguments-of-frac"),
    pytest.param(r"\frac\alpha\foo", r"\frac\alpha{\operatorname{foo}}", id="second-argument"),
    pytest.param(r"\frac12\foo", r"\frac12\operatorname{foo}", id="after-the-arguments"),
    pytest.param(r"\mathbb\foo", r"\mathbb{\operatorname{foo}}", id="argument-of-mathbb"),
    pytest.param(r"\left\lfoo x \right\rfoo", r"\left.\operatorname{lfoo} x \right.\operatorname{rfoo}",
                 id="delimiter"),
    pytest.param(r"\my@name x", r"\operatorname{my@name} x", id="at-in-a-name"),
    pytest.param(r"a\@ b\/c\-d", "a bcd", id="invisible-symbols"),
    pytest.param(r"\text{a \foo b}", r"\text{a \textrm{foo} b}", id="inside-text"),
    pytest.param(r"\text{a $\foo$ b}", r"\text{a $\operatorname{foo}$ b}", id="math-inside-text"),
    pytest.param(r"\ss + \text{\alpha}", r"\text{\ss} + \text{$\alpha$}", id="symbols-of-the-other-mode"),
    pytest.param(r"\ce{NO_$x$} + \ce{$\supset$I}", r"\operatorname{ce}{NO_ x } + \operatorname{ce}{ \supset I}",
                 id="dollars-of-a-text-argument"),
    pytest.param(r"#1 \gets #2", r"\#1 \gets \#2", id="macro-parameters"),
    pytest.param(r"\begin{multline} a + b \\ + c \end{multline}", r"\begin{gathered} a + b \\ + c \end{gathered}",
                 id="environment-katex-lacks"),
    pytest.param(r"\begin{flalign*} a &= b \end{flalign*}", r"\begin{aligned} a &= b \end{aligned}",
                 id="starred-environment"),
    pytest.param(r"\begin{psmallmatrix} a & b \end{psmallmatrix}", r"\begin{pmatrix} a & b \end{pmatrix}",
                 id="environment-alias"),
    pytest.param(r"\begin{IEEEeqnarray}{rCl} a & = & b \end{IEEEeqnarray}",
                 r"\begin{aligned}{rCl} a & = & b \end{aligned}", id="unknown-environment"),
]


@pytest.mark.parametrize("latex, expected", REWRITTEN)
def test_what_katex_lacks_is_written_as_what_it_has(latex, expected):
    assert renderable(latex) == expected


def test_katex_renders_every_rewritten_formula_and_none_before():
    written = [str(param.values[0]) for param in REWRITTEN]
    assert set(katex_failures(written)) == set(written)
    assert katex_failures([renderable(latex) for latex in written]) == {}


@pytest.mark.parametrize("latex", [
    pytest.param(r"\begin{align} a &= b \end{align}", id="align"),
    pytest.param(r"\begin{split} a &= b \end{split}", id="split"),
    pytest.param(r"\begin{CD} A @>>> B \end{CD}", id="commutative-diagram"),
])
def test_an_environment_katex_sets_only_in_display_mode_is_kept(latex):
    assert renderable(latex) == latex  # the formula of such an environment is a display one
    assert katex_failures([latex], display=True) == {}


@pytest.mark.parametrize("latex, name", [
    pytest.param(r"\Tr A", "Tr", id="operator"),
    pytest.param(r"\sgn(x)", "sgn", id="function"),
    pytest.param(r"x^\foo", "foo", id="superscript"),
])
def test_the_formula_parser_reads_a_rewritten_name_as_one_name(latex, name):
    assert f"!{name}" in to_slt_string(parse(renderable(latex), "latex").slt)


def test_the_names_are_those_of_the_installed_katex():
    package = REPO / "node_modules" / "katex" / "package.json"
    if not package.is_file():
        skip_unless_ci("node_modules/katex is missing (scripts/setup.sh installs it)")
    assert katex_names().version == json.loads(package.read_text())["version"]


def test_the_names_hold_commands_of_both_modes_and_environments():
    names = katex_names()
    assert names.math["frac"] == "2" and names.math["alpha"] == "0" and "ss" not in names.math
    assert names.text["ss"] == "0" and "alpha" not in names.text
    assert names.environments["aligned"] == "inline" and names.environments["align"] == "display"


def test_katex_check_reports_each_failure_and_the_undefined_names():
    lines = "".join(json.dumps(item) + "\n" for item in (
        {"latex": r"\frac12", "display": False}, {"latex": r"\bbbk + \bbbk", "display": True},
        {"latex": r"\begin{align}x\end{align}", "display": False}, {"latex": r"\begin{align}x\end{align}",
                                                                     "display": True}))
    result = run_katex_check(lines)
    *failures, summary = (json.loads(line) for line in result.stdout.splitlines())
    assert [(failure["index"], failure["error"]) for failure in failures] == [
        (1, r"Undefined control sequence: \bbbk"), (2, "{align} can be used only in display mode.")]
    assert (summary["formulas"], summary["failed"], summary["undefined"]) == (4, 2, {r"\bbbk": 1})


def test_katex_check_refuses_a_line_that_is_not_a_formula():
    result = run_katex_check('{"latex": "x"}\n["x"]\n')
    assert result.returncode == 2 and "line 2" in result.stderr


def test_the_sites_own_macros_are_kept():
    """`\\qvar` is drawn by the site's KaTeX macros (render_math.js), so a query variable stays one."""
    assert renderable(r"\qvar{x}^2 + \qvar@construct{y}") == r"\qvar{x}^2 + \qvar@construct{y}"
