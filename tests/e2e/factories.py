"""Builders the browser tests share."""

FORMULAS = [r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2", r"\frac{a}{b} + \frac{c}{d}", r"e^{i\pi} + 1 = 0",
            r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}", r"\sin^2 x + \cos^2 x = 1"]


def index_documents(folder, files: dict[str, str], corpus: str = "documents"):
    """Write {relative path: text} into `folder` and index it as documents in this process; the finished job."""
    from searchapp.indexing.actions import start_index_job
    from searchapp.indexing.jobs import run_job

    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    job = run_job(start_index_job(folder, "documents", corpus, enqueue=False))
    assert (job.state, job.failed) == ("done", 0), job.errors
    return job


def page_problems(page, path: str) -> list[str]:
    """Open `path` and list what is wrong with it: axe-core's serious and critical violations (the `axe` fixture
    injects it), and scrolling sideways, once no part of it is still drawing (`aria-busy`)."""
    page.goto(path)
    page.wait_for_load_state("load")
    page.wait_for_function("() => !document.querySelector('[aria-busy=true]')")
    return problems_on_screen(page, path[:60])


def problems_on_screen(page, shown: str) -> list[str]:
    """What is wrong with the page as it stands now (after the steps that opened its parts), labelled `shown`."""
    report = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    problems = [f"{shown}: {v['id']} ({v['impact']}) at {[node['target'] for node in v['nodes'][:3]]}"
                for v in report["violations"] if v["impact"] in ("serious", "critical")]
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 0:
        widest = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => !e.closest('.katex-mathml')
            && e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .slice(0, 4).map(e => e.tagName + '.' + e.className)""")
        problems.append(f"{shown}: scrolls sideways by {overflow} px, past the edge: {widest}")
    return problems
