"""The help page's reading limits come from the constants the reader checks, and the page says what a person needs
to bring their own documents: the formats, the limits, macros and keeping a folder in sync."""
import re
from html import unescape

import pytest
from django.test import override_settings

from corpora.documents.archive import MAX_ARCHIVE_MEMBERS
from corpora.documents.budgets import MAX_DOCUMENT_CHARS
from searchapp.models import IndexJob
from searchapp.web.reading_limits import reading_limits


def test_every_limit_is_the_reader_s_own_number():
    rows = dict(reading_limits(200 * 1024 * 1024))
    assert rows["an upload"].startswith("200.0\xa0MB")
    assert rows["an archive (zip, tar, tar.gz, gz)"].startswith(f"200 MB uncompressed, {MAX_ARCHIVE_MEMBERS:,} members")
    assert rows["an archive's compression"] == "100:1, for the whole archive above 1 MB and for each zip member above 64 KB"
    assert rows["one file"] == "5 MB" and rows["one section (a post)"] == "1 MB of text"
    assert rows["one document's characters"].startswith(f"{MAX_DOCUMENT_CHARS:,}: ")
    assert rows["one macro use / one document's macros"] == "20,000 tokens / 20,000 + 10 per character of its files"
    assert rows["one formula"] == "5,000 characters, 100 levels deep"
    assert len(rows) == 10  # every row of the README's "Reading limits"


@pytest.mark.django_db
@override_settings(MATHSEARCH_MAX_UPLOAD_BYTES=50 * 1024 * 1024)
def test_the_help_page_covers_documents_uploads_macros_and_sync(client):
    page = client.get("/help").content.decode()
    anchors = set(re.findall(r'id="([\w-]+)"', page))
    assert {"documents", "uploads", "macros", "sync"} <= anchors
    assert {f"format-{value}" for value, _ in IndexJob.Format.choices} <= anchors
    text = " ".join(unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "<th scope=\"row\">An upload</th><td>50.0\xa0MB, for staff who may add index jobs</td>" in page
    assert "Read with the macros of this corpus" in text and r"\norm{x+y}" in text
    assert "index_corpus ~/papers --format documents --corpus papers" in text
    assert '<a href="/admin/searchapp/indexjob/upload/">upload page</a>' in page
    for href in ("#documents", "#uploads", "#macros", "#sync"):  # the page's own contents list
        assert f'<a href="{href}">' in page
