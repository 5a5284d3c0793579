from ml.data.mse_threads import ThreadFormula, parse_thread_page, read_thread_page, thread_pages
from ml.data.tolerant import Problem

MATH = '<math {alt} class="ltx_Math" xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mi>x</mi></semantics></math>'
PAGE = "\n".join([
    "<html><body><p>",
    '<span class="math-container" id="1" visual_id="10">' + MATH.format(alt='alttext="a&lt;b"') + "</span>",
    '<span class="math-container" id="2" visual_id="20">' + MATH.format(alt='alttext="x&amp;gt;0"') + "</span>",
    '<span class="math-container" id="3" visual_id="30">' + MATH.format(alt="") + "</span>",
    '<span class="math-container" id="4" visual_id="40">x</span>',
    'b<span class="math-container" id="5">y</span> the',
    "</p></body></html>",
])


def test_formulas_come_with_their_ids_and_unescaped_latex_or_their_mathml():
    read = parse_thread_page(PAGE)
    assert read.value.formulas == [
        ThreadFormula("1", "10", "a<b", "latex", 2),
        ThreadFormula("2", "20", "x>0", "latex", 3),  # escaped twice in the page
        ThreadFormula("3", "30", MATH.format(alt=""), "mathml", 4),
    ]


def test_a_span_without_math_is_a_problem_and_a_stray_dollar_fragment_is_counted():
    read = parse_thread_page(PAGE)
    assert read.problems == [Problem(5, "formula span 4: no <math> element inside")]
    assert read.value.fragments == 1


def test_a_real_page(shared_data):
    folder = shared_data / "arqmath" / "threads-mathdowsers"
    page = folder / "1001895_1002239.html"
    assert page in thread_pages(folder) and thread_pages(page) == [page]
    read = read_thread_page(page)
    assert read.problems == [] and len(read.value.formulas) == 22
    assert read.value.formulas[0] == ThreadFormula("9549293", "1805", "f(x)", "latex", 25)
