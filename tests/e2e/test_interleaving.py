"""A person's click on an interleaved results page reaches the staff Rankers page as a comparison of the candidate."""

import pytest

from searchapp.models import Feedback, Formula
from tests.polling import until

pytestmark = pytest.mark.e2e

FORMULAS = [r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2", r"\int_0^1 x^2 \, dx", r"e^{i\pi} + 1 = 0",
            r"\sin^2 x + \cos^2 x = 1", r"\frac{a}{b} + \frac{c}{d}"]
JUDGED = {"p^2 + q^2 = r^2": (FORMULAS[0], FORMULAS[3]), r"\cos^2 t + \sin^2 t = 1": (FORMULAS[4], FORMULAS[5])}


def test_staff_see_the_interleaving_a_click_on_a_results_page_credited(staff_login, indexed, settings, tmp_path,
                                                                       screenshot):
    from searchapp.live.loop import learning_round

    settings.MATHSEARCH_CORPUS_RANKERS_DIR = tmp_path / "rankers"
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"
    settings.MATHSEARCH_INTERLEAVE_SHARE = 1.0
    indexed(FORMULAS)
    for query, (relevant, not_relevant) in JUDGED.items():
        for rank, (kind, latex) in enumerate([("relevant", relevant), ("not_relevant", not_relevant)], start=1):
            Feedback.objects.create(query=query, formula=Formula.objects.get(latex=latex), kind=kind, rank=rank)
    assert learning_round("e2e", retrain_after=1).trained["outcome"] == "under test"
    page = staff_login
    page.goto("/?q=p%5E2%20%2B%20q%5E2%20%3D%20r%5E2&corpus=e2e")
    page.click(".result .formula-link >> nth=0")
    page.wait_for_url("**/formula/**")
    until(lambda: Feedback.objects.filter(kind="click", impression__isnull=False).exists())  # the click's beacon
    page.goto("/admin/searchapp/feedback/rankers/")
    table = page.locator("#under-test-e2e table.interleaving")
    cells = table.locator("tbody td").all_inner_texts()
    wins, losses, ties, compared = (int(cell) for cell in cells[:4])
    assert (wins + losses, ties, compared) == (1, 0, 1)
    assert "Interleaved on 100 % of searches" in page.inner_text("#under-test-e2e")
    screenshot("rankers")
