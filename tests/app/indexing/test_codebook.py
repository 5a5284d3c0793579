"""The codebook in the database: loaded once, refused over postings of another, counted for a refit."""
import pytest

from searchapp.indexing.codebook import CodebookMismatch, ensure_codebook_loaded, index_postings
from searchapp.models import CodebookState, Formula, PostingList

pytestmark = pytest.mark.django_db


def test_postings_are_counted_per_representation(indexed):
    counts = index_postings()
    assert set(counts) == {"slg", "opg"} and all(count > 0 for count in counts.values())


def test_another_codebook_is_refused_over_stored_postings_unless_they_are_posted_again(indexed):
    before = index_postings()
    CodebookState.objects.update(fingerprint="0123456789abcdef")  # as if the index came from another model
    with pytest.raises(CodebookMismatch, match="was built with codebook 0123456789abcdef"):
        ensure_codebook_loaded()
    ensure_codebook_loaded(repost=True)  # every stored formula posted again from its stored matrices
    assert CodebookState.objects.get().fingerprint != "0123456789abcdef"
    assert index_postings() == before and PostingList.objects.exists()
    assert Formula.objects.search("a^2 + b^2 = c^2", k=1).hits[0].formula.latex == "a^2 + b^2 = c^2"
