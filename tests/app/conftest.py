import pytest

from searchapp.indexing.actions import start_index_job
from searchapp.indexing.pipeline import run_job

FORMULAS = [
    r"x^2 + y^2 = z^2",
    r"a^2 + b^2 = c^2",
    r"\frac{a}{b} + \frac{c}{d}",
    r"\int_0^1 x^2 \, dx",
    r"\sum_{n=1}^{\infty} \frac{1}{n^2} = \frac{\pi^2}{6}",
    r"e^{i\pi} + 1 = 0",
    r"\sin^2 x + \cos^2 x = 1",
    r"x^2 + y^2 = z^2",
]


@pytest.fixture(autouse=True)
def corpus_rankers(settings, tmp_path):
    """Rankers trained by a test stay in its own folder."""
    settings.MATHSEARCH_CORPUS_RANKERS_DIR = tmp_path / "rankers"
    return settings.MATHSEARCH_CORPUS_RANKERS_DIR


@pytest.fixture
def index_file(tmp_path):
    """Index lines of LaTeX into a corpus, in this process; returns the finished job."""
    def index(lines=FORMULAS, corpus="test", name="formulas.txt", format="latex"):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return run_job(start_index_job(path, format, corpus, enqueue=False))
    return index
