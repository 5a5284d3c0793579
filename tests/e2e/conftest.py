"""Browser fixtures: Debian's Chromium driven by Playwright (sync API) against pytest-django's live server."""
import os
from pathlib import Path

import pytest

from tests.app.factories import staff_user
from tests.conftest import REPO, skip_unless_ci

# live_server runs Django in a thread while Playwright's sync API owns an event loop in this one;
# Django's async-safety check would otherwise refuse the ORM calls the tests make between steps.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        skip_unless_ci(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


@pytest.fixture
def staff_login(page, transactional_db):
    """The page, logged in to the admin as a superuser."""
    staff_user("ada", password="correct horse", is_superuser=True)
    page.goto("/admin/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "correct horse")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    return page


@pytest.fixture
def screenshot(page, request):
    """Save a screenshot under test-artifacts/ named after the test and a step."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(step: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{request.node.name}-{step}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path
    return take


@pytest.fixture
def indexed(transactional_db, tmp_path):
    """Index LaTeX lines in this process; live_server sees them because transactional_db commits."""
    from searchapp.indexing.actions import start_index_job
    from searchapp.indexing.jobs import run_job

    def index(lines, corpus="e2e"):
        path = tmp_path / f"{corpus}.txt"
        path.write_text("\n".join(lines) + "\n")
        return run_job(start_index_job(path, "latex", corpus, enqueue=False))
    return index


AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
"""Installed by `make setup` (package.json's devDependencies); never served by the site."""


@pytest.fixture
def axe(page):
    if not AXE.is_file():
        skip_unless_ci(f"axe-core not installed at {AXE}; run make setup")
    page.context.add_init_script(path=str(AXE))  # injected by the browser, so the site's CSP does not apply to it


@pytest.fixture
def console_errors(page) -> list[str]:
    """Errors the page logs (CSP violations and missing files, the site's icon among them) and uncaught exceptions."""
    errors: list[str] = []

    def logged(message):
        if message.type == "error":
            errors.append(f"{message.text} ({message.location.get('url')})")
    page.on("console", logged)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
