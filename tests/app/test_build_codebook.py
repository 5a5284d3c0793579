import shutil

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ml.retrieval.codebook import load_codebook
from tests.app.conftest import FORMULAS


@pytest.fixture
def model_copy(tmp_path):
    target = tmp_path / "model"
    shutil.copytree(settings.MATHSEARCH_MODEL_DIR, target)
    (target / "codebook.safetensors").unlink()
    return target


def test_build_codebook_writes_a_loadable_codebook_beside_the_model(model_copy, tmp_path):
    corpus = tmp_path / "formulas.txt"
    corpus.write_text("\n".join(FORMULAS) + "\n")
    call_command("build_codebook", "--model", str(model_copy), "--corpus", f"{corpus}:latex",
                 "--cells", "2", "--per-cell", "4")
    codebook = load_codebook(model_copy, dim=64)
    assert codebook.centroids["slg"].shape == (8, 64) and codebook.coarse["opg"].shape == (2, 64)


def test_a_bad_corpus_spec_is_a_clear_error(model_copy):
    with pytest.raises(CommandError, match="--corpus 'nowhere.txt:latex': give an existing PATH:FORMAT"):
        call_command("build_codebook", "--model", str(model_copy), "--corpus", "nowhere.txt:latex")
