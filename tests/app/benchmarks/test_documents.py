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
    report = documents.benchmark(notes, sample=10, progress=lambda _: None)
    assert (report["files"], report["files_failed"], report["display_formulas"], report["inline_formulas"]) == (2, 0, 3, 1)
    assert report["job_state"] == "done" and report["formulas_indexed"] == 4
    assert report["known_item_queries"] == 3  # every display formula, fewer than the sample
    assert report["known_item_success_at_10"] == 1.0 and report["known_item_success_at_1"] == 1.0
    assert 0 < report["p50_ms"] <= report["p95_ms"]
