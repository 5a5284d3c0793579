"""Judgments and looks in a real browser: a judgment made on one spelling of a query is pressed on another and taken
back there, its explanation changing in place; a result marked not relevant stays where it was, greyed, with its
undo; the page reports the results that were on screen, and without JavaScript its first ones."""
import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from searchapp.feedback.impressions import NOSCRIPT_LOOKS
from searchapp.models import Feedback, Formula, Impression
from searchapp.search.query_keys import formula_text_key
from tests.e2e.factories import FORMULAS, page_problems
from tests.polling import until

pytestmark = pytest.mark.e2e

SPELLED = r"\int_0^\infty e^{-x^2} dx"
RESPELLED = r"\int_{0}^{\infty} e^{-x^{2}} \, dx"
LINES = FORMULAS + [SPELLED, r"\int_0^\infty e^{-x^2}\,dx = \frac{\sqrt{\pi}}{2}", r"\int_{-\infty}^{\infty} e^{-x^2} dx",
                    r"\int_0^\infty e^{-t} dt", r"\int_0^1 x^2 \, dx", r"\int_0^\infty x e^{-x} dx", r"e^{-x^2}"]
VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
GREYED = re.compile(r"\bjudged-not-relevant\b")


def results_page(query: str) -> str:
    return "/?" + urlencode({"q": query, "corpus": "e2e"})


def test_a_judgment_holds_for_the_querys_meaning_and_a_result_marked_not_relevant_stays_greyed(page, indexed, axe,
                                                                                               screenshot):
    indexed(LINES)
    assert formula_text_key(SPELLED) == formula_text_key(RESPELLED)
    page.goto(results_page(SPELLED))
    ranked = [int(pk) for pk in page.locator(".result").evaluate_all("items => items.map(i => i.dataset.formula)")]
    judged = Formula.objects.get(pk=ranked[3])
    for person in range(2):  # two people before this one found it relevant
        Feedback.objects.create(query=SPELLED, formula=judged, kind="relevant", rank=4, session_key=f"someone-{person}")
    page.reload()
    result = page.locator(f'.result[data-formula="{judged.pk}"]')
    said = result.locator(".people-said")
    expect(said).to_contain_text("2 people found this relevant")
    expect(said.locator(".why-title")).to_contain_text("Moved up")
    result.locator("button.fb-yes").click()
    expect(result.locator(".feedback-status")).to_have_text("Marked relevant")
    expect(said).to_have_text("People said: 3 people found this relevant")  # in place, without a reload

    page.goto(results_page(RESPELLED))  # the same formula, written otherwise
    expect(result.locator("button.fb-yes")).to_have_attribute("aria-pressed", "true")
    expect(said).to_contain_text("3 people found this relevant")
    result.locator("button.fb-undo").click()
    expect(result.locator(".feedback-status")).to_have_text("Judgment removed")
    expect(said).to_have_text("People said: 2 people found this relevant")
    expect(result.locator("button.fb-yes")).to_have_attribute("aria-pressed", "false")
    expect(result.locator("button.fb-undo")).to_be_hidden()
    assert Feedback.objects.judgments().count() == 2  # the others' stay; this person's is gone, whatever the spelling

    result.locator("button.fb-yes").click()
    expect(result.locator(".feedback-status")).to_have_text("Marked relevant")
    page.reload()
    order = page.locator(".result").evaluate_all("items => items.map(i => i.dataset.formula)")
    place = next(i for i in (2, 3) if order[i] != str(judged.pk))
    passed = page.locator(".result").nth(place)
    passed.locator("button.fb-no").click()
    expect(passed).to_have_class(GREYED)
    expect(passed.locator("button.fb-undo")).to_be_visible()
    assert page.locator(".result").evaluate_all("items => items.map(i => i.dataset.formula)") == order
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.reload()  # one person's "not relevant" leaves it where it was, for them and everyone
        expect(page.locator(".result").nth(place)).to_have_class(GREYED)
        assert page.locator(".result").evaluate_all("items => items.map(i => i.dataset.formula)") == order
        expect(passed.locator(".people-said")).to_have_text("People said: 1 person found this not relevant")
        result.evaluate("item => item.scrollIntoView()")  # the judged one at the top, the one marked not relevant near
        screenshot(f"judged-{size}", full_page=False)
        assert page_problems(page, results_page(RESPELLED)) == []


def test_the_page_reports_the_results_that_were_on_screen(page, indexed):
    indexed(LINES)
    page.set_viewport_size(VIEWPORTS["phone"])
    page.goto(results_page(SPELLED))
    expect(page.locator(".result").first).to_be_visible()
    shown = Impression.objects.get()
    assert until(lambda: Impression.objects.get().seen)
    seen = Impression.objects.get().seen
    assert seen == shown.formula_ids[:len(seen)] and len(seen) < len(shown.formula_ids)  # the top, not the rest
    page.locator(".result").last.scroll_into_view_if_needed()
    assert until(lambda: shown.formula_ids[-1] in Impression.objects.get().seen)


def test_without_javascript_the_page_counts_its_first_results(browser, live_server, indexed):
    indexed(LINES)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        context.new_page().goto(results_page(SPELLED))
        shown = Impression.objects.get()
        assert until(lambda: Impression.objects.get().seen == shown.formula_ids[:NOSCRIPT_LOOKS])
    finally:
        context.close()
