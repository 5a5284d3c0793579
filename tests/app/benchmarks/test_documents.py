"""`bench_documents`' benchmark on a tiny folder of notes, in the test database: read, indexed, and each display
formula found again in its own file."""
import pytest

from searchapp.benchmarks import documents

pytestmark = pytest.mark.django_db


def test_every_display_formula_is_found_in_its_own_file_and_the_numbers_add_up(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "pythagoras.md").write_text("# Triangles\n\nThe sides of a right triangle:\n\n$$a^2 + b^2 = c^2$$\n\n"
                                         "and the angles $\\alpha + \\beta = \\pi/2$.\n")
    (notes / "series.md").write_text("# Series\n\nEuler's sum:\n\n$$\\sum_{n=1}^{\\infty} \\frac{1}{n^2} = "
                                     "\\frac{\\pi^2}{6}$$\n\nand the geometric one:\n\n$$\\sum_{k=0}^{n} q^k = "
                                     "\\frac{1 - q^{n+1}}{1 - q}$$\n")
    (notes / "norms.tex").write_text("\\documentclass{article}\n\\newcommand{\\norm}[1]{\\left\\lVert #1\\right\\rVert}\n"
                                     "\\begin{document}\n\\section{Norms}\nThe triangle inequality\n\\begin{equation}\n"
                                     "\\norm{x + y} \\le \\norm{x} + \\norm{y}\n\\end{equation}\n\\end{document}\n")
    report = documents.benchmark(notes, sample=10, progress=lambda _: None)
    assert (report["files"], report["files_failed"], report["display_formulas"], report["inline_formulas"]) == (3, 0, 4, 1)
    assert report["job_state"] == "done" and report["formulas_indexed"] == 5
    assert (report["documents"], report["sections"], report["duplicate_sections"]) == (3, 3, 0)
    assert report["katex_error_share"] == 0.0 and report["unexpanded_macro_share"] == 0.0
    assert (report["resync_state"], report["resync_unchanged_documents"]) == ("done", 3)
    assert report["known_item_queries"] == 4  # every display formula, fewer than the sample
    assert report["known_item_macros_queries"] == 1  # the source's \norm{x + y} ≤ …, read with the corpus's macros
    assert report["known_item_success_at_10"] == 1.0 and report["known_item_success_at_1"] == 1.0
    assert 0 < report["p50_ms"] <= report["p95_ms"]
