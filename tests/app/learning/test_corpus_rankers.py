"""A corpus's own ranker goes with the corpus, once its deletion is committed."""
import pytest

from searchapp.models import Corpus
from searchapp.search.ranking import corpus_ranker_dir

pytestmark = pytest.mark.django_db


def ranker_of(name: str):
    directory = corpus_ranker_dir(name)
    directory.mkdir(parents=True)
    (directory / "model.txt").write_text("trees")
    return directory


def test_deleting_a_corpus_removes_its_ranker_and_no_other(django_capture_on_commit_callbacks):
    gone, kept = Corpus.objects.create(name="gone"), Corpus.objects.create(name="kept")
    gone_dir, kept_dir = ranker_of(gone.name), ranker_of(kept.name)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        gone.delete()
    assert gone_dir.is_dir()  # not before the deletion is committed: a rolled-back one keeps its ranker
    for callback in callbacks:
        callback()
    assert not gone_dir.exists() and kept_dir.is_dir()
