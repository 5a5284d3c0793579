import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from searchapp.models import Feedback, Formula
from searchapp.replica_server import throwaway_replica
from searchapp.search import propensity
from searchapp.search.propensity import CACHE_KEY
from tests.app.factories import DEAD_BROKER, FORMULAS, PAGES, index_formulas, index_thread_pages, staff_user


@pytest.fixture(autouse=True)
def prior_propensities(monkeypatch):
    """Every test starts from the prior position bias: an estimate another test remembered stays with it."""
    cache.delete(CACHE_KEY)
    monkeypatch.setattr(propensity, "_read", None)


@pytest.fixture(autouse=True)
def corpus_rankers(settings, tmp_path):
    """Rankers trained by a test stay in its own folder."""
    settings.MATHSEARCH_CORPUS_RANKERS_DIR = tmp_path / "rankers"
    return settings.MATHSEARCH_CORPUS_RANKERS_DIR


@pytest.fixture(autouse=True)
def fusion_of_the_settings(settings):
    """A test that points MATHSEARCH_FUSION_DIR elsewhere leaves the fusion it cached (or its absence) behind: the next
    test would index without MaRF vectors. (`settings` is set up first, so at this teardown the override still holds.)"""
    from searchapp.embedding import get_fusion

    shipped = settings.MATHSEARCH_FUSION_DIR
    yield
    if settings.MATHSEARCH_FUSION_DIR != shipped:
        get_fusion.cache_clear()


@pytest.fixture
def index_file(tmp_path):
    """Index lines of LaTeX into a corpus, in this process; returns the finished job."""
    def index(lines=FORMULAS, corpus="test", name="formulas.txt", format="latex"):
        return index_formulas(tmp_path / name, lines, corpus, format)
    return index


@pytest.fixture
def staff(db, client):
    """The test client, logged in as a superuser."""
    client.force_login(staff_user("ada", password="pw", is_superuser=True))
    return client


@pytest.fixture
def upload_dir(settings, tmp_path):
    """Where uploads are stored: a folder of this test's."""
    settings.MATHSEARCH_UPLOAD_DIR = tmp_path / "uploads"
    return settings.MATHSEARCH_UPLOAD_DIR


@pytest.fixture
def broker_down(settings):
    settings.CELERY_BROKER_URL = DEAD_BROKER


@pytest.fixture
def indexed(index_file):
    """FORMULAS indexed as the corpus "test"."""
    return index_file()


@pytest.fixture
def formula(index_file):
    """A formula to judge, in the corpus "test"."""
    index_file()
    return Formula.objects.get(latex=r"e^{i\pi} + 1 = 0")


@pytest.fixture
def threads(tmp_path):
    """PAGES indexed as the corpus "threads"."""
    return index_thread_pages(tmp_path / "pages", PAGES)


JUDGED = {  # a corpus whose feedback judged three queries: query → (relevant formulas, not relevant formulas)
    "p^2 + q^2 = r^2": ([r"x^2 + y^2 = z^2", r"a^2 + b^2 = c^2"], [r"\int_0^1 x^2 \, dx", r"e^{i\pi} + 1 = 0"]),
    r"\cos^2 t + \sin^2 t = 1": ([r"\sin^2 x + \cos^2 x = 1"], [r"\frac{a}{b} + \frac{c}{d}", r"x^2 + y^2 = z^2"]),
    r"\sum_{k=1}^{n} k^2": ([r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}"], [r"e^{i\pi} + 1 = 0"]),
}


@pytest.fixture
def judged(index_file):
    index_file()
    for query, (relevant, not_relevant) in JUDGED.items():
        for kind, formulas in (("relevant", relevant), ("not_relevant", not_relevant)):
            for rank, latex in enumerate(formulas, start=1):
                Feedback.objects.create(query=query, formula=Formula.objects.get(latex=latex), kind=kind, rank=rank)


@pytest.fixture
def no_shipped_ranker(settings, tmp_path):
    """Searches of a corpus without its own ranker are ordered by dense fusion."""
    settings.MATHSEARCH_RANKER_DIR = tmp_path / "no-shipped-ranker"


@pytest.fixture
def trained_fusion(settings, tmp_path):
    """A fusion in place before indexing (an untrained one: MaRF's vector is then the post's pooled words)."""
    from ml.text.marf import Fusion, save
    from searchapp.embedding import get_fusion

    settings.MATHSEARCH_FUSION_DIR = tmp_path / "fusion"
    save(Fusion(), settings.MATHSEARCH_FUSION_DIR, {})
    get_fusion.cache_clear()
    yield
    get_fusion.cache_clear()


@pytest.fixture
def no_fusion(settings, tmp_path):
    """No fusion in place before indexing (whether one ships in models/ or not)."""
    from searchapp.embedding import get_fusion

    settings.MATHSEARCH_FUSION_DIR = tmp_path / "none"
    get_fusion.cache_clear()
    yield
    get_fusion.cache_clear()


@pytest.fixture(scope="session")
def standby(django_db_setup, django_db_blocker):
    """A real hot standby of the test database's Postgres (`searchapp.replica_server`), cloned once for the session
    and removed with its replication slot at its end."""
    with django_db_blocker.unblock(), throwaway_replica(connection.settings_dict, settings.VAR_DIR) as replica:
        yield replica
