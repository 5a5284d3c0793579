from html import escape

import pytest

from searchapp.benchmarks import arqmath_answers
from tests.app.factories import PAGES, write_thread_pages

pytestmark = pytest.mark.django_db


def topics_xml(questions: dict[str, tuple[str, str]], formulas: dict[str, str] | None = None) -> str:
    def topic(number, title, question):
        latex = f"<Formula_Id>q_1</Formula_Id><Latex>{escape(formulas[number])}</Latex>" if formulas else ""
        return (f'<Topic number="{number}">{latex}<Title>{escape(title)}</Title>'
                f"<Question>{escape(question)}</Question><Tags>x</Tags></Topic>")
    return "<Topics>" + "".join(topic(n, *q) for n, q in questions.items()) + "</Topics>"


@pytest.fixture
def data(tmp_path):
    write_thread_pages(tmp_path / arqmath_answers.PAGES, PAGES)
    (tmp_path / "topics.xml").write_text(topics_xml({
        "A.1": ("Symmetric matrices", "<p>Are the eigenvalues of a symmetric matrix real?</p>"),
        "A.2": ("Primes", "<p>Are there infinitely many primes?</p>")}))
    # 99 has no page: dropped before scoring; A.3 judges only that one, so it has no topic left
    (tmp_path / "qrels.txt").write_text("A.1\t0\t12\t3\nA.1\t0\t32\t0\nA.2\t0\t32\t2\nA.2\t0\t22\t0\nA.3\t0\t99\t2\n")
    return tmp_path


def test_every_mode_ranks_the_answers_and_judgments_without_a_page_are_dropped(data, settings):
    from searchapp.embedding import get_fusion

    settings.MATHSEARCH_FUSION_DIR = data / "no-fusion"
    get_fusion.cache_clear()
    report, runs = arqmath_answers.benchmark(data, [data / "topics.xml"], [data / "qrels.txt"], corpus="threads",
                                             progress=lambda _: None)
    assert (report["topics"], report["answers"], report["judgments"]) == (2, len(PAGES), 4)
    assert report["dropped_judgments"] == {"qrels.txt": 1} and report["indexing"]["records"] == 2 * len(PAGES)
    assert report["modes"]["marf"] is None  # no fusion trained: no marf run rather than ssemb's under its name
    for mode in ("ssemb", "text", "bm25"):
        assert report["modes"][mode]["map_prime"] == 1.0, mode  # each topic's relevant answer first
    assert [doc for doc, _ in runs["ssemb"]["A.1"]][0] == "12" and len(runs["ssemb"]["A.1"]) == len(PAGES)
    again, _ = arqmath_answers.benchmark(data, [data / "topics.xml"], [data / "qrels.txt"], corpus="threads",
                                         progress=lambda _: None)
    assert again["modes"] == report["modes"]  # the indexed pages are reused, not indexed twice


def test_formula_search_with_the_question_as_context_is_scored_on_judged_visual_ids(data):
    arqmath_answers.index_pages(data, "threads", progress=lambda _: None)
    (data / "task2.xml").write_text(topics_xml({"B.1": ("Integral", "<p>Compute the integral</p>")},
                                               formulas={"B.1": r"\int_0^1 x^2 dx"}))
    (data / "task2.qrels").write_text("B.1\t0\t102\t3\nB.1\t0\t101\t0\nB.1\t0\t5555\t2\n")  # visual id = formula id + 100
    report = arqmath_answers.formula_context(data, data / "task2.xml", data / "task2.qrels", "threads",
                                             progress=lambda _: None)
    assert (report["judgments"], report["covered_judgments"], report["topics"]) == (3, 2, 1)
    assert report["runs"]["formula"]["map_prime"] == 1.0 and set(report["runs"]) == {
        "formula", "context@0.3", "context@0.5", "context@0.7"}
