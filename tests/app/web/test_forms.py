import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from searchapp.web.forms import UploadForm


@pytest.mark.parametrize("size, valid", [(10, True), (11, False)])
def test_an_upload_past_the_size_limit_is_refused_naming_both_sizes(settings, size, valid):
    settings.MATHSEARCH_MAX_UPLOAD_BYTES = 10
    form = UploadForm({"format": "latex", "corpus": "notes"}, {"file": SimpleUploadedFile("f.txt", b"x" * size)})
    assert form.is_valid() == valid
    if not valid:
        assert form.errors["file"] == ["The file has 11 bytes; the limit is 10."]


def test_the_corpus_is_a_slug_and_the_format_one_the_jobs_know():
    form = UploadForm({"format": "pdf", "corpus": "my notes"}, {"file": SimpleUploadedFile("f.txt", b"x")})
    assert not form.is_valid() and set(form.errors) == {"format", "corpus"}
