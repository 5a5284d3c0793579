"""Unicode math read as LaTeX: a table of every class of character, the parses it gives, positions, the table."""
import pytest

from mathparse import ParseError, parse, parse_latex, to_slt_string, unicode_math
from mathparse.unicode_math import from_unicode, symbols


@pytest.mark.parametrize("text, latex", [
    pytest.param("x² + y² = z²", "x^{2} + y^{2} = z^{2}", id="superscript"),
    pytest.param("x²³", "x^{23}", id="superscripts-one-group"),
    pytest.param("x⁻¹", "x^{-1}", id="superscript-minus"),
    pytest.param("xⁿ⁺¹", "x^{n+1}", id="superscript-letters-and-signs"),
    pytest.param("Aᵀ", "A^{T}", id="superscript-capital"),
    pytest.param("x^²", "x^{2}", id="superscript-after-a-caret"),
    pytest.param("a₁ + a₂", "a_{1} + a_{2}", id="subscript"),
    pytest.param("xᵢ₊₁", "x_{i+1}", id="subscripts-one-group"),
    pytest.param("x₁²", "x_{1}^{2}", id="subscript-then-superscript"),
    pytest.param("α + β", r"\alpha + \beta", id="greek"),
    pytest.param("Γ(n)", r"\Gamma(n)", id="greek-capital"),
    pytest.param("ε ϵ", r"\varepsilon \epsilon", id="greek-variants"),
    pytest.param("∑_{k=1}^n k", r"\sum_{k=1}^n k", id="sum"),
    pytest.param("∫_0^1 f", r"\int_0^1 f", id="integral"),
    pytest.param("a ≤ b ≠ c", r"a \leq b \neq c", id="relations"),
    pytest.param("x → ∞", r"x \rightarrow \infty", id="arrow-infinity"),
    pytest.param("∂f/∂x", r"\partial f/\partial x", id="partial"),
    pytest.param("∇·F", r"\nabla\cdot F", id="nabla-middle-dot"),
    pytest.param("a × b − c", r"a \times b - c", id="times-minus-sign"),
    pytest.param("x ∈ A ⊂ B", r"x \in A \subset B", id="sets"),
    pytest.param("∀x∃y", r"\forall x\exists y", id="space-after-a-command"),
    pytest.param("f′(x) + g″", "f'(x) + g''", id="primes"),
    pytest.param("√x", r"\sqrt{x}", id="root-of-a-letter"),
    pytest.param("√16 + √2x", r"\sqrt{16} + \sqrt{2}x", id="root-of-a-number"),
    pytest.param("√(x+1)", r"\sqrt{x+1}", id="root-of-parentheses"),
    pytest.param("√{a+b}", r"\sqrt{a+b}", id="root-of-a-group"),
    pytest.param(r"√\frac{1}{2}", r"\sqrt{\frac{1}{2}}", id="root-of-a-command"),
    pytest.param("√√x", r"\sqrt{\sqrt{x}}", id="root-of-a-root"),
    pytest.param("∛x", r"\sqrt[3]{x}", id="cube-root"),
    pytest.param("√", r"\sqrt{}", id="root-of-nothing"),
    pytest.param("½", r"\frac{1}{2}", id="fraction"),
    pytest.param("¾x + ⅒", r"\frac{3}{4}x + \frac{1}{10}", id="fractions"),
    pytest.param("𝔽ₚ", r"\mathbb{F}_{p}", id="double-struck"),
    pytest.param("ℝⁿ", r"\mathbb{R}^{n}", id="letterlike-double-struck"),
    pytest.param("𝐱 · 𝐲", r"\mathbf{x} \cdot \mathbf{y}", id="bold"),
    pytest.param("𝔤 𝒜", r"\mathfrak{g} \mathcal{A}", id="fraktur-script"),
    pytest.param("𝑓(𝑥)", "f(x)", id="math-italic-is-plain"),
    pytest.param(r"\frac{1}{n²}", r"\frac{1}{n^{2}}", id="mixed-fraction"),
    pytest.param("∫_0^∞ e^{-x²} dx", r"\int_0^\infty e^{-x^{2}} dx", id="mixed-integral"),
    pytest.param(r"\cdot𝑥", r"\cdot x", id="mixed-command-then-letter"),
    pytest.param(r"\text{für alle x²}", r"\text{für alle x²}", id="text-left-alone"),
    pytest.param(r"x^2 + \alpha_{1}", r"x^2 + \alpha_{1}", id="latex-unchanged"),
    pytest.param("2ª", "2ª", id="ordinal-indicator-is-no-script"),
])
def test_unicode_math_is_written_in_latex(text, latex):
    assert from_unicode(text).latex == latex


@pytest.mark.parametrize("text, latex", [
    pytest.param("x² + y² = z²", "x^2 + y^2 = z^2", id="pythagoras"),
    pytest.param("∫_0^∞ e^{-x²} dx", r"\int_0^\infty e^{-x^2}\,dx", id="gaussian"),
    pytest.param(r"\frac{1}{n²}", r"\frac{1}{n^2}", id="mixed"),
    pytest.param("√(a² + b²)", r"\sqrt{a^2 + b^2}", id="root"),
    pytest.param("𝐯 ∈ ℝ³", r"\mathbf{v} \in \mathbb{R}^3", id="alphanumerics"),
])
def test_a_query_in_unicode_reads_as_the_latex_it_stands_for(text, latex):
    assert to_slt_string(parse(text, "latex", query=True).slt) == to_slt_string(parse_latex(latex).slt)


def test_an_error_points_into_the_text_as_typed():
    with pytest.raises(ParseError) as raised:
        parse_latex(r"α + \frac{1}{", query=True)  # read as `\alpha + \frac{1}{`: 6 characters longer
    assert (raised.value.kind, raised.value.pos) == ("unbalanced_braces", 12)


def test_positions_map_back_to_the_text_as_typed():
    reading = from_unicode("a₁₂ + √b")
    assert reading.latex == r"a_{12} + \sqrt{b}"
    assert [reading.typed_pos(reading.latex.index(part)) for part in ("_{12}", "+", r"\sqrt", "b")] == [1, 4, 6, 7]
    assert reading.typed_pos(len(reading.latex)) == len(reading.text) and reading.typed_pos(None) is None


def test_every_latex_of_the_table_is_read_by_the_parser():
    unread = []
    for char, latex in symbols().items():
        try:
            parse_latex(f"a {latex} b")
        except ParseError as error:
            unread.append((char, latex, error.message))
    assert not unread and len(symbols()) > 700  # Greek, operators, relations, arrows, alphanumerics
    assert not any(latex.startswith(r"\text") for latex in symbols().values())


def test_nested_roots_are_read_in_one_pass(monkeypatch):
    """Each root looks ahead for its argument once: `√√…√x` would otherwise cost the square of its length."""
    looked = []
    skip = unicode_math._skip_spaces
    monkeypatch.setattr(unicode_math, "_skip_spaces", lambda text, i: looked.append(i) or skip(text, i))
    roots = 2000
    assert from_unicode("√" * roots + "x").latex == r"\sqrt{" * roots + "x" + "}" * roots
    assert len(looked) <= 3 * roots
