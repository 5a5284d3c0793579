"""Notation normalisation: one formula written two ways gives one SLT and one OPT.

The first formula of every pair is a real one, copied from the ARQMath files in `../shared/data` (the judged
visual ids' whitespace-stripped LaTeX, the topic files, the thread pages' `alttext`); the second writes the same
notation the other way (a macro for a Unicode character, `\\frac` for `\\dfrac`, plain parentheses for sized ones,
and so on). The last table pairs thread-page LaTeX with the LaTeXML MathML made of it.
"""
import pytest

from mathparse import parse_latex, parse_mathml, to_slt_string
from mathparse.api import FormulaGraphs
from mathparse.opt_nodes import serialize


def _trees(graphs: FormulaGraphs) -> tuple[str, str]:
    assert graphs.opt is not None, graphs.opt_error
    return to_slt_string(graphs.slt), serialize(graphs.opt.root)


NAMED_FUNCTIONS = [
    pytest.param(r"\operatorname{lcm}(a,b)=\frac{ab}{\gcd(a,b)}", r"\mathrm{lcm}(a,b)=\frac{ab}{\gcd(a,b)}",
                 id="operatorname-mathrm-lcm"),
    pytest.param(r"\text{lcm}(a,b)=\frac{ab}{\gcd(a,b)}", r"\operatorname{lcm}(a,b)=\frac{ab}{\gcd(a,b)}",
                 id="text-operatorname-lcm"),
    pytest.param(r"\text{gcd}(m,n)=1", r"\gcd(m,n)=1", id="text-gcd-macro"),
    pytest.param(r"\operatorname{gcd}(a,b)=1", r"\gcd(a,b)=1", id="operatorname-gcd-macro"),
    pytest.param(r"gcd(n_1,n_{2})=1", r"\gcd(n_1,n_{2})=1", id="plain-gcd-macro"),
    pytest.param(r"\textrm{gcd}(a,n)=1", r"{\rm gcd}(a,n)=1", id="textrm-rm-gcd"),
    pytest.param(r"W={\rm sgn}(Y_{1})Y", r"W=\operatorname{sgn}(Y_{1})Y", id="rm-operatorname-sgn"),
    pytest.param(r"\mathrm{Hom}(\mathrm{Mat}_{2\times2},\mathbb{Q}_{\ell})",
                 r"\operatorname{Hom}(\operatorname{Mat}_{2\times2},\mathbb{Q}_{\ell})", id="mathrm-operatorname-hom"),
    pytest.param(r"\mathrm{ord}(ab)", r"{\rm ord}(ab)", id="mathrm-rm-ord"),
    pytest.param(r"\text{Dom}(f)", r"\textrm{Dom}(f)", id="text-textrm-dom"),
    pytest.param(r"v\in\mathrm{span}(A)", r"v\in\operatorname{span}(A)", id="mathrm-operatorname-span"),
    pytest.param(r"\mathrm{sinc}(x)=\sin(\pi x)/(\pi x)", r"\operatorname{sinc}(x)=\sin(\pi x)/(\pi x)",
                 id="mathrm-operatorname-sinc"),
    pytest.param(r"H_{b,1}(n)={\rm add}_{b}(n)=b+n", r"H_{b,1}(n)=\mathrm{add}_{b}(n)=b+n", id="rm-mathrm-subscripted"),
    pytest.param(r"\operatorname{sup}(xf)\cdot\operatorname{sup}(p-xf)", r"\sup(xf)\cdot\sup(p-xf)",
                 id="operatorname-sup-macro"),
    pytest.param(r"\operatorname{dim}R=\operatorname{dim}R", r"\dim R=\dim R", id="operatorname-dim-macro"),
    pytest.param(r"S/\operatorname{ker}f", r"S/\ker f", id="operatorname-ker-macro"),
    pytest.param(r"\frac{\mathrm{d}y}{\mathrm{d}x}+\mathrm{f}(x)\,y=0", r"\frac{\text{d}y}{\text{d}x}+\operatorname{f}(x)\,y=0",
                 id="single-letter-mathrm-text-operatorname"),
    pytest.param(r"f_{X}\left(x\right)=\int_{0}^{\infty}f\left(x,y\right){\rm d}y",
                 r"f_{X}(x)=\int_{0}^{\infty}f(x,y)\mathrm{d}y", id="rm-d-mathrm-d"),
    pytest.param(r"\operatorname{f}(x)=x^2", r"\textrm{f}(x)=x^2", id="operatorname-textrm-f"),
    pytest.param(r"e(G)=\text{lcm}(n_1,n_2,\cdots,n_k)", r"e(G)=lcm(n_1,n_2,\cdots,n_k)", id="text-plain-lcm"),
    pytest.param(r"\lim_{x\to\infty}\mathrm{erf}(x)=1", r"\lim_{x\to\infty}\operatorname{erf}(x)=1",
                 id="mathrm-operatorname-erf"),
    pytest.param(r"\mathrm{Mat}(2\times2,\mathbb{R})", r"{\rm Mat}(2\times2,\mathbb{R})", id="mathrm-rm-mat"),
    pytest.param(r"n^{\rm th}", r"n^{\mathrm{th}}", id="rm-mathrm-superscript-word"),
    pytest.param(r"\operatorname{Int}_{X}(E)", r"\mathrm{Int}_{X}(E)", id="operatorname-mathrm-scripted"),
]

PLAIN_LETTER_OPERATORS = [
    pytest.param(r"det(AB)=det(A)det(B)", r"\det(AB)=\det(A)\det(B)", id="det"),
    pytest.param(r"sin(nx)", r"\sin(nx)", id="sin-paren"),
    pytest.param(r"g(s)=\int_{0}^{s}cos(t^{2})\,dt", r"g(s)=\int_{0}^{s}\cos(t^{2})\,dt", id="cos-in-integral"),
    pytest.param(r"\frac{ln(n)^{2}}{4n^{2}}", r"\frac{\ln(n)^{2}}{4n^{2}}", id="ln-paren-scripted"),
    pytest.param(r"R_3=\frac{max(R_1,R_2)}{min(R_1,R_2)}", r"R_3=\frac{\max(R_1,R_2)}{\min(R_1,R_2)}", id="max-min"),
    pytest.param(r"\lim_{n→∞}log(3^n)", r"\lim_{n\to\infty}\log(3^n)", id="log-unicode-arrow"),
    pytest.param(r"ln(1)-ln(3)", r"\ln(1)-\ln(3)", id="ln-twice"),
    pytest.param(r"M_{n}=\frac{e^{\theta S_{n}}}{cosh(\theta)^{n}}", r"M_{n}=\frac{e^{\theta S_{n}}}{\cosh(\theta)^{n}}",
                 id="cosh-not-cos-h"),
    pytest.param(r"sinx", r"\sin x", id="sin-glued-to-its-argument"),
    pytest.param(r"-1\leqsinx\leq1", r"-1\leq\sin x\leq1", id="sin-glued-between-relations"),
    pytest.param(r"sin^{2}(x)=1-cos(2x)", r"\sin^{2}(x)=1-\cos(2x)", id="sin-squared"),
    pytest.param(r"log_{a}b\cdot log_{b}c", r"\log_{a}b\cdot\log_{b}c", id="log-with-base"),
    pytest.param(r"lim_{n→∞}a_{n}=f(x_{0})", r"\lim_{n\to\infty}a_{n}=f(x_{0})", id="lim-takes-limits"),
    pytest.param(r"\sum log(j)=nlogn-n+O(logn)", r"\sum\log(j)=n\log n-n+O(\log n)", id="log-glued"),
    pytest.param(r"E=1/2\cdot a\cdot b\cdot sinC", r"E=1/2\cdot a\cdot b\cdot\sin C", id="sin-capital-argument"),
    pytest.param(r"5^{33333}≡r(mod11)", r"5^{33333}\equiv r(\bmod 11)", id="mod"),
    pytest.param(r"\sinx:=\sum_{n=0}^{\infty}(-1)^n\frac{x^{2n+1}}{(2n+1)!}",
                 r"\sin x:=\sum_{n=0}^{\infty}(-1)^n\frac{x^{2n+1}}{(2n+1)!}", id="run-together-sin-macro"),
]

FRACTIONS_AND_DELIMITERS = [
    pytest.param(r"\dfrac{x^2+1}{x}=x+\dfrac{1}{x}", r"\frac{x^2+1}{x}=x+\frac{1}{x}", id="dfrac"),
    pytest.param(r"\tfrac{1}{n}F(n)\sim n^{b}", r"\frac{1}{n}F(n)\sim n^{b}", id="tfrac"),
    pytest.param(r"a_i=2\cos\dfrac{\pii}{n+1}", r"a_i=2\cos\frac{\pi i}{n+1}", id="dfrac-run-together-pi"),
    pytest.param(r"z=\dfrac{x}{\|x\|}", r"z=\cfrac{x}{\|x\|}", id="dfrac-cfrac"),
    pytest.param(r"\dfrac{n+1}2", r"{n+1\over 2}", id="dfrac-over"),
    pytest.param(r"\int_0^{\infty}\Big({{\sinx}\over{x}}\Big)^2dx={\pi\over2}.",
                 r"\int_0^{\infty}\left(\frac{\sin x}{x}\right)^2dx=\frac{\pi}{2}.", id="over-big-parens"),
    pytest.param(r"{1\over 3}\cdot{\sin(x/3)\over x/3}", r"\frac{1}{3}\cdot\frac{\sin(x/3)}{x/3}",
                 id="over-keeps-parens-of-numerator"),
    pytest.param(r"\log\left(\log\left(\log(n+1)\right)\right)", r"\log(\log(\log(n+1)))", id="left-right-nested"),
    pytest.param(r"\left(\frac{x_1+x_2}{2},\frac{y_1+y_2}{2}\right).", r"(\frac{x_1+x_2}{2},\frac{y_1+y_2}{2}).",
                 id="left-right-pair"),
    pytest.param(r"\big(650(1+0.029)\big)(1+0.029)=650(1+0.029)^2", r"(650(1+0.029))(1+0.029)=650(1+0.029)^2",
                 id="big-parens"),
    pytest.param(r"\lim\limits_{n\to\infty}\dfrac{27^n(n!)^3}{\big(3n+1\big)!}",
                 r"\lim_{n\to\infty}\frac{27^n(n!)^3}{(3n+1)!}", id="big-paren-dfrac-limits"),
    pytest.param(r"f\big([a,b]\big)\subset[\,f(x_1),f(x_2)]", r"f\Big([a,b]\Big)\subset[f(x_1),f(x_2)]",
                 id="big-Big-brackets"),
    pytest.param(r"\bigl(x+y\bigr)^{2}", r"\left(x+y\right)^{2}", id="bigl-bigr"),
    pytest.param(r"F(\lambda)=\pi\log\left(\sqrt{\lambda}+1\right)", r"F(\lambda)=\pi\log\biggl(\sqrt{\lambda}+1\biggr)",
                 id="left-biggl"),
    pytest.param(r"c_{n}=\left(1-\dfrac{\ln{n}}{2n}\right)", r"c_{n}=(1-\frac{\ln n}{2n})", id="left-dfrac-braced-arg"),
    pytest.param(r"\left.f\right|_{A}:A\to W", r"f|_{A}:A\to W", id="left-dot-right-bar"),
]

SPACING_AND_STYLE = [
    pytest.param(r"\int_{0}^{1}\frac{\log(x)\log^2(1-x)}{x}\,dx", r"\int_{0}^{1}\frac{\log(x)\log^2(1-x)}{x}dx",
                 id="thin-space"),
    pytest.param(r"\int_{-T}^{T}\cos(x)\;dx=2\int_{0}^{T}\cos(x)\;dx", r"\int_{-T}^{T}\cos(x)\:dx=2\int_{0}^{T}\cos(x)dx",
                 id="thick-medium-space"),
    pytest.param(r"a=p+qi;\;b=r+si", r"a=p+qi;\quad b=r+si", id="semicolon-quad"),
    pytest.param(r"E_{\theta}[\bar{X}]=\theta\qquad,\quad\theta>0", r"E_{\theta}[\bar{X}]=\theta,\theta>0", id="qquad"),
    pytest.param(r"\lnot P(k),\ k<n,\,", r"\lnot P(k),k<n,", id="control-space"),
    pytest.param(r"\int_0^1\frac{dx}{x^p}\!", r"\int_0^1\frac{dx}{x^p}", id="negative-space"),
    pytest.param(r"\displaystyle\frac{n+1}{n+2}=1-\frac{1}{n+2}", r"\frac{n+1}{n+2}=1-\frac{1}{n+2}", id="displaystyle"),
    pytest.param(r"\displaystyle\theta=\frac12\arcsin\frac34", r"\textstyle\theta=\frac12\arcsin\frac34", id="textstyle"),
    pytest.param(r"\sum\limits_{n=1}^\infty\frac{\sin(n)}{n}", r"\sum_{n=1}^\infty\frac{\sin(n)}{n}", id="limits"),
    pytest.param(r"\lim\limits_{x\to+\infty}\log_a(x)", r"\lim_{x\to+\infty}\log_a(x)", id="lim-limits"),
    pytest.param(r"F^{A}\cong\prod\limits_{a\in A}F", r"F^{A}\cong\prod\nolimits_{a\in A}F", id="limits-nolimits"),
    pytest.param(r"\displaystyle\int\limits_{s}^{\infty}e^{-mt}dm=\frac{e^{-st}}{t}",
                 r"\int_{s}^{\infty}e^{-mt}dm=\frac{e^{-st}}{t}", id="displaystyle-int-limits"),
    pytest.param(r"\sin\,t=t\left(1-t^{2}/3!+t^{4}/5!-t^{6}/7!+\cdots\right)",
                 r"\sin t=t(1-t^{2}/3!+t^{4}/5!-t^{6}/7!+\cdots)", id="space-after-sin"),
    pytest.param(r"(n-\phi(n))=\sqrt{n}\ ", r"(n-\phi(n))=\sqrt{n}", id="trailing-control-space"),
    pytest.param(r"\hskip 35.565945pt=3^{2k+3}-3", r"=3^{2k+3}-3", id="hskip-dimension"),
    pytest.param(r"{\bf Q}[a,b,c,\tilde{\alpha}]", r"\mathbf{Q}[a,b,c,\tilde{\alpha}]", id="bf-mathbf"),
    pytest.param(r"F\left[{\cal P}\frac{1}{|x|}\right]", r"F[\mathcal{P}\frac{1}{|x|}]", id="cal-mathcal"),
    pytest.param(r"\mathbb{R^{2}}", r"\mathbb{R}^{\mathbb{2}}", id="font-reaches-scripts"),
    pytest.param(r"\color{red}{\frac{1}{2^{s}}}+\frac{1}{3^{s}}", r"\frac{1}{2^{s}}+\frac{1}{3^{s}}", id="colour"),
    pytest.param(r"\color[rgb]{0,1,0}{b\geq a}", r"b\geq a", id="colour-with-model"),
]

UNICODE_AND_MACROS = [
    pytest.param(r"\sum_{k=0}^{∞}a_k", r"\sum_{k=0}^{\infty}a_k", id="infinity"),
    pytest.param(r"∑_{k=0}^{\infty}a_k", r"\sum_{k=0}^{\infty}a_k", id="sum-character-takes-limits"),
    pytest.param(r"\lim_{x→−∞}f(x)=1", r"\lim_{x\to-\infty}f(x)=1", id="arrow-and-unicode-minus"),
    pytest.param(r"p(y)=\displaystyle∫p(y|x)p(x)dx.", r"p(y)=\int p(y|x)p(x)dx.", id="integral-character"),
    pytest.param(r"V_t=(1−γ)^tV_0", r"V_t=(1-\gamma)^tV_0", id="gamma-minus"),
    pytest.param(r"x^3≡−1(\text{mod}λ^3)", r"x^3\equiv-1(\bmod\lambda^3)", id="equiv-lambda-mod"),
    pytest.param(r"2×-3=-6", r"2\times-3=-6", id="times"),
    pytest.param(r"φ(n)=2,3,4,6,8,12", r"\varphi(n)=2,3,4,6,8,12", id="varphi"),
    pytest.param(r"x\in\mathbb{R},x+\frac{1}{x}≥2.", r"x\in\mathbb{R},x+\frac{1}{x}\geq2.", id="geq"),
    pytest.param(r"f:(0,∞)→R", r"f:(0,\infty)\to R", id="interval-arrow"),
    pytest.param(r"α", r"\alpha", id="alpha"),
    pytest.param(r"a≤b", r"a\le b", id="le"),
    pytest.param(r"a\leq b", r"a\leqslant b", id="leqslant"),
    pytest.param(r"k\geqslant 1", r"k⩾1", id="geqslant-character"),
    pytest.param(r"\sum_{n\geqslant1}\frac{1}{\sqrt{n}}", r"\sum_{n\ge1}\frac{1}{\sqrt{n}}", id="geqslant-ge"),
    pytest.param(r"x≠y", r"x\neq y", id="neq"),
    pytest.param(r"z^{n}=1\iff z=\exp\left(\frac{2k\pi i}{n}\right)",
                 r"z^{n}=1\Leftrightarrow z=\exp(\frac{2k\pi i}{n})", id="iff-leftrightarrow"),
    pytest.param(r"c\mid d\implies c\leq d", r"c\mid d\Rightarrow c\leq d", id="implies-rightarrow"),
    pytest.param(r"A^{-1}A=\mathbb{I}\LongrightarrowAA^{-1}=\mathbb{I}.", r"A^{-1}A=\mathbb{I}\Rightarrow AA^{-1}=\mathbb{I}.",
                 id="long-arrow-run-together"),
    pytest.param(r"1^2+2^2+3^2+\cdots+n^2", r"1^2+2^2+3^2+\ldots+n^2", id="cdots-ldots"),
    pytest.param(r"d_{1}+\cdots+d_{k}=n", r"d_{1}+\dots+d_{k}=n", id="cdots-dots"),
    pytest.param(r"\{0,\ldots,n-1\}", r"\{0,…,n-1\}", id="ldots-character"),
    pytest.param(r"\mathcal{F}^{\bullet}", r"\mathcal{F}^{∙}", id="bullet"),
    pytest.param(r"f′(x)=2x", r"f'(x)=2x", id="prime-character"),
    pytest.param(r"(p−1)!=−1", r"(p-1)!=-1", id="minus-character"),
    pytest.param(r"0\not\sim 1", r"0≁1", id="not-sim"),
    pytest.param(r"p\not\mid(q-1)", r"p\nmid(q-1)", id="not-mid"),
    pytest.param(r"\underline{A}", r"\underline A", id="underline"),
    pytest.param(r"||A||_{2}<=n^{1/2}||A||_{\infty}", r"\|A\|_{2}\leq n^{1/2}\|A\|_{\infty}", id="typed-leq-and-norm"),
    pytest.param(r"n>>1", r"n\gg1", id="typed-gg"),
    pytest.param(r"x_{1}\colon=a&gt;0", r"x_{1}:=a>0", id="colon-equals-and-entity"),
    pytest.param(r"\mathbb{R}^{&gt;0}", r"\mathbb{R}^{>0}", id="html-entity"),
    pytest.param(r"f(x)=\{f(j):j\in X_{&lt;i}\}", r"f(x)=\{f(j):j\in X_{<i}\}", id="html-entity-in-subscript"),
]

RUN_TOGETHER_MACROS = [
    pytest.param(r"\displaystylef(x)", r"\displaystyle f(x)", id="displaystyle-f"),
    pytest.param(r"\alphax+\betay", r"\alpha x+\beta y", id="alpha-beta"),
    pytest.param(r"\leqn", r"\leq n", id="leq-n"),
    pytest.param(r"A_0\toA_1\to\cdots\toA_{p-1}\toA_0", r"A_0\to A_1\to\cdots\to A_{p-1}\to A_0", id="to-A"),
    pytest.param(r"\int_0^{\infty}{\sinx\overx}dx={\pi\over2}", r"\int_0^{\infty}{\sin x\over x}dx={\pi\over 2}",
                 id="sinx-overx"),
    pytest.param(r"\lim\limits_{x\rightarrow0}\dfrac{\sinx}{x}=1.", r"\lim_{x\rightarrow 0}\frac{\sin x}{x}=1.",
                 id="sinx-dfrac"),
    pytest.param(r"\int_0^1\frac{(1-x)\log(1-x)}{x\logx}\,{\rmd}x",
                 r"\int_0^1\frac{(1-x)\log(1-x)}{x\log x}\,{\rm d}x", id="logx-rmd"),
    pytest.param(r"\sin(\pix),\sin(2\pix),\sin(3\pix),\ldots", r"\sin(\pi x),\sin(2\pi x),\sin(3\pi x),\ldots",
                 id="pi-x"),
    pytest.param(r"\lambda\leq\kappa\implies2^\lambda\leq2^\kappa", r"\lambda\leq\kappa\implies 2^\lambda\leq 2^\kappa",
                 id="implies-digit"),
    pytest.param(r"x\in\bigcup\emptyset\iffx\iny", r"x\in\bigcup\emptyset\iff x\in y", id="iff-x-in-y"),
    pytest.param(r"\int_0^2dx\,\int_0^{x^2}dy\,\cos{x^3}", r"\int_0^2dx\int_0^{x^2}dy\cos x^3", id="cos-braced"),
    pytest.param(r"\dfrac{\partial^{3}f}{\partialx^{3}}", r"\frac{\partial^{3}f}{\partial x^{3}}", id="partial-x"),
    pytest.param(r"\binom{n}{1}+\binom{n}{2}+\cdots+\binom{n}{n}+1", r"{n\choose1}+{n\choose2}+\cdots+{n\choose n}+1",
                 id="binom-choose"),
    pytest.param(r"\int_{-\infty}^{\infty}e^{-x^2}dx=\sqrt{\pi}", r"\int_{-∞}^{∞}e^{−x^2}dx=\sqrt{π}",
                 id="gaussian-unicode"),
    pytest.param(r"{}_{n\rightarrow\infty}\int_{-\pi}^{\pi}f(t)", r"{}_{n\to\infty}\int_{-\pi}^{\pi}f(t)",
                 id="prescript-rightarrow-to"),
]


@pytest.mark.parametrize("real, variant", NAMED_FUNCTIONS + PLAIN_LETTER_OPERATORS + FRACTIONS_AND_DELIMITERS
                         + SPACING_AND_STYLE + UNICODE_AND_MACROS + RUN_TOGETHER_MACROS)
def test_latex_variants_meet(real, variant):
    assert _trees(parse_latex(real)) == _trees(parse_latex(variant))


def test_enough_variant_pairs():
    """The brief asks for at least 100 pairs written from real formulas."""
    assert len(NAMED_FUNCTIONS + PLAIN_LETTER_OPERATORS + FRACTIONS_AND_DELIMITERS + SPACING_AND_STYLE
               + UNICODE_AND_MACROS + RUN_TOGETHER_MACROS + MATHML_PAIRS) >= 100


@pytest.mark.parametrize("latex", [
    pytest.param(r"cost(x)", id="cost-is-a-word"),
    pytest.param(r"design", id="word"),
    pytest.param(r"asin", id="no-argument"),
    pytest.param(r"x_{min}", id="name-without-argument"),
    pytest.param(r"xmax=1", id="variable-name"),
    pytest.param(r"\int_0^1 f\,i\,d\phi", id="id-is-no-identity"),
    pytest.param(r"\text{sine}", id="text-word"),
])
def test_plain_letters_stay_letters_unless_a_name_precedes_an_argument(latex):
    assert not [label for label in parse_latex(latex).slt.labels if label[2:] in ("sin", "cos", "min", "max", "id")]


M = '<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="">{}</math>'
MATHML_PAIRS = [
    pytest.param(r"0\lt A\lt\frac{\pi}{2}",
                 '<mrow><mn>0</mn><mo>⁢</mo><merror class="ltx_ERROR undefined"><mtext>\\lt</mtext></merror><mo>⁢</mo>'
                 '<mi>A</mi><mo>⁢</mo><merror class="ltx_ERROR undefined"><mtext>\\lt</mtext></merror><mo>⁢</mo>'
                 '<mfrac><mi>π</mi><mn>2</mn></mfrac></mrow>', id="undefined-lt"),
    pytest.param(r"\mathbb{R}^{&gt;0}",
                 '<msup><mi>ℝ</mi><mrow><mo>&amp;</mo><mi>g</mi><mo>⁢</mo><mi>t</mi><mo>;</mo><mn>0</mn></mrow></msup>',
                 id="entity-spelled-out"),
    pytest.param(r"\,m_{1}", '<msub><mpadded lspace="1.7pt" width="+1.7pt"><mi>m</mi><mn>1</mn></mpadded></msub>',
                 id="mpadded-around-base-and-script"),
    pytest.param(r"0\leqslant\gamma", "<mrow><mn>0</mn><mo>⩽</mo><mi>γ</mi></mrow>", id="slanted-leq"),
    pytest.param(r"f^{\prime}(x)=1-2x=0\iff x=\frac{1}{2}",
                 "<mrow><mrow><msup><mi>f</mi><mo>′</mo></msup><mo>⁢</mo><mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow>"
                 "</mrow><mo>=</mo><mrow><mn>1</mn><mo>-</mo><mrow><mn>2</mn><mo>⁢</mo><mi>x</mi></mrow></mrow><mo>=</mo>"
                 "<mn>0</mn><mo>⇔</mo><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><mn>2</mn></mfrac></mrow>", id="iff"),
    pytest.param(r"H_{b,2}(n)={\rm mul}_{b}(n)",
                 "<mrow><msub><mi>H</mi><mrow><mi>b</mi><mo>,</mo><mn>2</mn></mrow></msub><mo>⁢</mo><mrow><mo>(</mo>"
                 "<mi>n</mi><mo>)</mo></mrow><mo>=</mo><msub><mi>mul</mi><mi>b</mi></msub><mo>⁢</mo><mrow><mo>(</mo>"
                 "<mi>n</mi><mo>)</mo></mrow></mrow>", id="rm-word"),
    pytest.param(r"\operatorname{sup}(x)", "<mrow><mi>sup</mi><mo>⁡</mo><mrow><mo>(</mo><mi>x</mi><mo>)</mo></mrow></mrow>",
                 id="operatorname-sup-as-mi"),
    pytest.param(r"det(A)=det(B)",
                 "<mrow><mi>d</mi><mo>⁢</mo><mi>e</mi><mo>⁢</mo><mi>t</mi><mo>⁢</mo><mrow><mo>(</mo><mi>A</mi><mo>)</mo>"
                 "</mrow><mo>=</mo><mi>d</mi><mo>⁢</mo><mi>e</mi><mo>⁢</mo><mi>t</mi><mo>⁢</mo><mrow><mo>(</mo>"
                 "<mi>B</mi><mo>)</mo></mrow></mrow>", id="plain-letter-det"),
    pytest.param(r"\equiv-1\color{green}{+}10",
                 '<mrow><mo>≡</mo><mo>-</mo><mn>1</mn><mo>⁢</mo><merror class="ltx_ERROR undefined"><mtext>\\color'
                 '</mtext></merror><mo>⁢</mo><mi>g</mi><mo>⁢</mo><mi>r</mi><mo>⁢</mo><mi>e</mi><mo>⁢</mo><mi>e</mi>'
                 "<mo>⁢</mo><mi>n</mi><mo>+</mo><mn>10</mn></mrow>", id="undefined-colour"),
    pytest.param(r"{}_{n\rightarrow\infty}\int_{0}^{1}f",
                 '<mrow><mmultiscripts><mo largeop="true">∫</mo><mn>0</mn><mn>1</mn><mprescripts/><mrow><mi>n</mi>'
                 '<mo>→</mo><mi mathvariant="normal">∞</mi></mrow><none/></mmultiscripts><mi>f</mi></mrow>',
                 id="prescripts"),
    pytest.param(r"{p_{1}}^{\alpha_{1}}", "<mmultiscripts><mi>p</mi><mn>1</mn><none/><none/><msub><mi>α</mi><mn>1</mn>"
                 "</msub></mmultiscripts>", id="sequential-scripts"),
    pytest.param(r"\mathbf{Set}", '<mi>𝐒𝐞𝐭</mi>', id="bold-word"),
    pytest.param(r"\textbf{b}=(3,4)", "<mrow><mtext>𝐛</mtext><mo>=</mo><mrow><mo>(</mo><mn>3</mn><mo>,</mo><mn>4</mn>"
                 "<mo>)</mo></mrow></mrow>", id="bold-text-letter"),
    pytest.param(r"S\cong\bigoplus_{X}\mathbb{Q}", '<mrow><mi>S</mi><mo>≅</mo><mrow><msub><mo largeop="true">⊕</mo>'
                 '<mi>X</mi></msub><mi>ℚ</mi></mrow></mrow>', id="large-oplus"),
    pytest.param(r"\underbrace{Q}_{k\times n}", "<munder><munder><mi>Q</mi><mo>⏟</mo></munder><mrow><mi>k</mi><mo>×</mo>"
                 "<mi>n</mi></mrow></munder>", id="underbrace-label"),
    pytest.param(r"x=\qvar@construct{$}\par", '<mrow><mi>x</mi><mo>=</mo><mi mathcolor="red">qvar_$</mi></mrow>',
                 id="stray-dollar"),
]


@pytest.mark.parametrize("latex, mathml", MATHML_PAIRS)
def test_thread_page_latex_meets_its_mathml(latex, mathml):
    assert _trees(parse_latex(latex)) == _trees(parse_mathml(M.format(mathml)))
