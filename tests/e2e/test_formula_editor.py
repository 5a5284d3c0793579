"""The search page's visual formula editor (MathLive, static/js/formula_editor.js) in a real browser: kept in step
with the LaTeX field both ways, Tab through empty boxes, empty boxes searched as query variables, within the CSP."""
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.factories import FORMULAS

pytestmark = pytest.mark.e2e

FIELD = "#formula-field"


def open_editor(page, path="/"):
    """The page with the editor ready to type into: MathLive defines math-field and has drawn it."""
    page.goto(path)
    page.wait_for_function("() => !!customElements.get('math-field')")
    expect(page.locator(FIELD)).to_be_visible()
    page.evaluate("document.fonts.ready")


def type_in_editor(page, keys: str):
    page.click(FIELD)
    expect(page.locator(FIELD)).to_be_focused()
    page.keyboard.type(keys)


def editor_value(page) -> str:
    return page.locator(FIELD).evaluate("field => field.value")


def test_typing_in_the_editor_writes_latex_into_the_field_and_the_preview(page, console_errors):
    open_editor(page)
    type_in_editor(page, "a/b")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("+x^2")
    expect(page.locator("#q")).to_have_value(r"\frac{a}{b}+x^2")
    expect(page.locator("#preview .katex .mfrac")).to_have_count(1)
    assert page.locator("#preview-error").inner_text() == ""
    assert console_errors == []


def test_typing_or_pasting_latex_in_the_field_shows_it_in_the_editor(page, console_errors):
    open_editor(page)
    page.click("#q")
    page.keyboard.type(r"\sqrt{x}+1")
    expect(page.locator(FIELD)).to_have_js_property("value", r"\sqrt{x}+1")
    page.fill("#q", r"\frac{1}{n^2}")  # a paste: one input event with all of it
    expect(page.locator(FIELD)).to_have_js_property("value", r"\frac{1}{n^2}")
    assert page.input_value("#q") == r"\frac{1}{n^2}", "the editor does not rewrite what was typed in the field"
    assert console_errors == []


@pytest.mark.parametrize("pasted, notation", [
    pytest.param("<math><msup><mi>a</mi><mn>2</mn></msup></math>", "MathML", id="mathml"),
    pytest.param("[V!a,a[N!2]]", "a Tangent SLT string", id="tangent"),
])
def test_mathml_or_a_tangent_string_in_the_field_is_left_alone_and_the_editor_says_so(page, screenshot, pasted,
                                                                                     notation):
    open_editor(page)
    type_in_editor(page, "y")
    page.fill("#q", pasted)
    expect(page.locator("#formula-editor-notice")).to_contain_text(f"cannot show {notation}")
    expect(page.locator("#preview-error")).to_contain_text(f"Reads as {notation}")  # search.js, as before
    assert editor_value(page) == ""
    screenshot("notice", full_page=False)
    page.locator(FIELD).focus()
    page.keyboard.type("z")  # the editor is read-only meanwhile
    assert page.input_value("#q") == pasted and editor_value(page) == ""
    page.fill("#q", "x")
    expect(page.locator("#formula-editor-notice")).to_have_text("")
    expect(page.locator(FIELD)).to_have_js_property("value", "x")


def test_tab_goes_from_empty_box_to_empty_box_then_out(page):
    open_editor(page)
    type_in_editor(page, "/")  # a fraction with two empty boxes, the cursor in the first
    page.keyboard.type("1")
    page.keyboard.press("Tab")
    page.keyboard.type("n")
    assert editor_value(page) == r"\frac{1}{n}"
    page.fill("#q", r"\frac{}{}+\sqrt{}")  # empty groups typed in the field are boxes in the editor too
    page.locator(FIELD).focus()
    page.locator(FIELD).evaluate("field => { field.position = 0; }")
    for key in "abc":
        page.keyboard.press("Tab")
        page.keyboard.type(key)
    expect(page.locator("#q")).to_have_value(r"\frac{a}{b}+\sqrt{c}")
    page.keyboard.press("End")
    page.keyboard.press("Tab")  # no box left: on to the next control, as everywhere else
    expect(page.locator(FIELD)).not_to_be_focused()


def test_a_search_with_empty_boxes_searches_each_as_a_query_variable(page, indexed, console_errors, screenshot):
    indexed([r"\frac{1}{n^2} + 1", r"\frac{a}{b} + c", r"\sqrt{n^2}"])
    open_editor(page)
    type_in_editor(page, "/")
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("+1")
    expect(page.locator("#q")).to_have_value(r"\frac{}{}+1")
    screenshot("boxes", full_page=False)
    page.keyboard.press("Enter")
    page.wait_for_selector(".result")
    assert parse_qs(urlsplit(page.url).query)["q"] == [r"\frac{\qvar{a}}{\qvar{b}}+1"]
    assert page.locator("#empty-hint").count() == 0, "nothing left empty to explain"
    first = page.locator(".result").first
    assert first.locator(".formula-link .math").get_attribute("data-latex") == r"\frac{1}{n^2} + 1"
    expect(first.locator(".bindings .katex")).to_have_count(2)  # what a and b stood for
    expect(page.locator(FIELD)).to_have_js_property("value", r"\frac{\qvar{a}}{\qvar{b}}+1")
    screenshot("variables")
    assert console_errors == []


def test_enter_searches_unless_it_ends_a_command_typed_after_a_backslash(page, indexed):
    indexed(FORMULAS)
    open_editor(page)
    type_in_editor(page, "\\alpha")
    page.keyboard.press("Enter")  # ends \alpha
    page.keyboard.type("+1")
    expect(page.locator("#q")).to_have_value(r"\alpha+1")
    assert page.locator(".results").count() == 0, "not searched yet"
    page.keyboard.press("Enter")
    page.wait_for_selector(".results")
    assert parse_qs(urlsplit(page.url).query)["q"] == [r"\alpha+1"]


def test_boxes_are_named_apart_from_the_querys_own_variables(page):
    open_editor(page)
    page.fill("#q", r"\qvar{a}+x^{}+\frac{}{2}+\text{}")
    page.evaluate("document.getElementById('search-form').addEventListener('submit', e => e.preventDefault())")
    page.press("#q", "Enter")
    assert page.input_value("#q") == r"\qvar{a}+x^{\qvar{b}}+\frac{\qvar{c}}{2}+\text{}"


def test_the_palette_inserts_into_the_editor_when_it_is_in_use(page):
    open_editor(page)
    type_in_editor(page, "x+")
    page.click('.palette-item[data-insert="\\\\frac{}{}"]')
    page.keyboard.type("1")
    expect(page.locator("#q")).to_have_value(r"x+\frac{1}{}")
    page.keyboard.press("Tab")
    page.click('.palette-item[data-insert="\\\\qvar{x}"]')
    expect(page.locator("#q")).to_have_value(r"x+\frac{1}{\qvar{x}}")
    page.keyboard.press("End")  # of the denominator; then out of the fraction
    page.keyboard.press("ArrowRight")
    page.click('.palette-item[data-insert="\\\\left| \\\\right|"]')
    page.keyboard.type("y")
    expect(page.locator("#q")).to_have_value(r"x+\frac{1}{\qvar{x}}\left|y\right|")
    page.click("#q")  # the LaTeX field in use: the palette writes there, as without the editor
    page.keyboard.press("End")
    page.click('.palette-item[data-insert="\\\\pi"]')
    expect(page.locator("#q")).to_have_value(r"x+\frac{1}{\qvar{x}}\left|y\right|\pi")
    expect(page.locator(FIELD)).to_have_js_property("value", r"x+\frac{1}{\qvar{x}}\left|y\right|\pi")


def test_the_editor_is_labelled_and_loads_everything_from_the_site_within_the_csp(page, live_server, console_errors):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_editor(page)
    type_in_editor(page, "x")
    field = page.locator(FIELD)
    # its name for a screen reader: the label, then what it holds, as MathLive speaks it
    expect(field.get_by_role("textbox", name="Formula editor")).to_have_count(1)  # MathLive's, in its shadow root
    assert field.get_attribute("aria-describedby") == "formula-editor-hint formula-editor-notice"
    assert page.locator("#q").is_visible() and page.locator('label[for="q"]').is_visible()
    assert [url for url in requested if not url.startswith(live_server.url)] == []
    # MathLive draws with the KaTeX fonts katex.min.css declares, else from its own vendored copies: the site's
    assert any("/static/vendor/katex/fonts/" in url for url in requested)
    statuses = page.evaluate("""() => Promise.all([
        MathfieldElement.fontsDirectory + "/KaTeX_Main-Regular.woff2", MathfieldElement.soundsDirectory + "/plonk.wav",
    ].map(url => fetch(url).then(response => [new URL(url).pathname, response.status])))""")
    assert statuses == [["/static/vendor/mathlive/fonts/KaTeX_Main-Regular.woff2", 200],
                        ["/static/vendor/mathlive/sounds/plonk.wav", 200]]
    assert console_errors == []  # a CSP violation is logged as an error


def test_without_javascript_the_page_is_the_plain_form(browser, live_server):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    assert page.locator("#formula-editor").is_hidden()
    assert page.locator("math-field").count() == 0
    assert page.locator("#q").is_visible()
    context.close()


@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_the_editor_fits_the_page_at_desktop_and_phone_widths(page, indexed, screenshot, console_errors, width, height):
    indexed(FORMULAS)
    page.set_viewport_size({"width": width, "height": height})
    open_editor(page)
    screenshot(f"{width}-empty", full_page=False)
    type_in_editor(page, "a/b")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("+x^2")
    expect(page.locator("#preview .katex")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    box = page.locator(FIELD).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    screenshot(f"{width}-typed", full_page=False)
    page.click(".formula-editor [part=virtual-keyboard-toggle]")  # MathLive's own keyboard, for touch screens
    expect(page.locator(".ML__keyboard")).to_be_visible()
    page.wait_for_function("() => document.getAnimations().every(animation => animation.playState !== 'running')")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(f"{width}-keyboard", full_page=False)
    page.click(FIELD)
    page.keyboard.press("Enter")
    page.wait_for_selector(".result")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(f"{width}-results", full_page=False)
    assert console_errors == []


def test_unicode_math_pasted_in_the_field_is_shown_in_the_editor_as_the_latex_it_is_read_as(page, console_errors):
    open_editor(page)
    page.fill("#q", "x² + √(a₁ + ½)")  # MathLive alone draws `x²` as x, a caret and a 2
    expect(page.locator(FIELD)).to_have_js_property("value", r"x^{2} + \sqrt{a_{1} + \frac{1}{2}}")
    assert page.input_value("#q") == "x² + √(a₁ + ½)", "the field keeps what was typed"
    page.fill("#q", "α ≤ β")
    expect(page.locator(FIELD)).to_have_js_property("value", r"\alpha \leq \beta")
    assert console_errors == []


def test_keys_typed_right_after_clicking_the_editor_are_kept(page, console_errors):
    """A person clicks the editor as soon as it shows and types at once: no key is lost while MathLive gets ready."""
    page.goto("/")
    page.click(FIELD)  # as soon as it is there: no wait for fonts, for MathLive's drawing or for the focus
    page.keyboard.type("y/2")  # typed as keystrokes: the slash still makes a fraction
    expect(page.locator("#q")).to_have_value(r"\frac{y}{2}")
    page.keyboard.press("ArrowRight")  # and what follows goes on from there
    page.keyboard.type("+1")
    expect(page.locator("#q")).to_have_value(r"\frac{y}{2}+1")
    assert editor_value(page) == r"\frac{y}{2}+1"
    assert console_errors == []
