import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ml.retrieval.codebook import load_codebook
from searchapp.embedding import get_codebook
from searchapp.indexing.codebook import index_postings
from searchapp.models import CodebookState, Formula
from tests.app.conftest import FORMULAS

SHIPPED_MODEL_DIR = settings.MATHSEARCH_MODEL_DIR
INDEXED = [rf"x_{{{i}}}^{{{i + 1}}} + \frac{{a_{{{i}}}}}{{b + {i}}} = \sqrt{{y_{{{i}}}}}" for i in range(40)]
"""Enough node vectors for the smallest codebook a refit fits (64 coarse centroids)."""


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


@pytest.fixture
def site_model_copy(tmp_path, settings):
    """The site's model in a folder of its own, so that refitting its codebook leaves the shipped one alone."""
    target = tmp_path / "site-model"
    shutil.copytree(settings.MATHSEARCH_MODEL_DIR, target)
    settings.MATHSEARCH_MODEL_DIR = target
    get_codebook.cache_clear()
    yield target
    get_codebook.cache_clear()


@pytest.mark.django_db
def test_from_index_fits_the_codebook_to_the_index_and_posts_every_formula_again(site_model_copy, index_file):
    index_file(INDEXED)
    shipped = CodebookState.objects.get().fingerprint
    checked = StringIO()
    call_command("build_codebook", "--from-index", "--check", stdout=checked)
    assert "on 4,096 centroids" in checked.getvalue() and "the rule gives 64 × 64 = 4,096" in checked.getvalue()
    assert CodebookState.objects.get().fingerprint == shipped  # a check changes nothing
    out = StringIO()
    call_command("build_codebook", "--from-index", stdout=out)
    refitted = load_codebook(site_model_copy, dim=64)
    assert CodebookState.objects.get().fingerprint == refitted.fingerprint != shipped
    assert refitted.centroids["slg"].shape == (64 * 64, 64)  # a small index keeps the smallest side
    assert "64 × 64 centroids per representation" in out.getvalue()
    assert set(index_postings()) == {"slg", "opg"}
    top = Formula.objects.search(INDEXED[7], k=3, fusion="f1").hits[0]
    assert top.formula.latex == INDEXED[7] and top.score == pytest.approx(1.0, abs=0.01)


@pytest.mark.django_db
def test_from_index_on_an_empty_index_is_a_clear_error(site_model_copy):
    with pytest.raises(CommandError, match="the index holds no postings: index a corpus first"):
        call_command("build_codebook", "--from-index")


def test_from_index_refuses_another_model(model_copy):
    with pytest.raises(CommandError, match="leave out --model and --corpus"):
        call_command("build_codebook", "--from-index", "--model", str(model_copy))


@pytest.mark.django_db
def test_a_worker_holding_the_old_codebook_reads_the_refitted_one_before_indexing(site_model_copy, index_file,
                                                                                  settings):
    index_file(INDEXED)
    shipped = get_codebook()
    call_command("build_codebook", "--from-index", stdout=StringIO())
    settings.MATHSEARCH_MODEL_DIR, refitted_dir = SHIPPED_MODEL_DIR, settings.MATHSEARCH_MODEL_DIR
    get_codebook.cache_clear()
    assert get_codebook().fingerprint == shipped.fingerprint  # this process still holds the codebook it started with
    settings.MATHSEARCH_MODEL_DIR = refitted_dir  # …while the refit rewrote the file it reads
    job = index_file(["q^2 + 1"], corpus="more", name="more.txt")
    assert job.state == "done", job.message
    assert get_codebook().fingerprint == CodebookState.objects.get().fingerprint != shipped.fingerprint
    top = Formula.objects.search("q^2 + 1", k=1, fusion="f1").hits[0]
    assert top.formula.latex == "q^2 + 1" and top.score == pytest.approx(1.0, abs=0.01)
