"""The search page's formula editor comes from the site: the scripts, stylesheets and MathLive directories the page
names are files `make setup` vendored (scripts/setup.sh), none from a CDN."""
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_every_static_file_the_search_page_names_is_there(client):
    html = client.get("/").content.decode()
    named = re.findall(r'(?:src|href|data-fonts|data-sounds)="/static/([^"]+)"', html)
    assert {"vendor/mathlive/mathlive.min.js", "js/formula_editor.js", "css/formula_editor.css"} <= set(named)
    assert [path for path in named if not finders.find(path)] == []
    assert "cdn" not in html.lower()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # the CSP allows no inline script


def test_mathlive_finds_its_fonts_and_sounds_where_the_page_says():
    fonts = Path(finders.find("vendor/mathlive/fonts"))
    sounds = Path(finders.find("vendor/mathlive/sounds"))
    assert {"KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2", "KaTeX_Size4-Regular.woff2"} <= {
        font.name for font in fonts.glob("*.woff2")}
    assert (sounds / "plonk.wav").is_file()
