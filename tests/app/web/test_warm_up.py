"""A web process loads what a search needs before it answers (mathsearch/wsgi.py runs this as it starts): checked by
what is loaded afterwards, not by timing a search."""
import pytest
from django.conf import settings
from django.template import engines
from django.urls import clear_url_caches, get_resolver

from searchapp import embedding
from searchapp.search import ranking
from searchapp.web.warm_up import warm_up_process


@pytest.mark.django_db
def test_the_warm_up_loads_the_models_the_ranker_the_urls_and_the_templates():
    loader = engines["django"].engine.template_loaders[0]  # Django's cached loader
    ranking._loaded.pop(settings.MATHSEARCH_RANKER_DIR, None)  # nothing loaded, as a new process has it
    loader.reset()
    clear_url_caches()
    warm_up_process()
    assert embedding.get_model.cache_info().currsize == 1 and embedding.get_codebook.cache_info().currsize == 1
    assert ranking._loaded[settings.MATHSEARCH_RANKER_DIR][1] is ranking.shipped_ranker() is not None
    assert "url_patterns" in vars(get_resolver())  # every view module imported
    assert {"searchapp/search.html", "searchapp/questions.html", "searchapp/help.html"} <= set(loader.get_template_cache)
