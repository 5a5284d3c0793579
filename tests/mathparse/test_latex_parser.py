"""LaTeX → SLT: Tangent-S layout conventions and the notation variants that must meet in one tree."""
import pytest

from mathparse import ParseError, parse_latex, to_slt_string


def slt(latex: str) -> str:
    return to_slt_string(parse_latex(latex).slt)


@pytest.mark.parametrize("latex, expected", [
    pytest.param(r"x^{2y}+1", "[V!x[+[N!1]],a[N!2[V!y]]]", id="superscript-then-next"),
    pytest.param(r"x_1^2", "[V!x,a[N!2],b[N!1]]", id="sub-and-superscript"),
    pytest.param(r"3.14", "[N!3.14]", id="decimal-number"),
    pytest.param(r"x^23", "[V!x[N!3],a[N!2]]", id="script-takes-one-digit"),
    pytest.param(r"\frac{a}{b}", "[O!divide,o[V!a],u[V!b]]", id="fraction"),
    pytest.param(r"\sqrt[3]{x}", "[O!root,c[N!3],w[V!x]]", id="root-with-index"),
    pytest.param(r"f(x)", "[V!f[M!()1x1,w[V!x]]]", id="parenthesised-group"),
    pytest.param(r"f(x,y)", "[V!f[M!()1x2,w[V!x[&comma;],e[V!y]]]]", id="comma-separated-elements"),
    pytest.param(r"[0,1)", "[M!&lsqb;)1x2,w[N!0[&comma;],e[N!1]]]", id="half-open-interval"),
    pytest.param(r"(a+b)^2", "[M!()1x1,a[N!2],w[V!a[+[V!b]]]]", id="script-on-group"),
    pytest.param(r"(x", "[([V!x]]", id="unpaired-paren-stays-symbol"),
    pytest.param(r"|x|+|y|", "[M!||1x1[+[M!||1x1,w[V!y]]],w[V!x]]", id="absolute-values"),
    pytest.param(r"\{1,2\}", "[M!{}1x2,w[N!1[&comma;],e[N!2]]]", id="set"),
    pytest.param(r"\sum_{k=1}^\infty f_k", "[∑[V!f,b[V!k]],o[V!∞],u[V!k[=[N!1]]]]", id="sum-limits-over-under"),
    pytest.param(r"\int_0^1 f(x)\,dx", "[∫[V!f[M!()1x1[𝑑[V!x]],w[V!x]]],o[N!1],u[N!0]]", id="integral-differential"),
    pytest.param(r"\lim_{n\to\infty} a_n", "[lim[V!a,b[V!n]],u[V!n[→[V!∞]]]]", id="lim-is-bare-with-under"),
    pytest.param(r"\sin x", "[V!sin[V!x]]", id="function-name-is-variable"),
    pytest.param(r"\sin^2 x", "[V!sin[V!x],a[N!2]]", id="function-power"),
    pytest.param(r"n!", "[V!n[!]]", id="factorial"),
    pytest.param(r"\hat{x}", "[V!x,o[^]]", id="accent-over"),
    pytest.param(r"\mathbb{R}", "[V!ℝ]", id="blackboard-letter"),
    pytest.param(r"\text{if } x", "[T!if[V!x]]", id="text"),
    pytest.param(r"f'(x)", "[V!f[M!()1x1,w[V!x]],a[′]]", id="prime"),
    pytest.param(r"f''", "[V!f,a[V!′′]]", id="double-prime-as-tangent-writes-it"),
    pytest.param(r"a\cdot b", "[V!a[⋅[V!b]]]", id="cdot"),
    pytest.param(r"\binom{n}{k}", "[M!()1x1,w[O!divide,o[V!n],u[V!k]]]", id="binomial"),
    pytest.param(r"\begin{pmatrix}a&b\\c&d\end{pmatrix}", "[M!()2x2,w[V!a,e[V!b,e[V!c,e[V!d]]]]]", id="pmatrix"),
    pytest.param(r"\begin{cases}1&x>0\\0&x\le0\end{cases}",
                 "[{[M!2x2,w[N!1,e[V!x[>[N!0]],e[N!0,e[V!x[≤[N!0]]]]]]]]", id="cases-brace-beside-table"),
    pytest.param(r"\foo{x}", "[T!foo[V!x]]", id="unknown-macro-becomes-text"),
    pytest.param(r"\topx", "[⊤[V!x]]", id="stripped-whitespace-split"),
    pytest.param(r"\fracab", "[O!divide,o[V!a],u[V!b]]", id="stripped-frac"),
    pytest.param(r"\sqrt2", "[O!root,w[N!2]]", id="stripped-sqrt"),
    pytest.param(r"a &lt; b", "[V!a[<[V!b]]]", id="html-entity"),
    pytest.param(r"x^", None, id="missing-argument"),
])
def test_layout(latex, expected):
    if expected is None:
        with pytest.raises(ParseError):
            slt(latex)
    else:
        assert slt(latex) == expected


@pytest.mark.parametrize("first, second", [
    pytest.param(r"x^2_1", r"x_1^2", id="script-order"),
    pytest.param(r"\dfrac{1}{2}", r"\frac12", id="dfrac"),
    pytest.param(r"\tfrac{1}{2}", r"{1 \over 2}", id="tfrac-over"),
    pytest.param(r"\left( x \right)", r"(x)", id="left-right"),
    pytest.param(r"\operatorname{sin} x", r"\sin x", id="operatorname"),
    pytest.param(r"\mathrm{Tr}(A)", r"\operatorname{Tr}(A)", id="mathrm-word"),
    pytest.param(r"a\,b\;c\quad d~e\! f", r"abcdef", id="spacing"),
    pytest.param(r"\displaystyle\sum\limits_{i} x", r"\sum_i x", id="displaystyle-limits"),
    pytest.param(r"f^{\prime}", r"f'", id="prime-spellings"),
    pytest.param(r"f^{\prime\prime}(x)", r"f''(x)", id="double-prime-spellings"),
    pytest.param(r"a\ge b", r"a\geq b", id="ge"),
    pytest.param(r"a\le b", r"a\leq b", id="le"),
    pytest.param(r"x\to y", r"x\rightarrow y", id="to"),
    pytest.param(r"a\ne b", r"a\neq b", id="ne"),
    pytest.param(r"a\not= b", r"a\neq b", id="not-equals"),
    pytest.param(r"\displaystylef(x)", r"\displaystyle f(x)", id="stripped-displaystyle"),
    pytest.param(r"\|x\|", r"\left\| x \right\|", id="norm"),
    pytest.param(r"||x||", r"\|x\|", id="double-bar-norm"),
    pytest.param(r"\lvert x\rvert", r"|x|", id="lvert"),
    pytest.param(r"\left(\matrix{a&b\cr c&d}\right)", r"\begin{pmatrix}a&b\\c&d\end{pmatrix}", id="plain-tex-matrix"),
    pytest.param(r"1+2+3...", r"1+2+3\ldots", id="ellipsis"),
    pytest.param(r"$x+1$", r"x+1", id="dollar-delimiters"),
    pytest.param(r"x − 1", r"x-1", id="unicode-minus"),
    pytest.param(r"\big( x \big)", r"(x)", id="sized-delimiters"),
    pytest.param(r"\big{\{} x \big{\}}", r"\{x\}", id="braced-sized-delimiters"),
])
def test_visually_identical_formulas_meet(first, second):
    assert slt(first) == slt(second)


@pytest.mark.parametrize("first, second", [
    pytest.param(r"x^2", r"x_2", id="super-vs-subscript"),
    pytest.param(r"\frac{a}{b}", r"\frac{b}{a}", id="fraction-order"),
    pytest.param(r"(a,b)", r"[a,b]", id="fence-kind"),
    pytest.param(r"\mathbb{R}", r"R", id="font-matters"),
])
def test_visually_different_formulas_differ(first, second):
    assert slt(first) != slt(second)


@pytest.mark.parametrize("latex, kind, pos", [
    pytest.param(r"x+{y", "unbalanced_braces", 2, id="open-brace"),
    pytest.param(r"x}+y", "unbalanced_braces", 1, id="close-brace"),
    pytest.param(r"a+\left(b", "unbalanced_delimiters", 2, id="left-without-right"),
    pytest.param(r"a\right)", "unbalanced_delimiters", 1, id="right-without-left"),
    pytest.param(r"\begin{foo}x\end{bar}", "unbalanced_environment", 0, id="unknown-environment-ended-by-another"),
    pytest.param(r"\begin{matrix}x", "unbalanced_environment", 0, id="unclosed-environment"),
    pytest.param(r"\begin{matrix}x\end{pmatrix}", "unbalanced_environment", 0, id="mismatched-environment"),
    pytest.param(r"\frac{a}", "missing_argument", 8, id="missing-denominator"),
    pytest.param(r"   ", "empty", 0, id="blank"),
    pytest.param(r"\,\;", "empty", 0, id="only-spacing"),
])
def test_errors_carry_kind_and_position(latex, kind, pos):
    with pytest.raises(ParseError) as caught:
        parse_latex(latex)
    assert (caught.value.kind, caught.value.pos) == (kind, pos)


def test_a_packages_own_environment_is_read_as_a_table_of_its_cells():
    slt = to_slt_string(parse_latex(r"\begin{system}[t] 4x & 3y \\ 2x & 5y \end{system}").slt)
    assert slt.startswith("[M!2x2") and "[N!4[V!x]" in slt
