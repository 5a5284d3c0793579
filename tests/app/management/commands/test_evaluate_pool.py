import pytest
from django.core.management import CommandError, call_command

from searchapp.management.commands.evaluate_pool import _labelled

DEV_QRELS = "arqmath/qrels/qrels.arqmath-2020-task2-dev-visual_ids.txt"


def test_models_can_be_labelled_for_the_table(tmp_path):
    assert _labelled(f"Outer={tmp_path}") == ("Outer", tmp_path)
    assert _labelled(str(tmp_path)) == (str(tmp_path), tmp_path)


def test_a_model_that_is_not_a_directory_is_named_in_the_error(shared_data):
    qrels = shared_data / DEV_QRELS
    with pytest.raises(CommandError, match="--model 'SLG=/nope': /nope is not a model directory"):
        call_command("evaluate_pool", "--qrels", str(qrels), "--model", "SLG=/nope", "--markdown")


def test_untrained_seeds_must_be_positive(shared_data):
    with pytest.raises(CommandError, match="--untrained-seeds must be at least 1, got 0"):
        call_command("evaluate_pool", "--qrels", str(shared_data / DEV_QRELS), "--untrained-seeds", "0")
