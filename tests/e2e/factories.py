"""Builders the browser tests share."""

FORMULAS = [r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2", r"\frac{a}{b} + \frac{c}{d}", r"e^{i\pi} + 1 = 0",
            r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}", r"\sin^2 x + \cos^2 x = 1"]


def page_problems(page, path: str) -> list[str]:
    """Open `path` and list what is wrong with it: axe-core's serious and critical violations (the `axe` fixture
    injects it), and scrolling sideways."""
    page.goto(path)
    page.wait_for_load_state("load")
    report = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    shown = path[:60]
    problems = [f"{shown}: {v['id']} ({v['impact']}) at {[node['target'] for node in v['nodes'][:3]]}"
                for v in report["violations"] if v["impact"] in ("serious", "critical")]
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        widest = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => !e.closest('.katex-mathml')
            && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 4).map(e => e.tagName + '.' + e.className)""")
        problems.append(f"{shown}: scrolls sideways by {overflow} px, past the edge: {widest}")
    return problems
