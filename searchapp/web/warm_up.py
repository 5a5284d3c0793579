"""What a web process loads before it answers: everything a search would otherwise load on its first use, so the
first search after the site reports healthy is as fast as the next (the issue measured 2.2–2.6 s against 0.1–0.2 s).
`mathsearch/wsgi.py` runs it in each process as it starts, before gunicorn lets it accept a request."""
import logging

from django.conf import settings
from django.db import DatabaseError
from django.template.loader import get_template
from django.urls import get_resolver

from searchapp.embedding import warm_up as warm_up_models
from searchapp.models import Corpus, CorpusRanker
from searchapp.search.ranking import shipped_ranker

logger = logging.getLogger(__name__)


def warm_up_process() -> None:
    """The models (node encoder, codebook, text encoder, fusion), the rankers (the shipped one and each corpus's
    own: loading the first imports LightGBM, ~4 s), the URL patterns and the pages' templates."""
    warm_up_models()
    shipped_ranker()
    try:
        for corpus in Corpus.objects.searchable().values_list("name", flat=True):
            CorpusRanker.objects.ranker_for(corpus)
    except DatabaseError as error:  # the health check says the database is down; the shipped ranker is loaded
        logger.warning("warm-up: no corpus's own ranker loaded (%s)", error)
    get_resolver().url_patterns  # noqa: B018 (imports every view module)
    for template in sorted((settings.BASE_DIR / "templates" / "searchapp").glob("*.html")):
        get_template(f"searchapp/{template.name}")
