"""`train_fusion`'s own checks: a corpus that does not exist or has too few question-answer pairs, and a number of
epochs that trains nothing, are refused before any training (the training itself: tests/app/learning/test_marf.py)."""
import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_a_corpus_without_enough_question_answer_pairs_is_refused(threads, tmp_path):
    with pytest.raises(CommandError, match="4 question-answer pairs; training needs at least 20"):
        call_command("train_fusion", "--corpus", "threads", "--out", str(tmp_path / "fusion"))
    with pytest.raises(CommandError, match="no corpus named 'nope'; the corpora are threads"):
        call_command("train_fusion", "--corpus", "nope")
    assert not (tmp_path / "fusion").exists()


@pytest.mark.parametrize("epochs", ["0", "-1"])
def test_fewer_than_one_epoch_is_refused_naming_the_argument(threads, tmp_path, epochs):
    with pytest.raises(CommandError, match="^--epochs must be at least 1$"):
        call_command("train_fusion", "--corpus", "threads", "--epochs", epochs, "--out", str(tmp_path / "fusion"))
    assert not (tmp_path / "fusion").exists()
