"""ARQMath-2 judgments of formulas on the thread pages, read as visual ids through the real indexing and search."""
import pytest

from searchapp.learning.thread_judgments import Year, thread_topics, visual_judgments
from tests.app.factories import write_thread_pages
from tests.ml.factories import formula_span

FRACTION = formula_span(4, r"\frac{1}{n}")
PAGES = {  # formula N has visual id N + 100; 9 stands on every page (a comment)
    "1_2.html": ("Squares", f"<p>Is {formula_span(1, 'a^2+b^2')} a square?</p>", f"<p>Yes: {formula_span(2, 'x^2+y^2')}</p>"),
    "3_4.html": ("Again", f"<p>And {formula_span(3, 'a^2+b^2')}?</p>", f"<p>See {FRACTION}</p>"),
}


def test_judgments_by_formula_id_and_by_visual_id_are_read_as_the_visual_ids_on_the_pages():
    visual = {1: "101", 2: "102", 3: "101", 4: "104"}
    by_formula = {"B.201": {"1": 1, "3": 3, "2": 0, "555": 2}, "B.202": {"777": 3}}
    by_visual = {"B.201": {"102": 2, "999": 3}, "B.203": {"104": 1}}
    assert visual_judgments(by_formula, by_visual, visual) == {
        "B.201": {"101": 3, "102": 2},  # the best of a visual id's formulas; the visual-id file's grade wins
        "B.203": {"104": 1},
    }  # judged formulas that stand on no page (555, 777, 999) are dropped, and B.202 with them


@pytest.mark.django_db
def test_a_years_topics_are_read_over_the_indexed_pages_with_their_candidates_named_by_visual_id(tmp_path):
    write_thread_pages(tmp_path / "arqmath" / "threads-mathdowsers", PAGES)
    (tmp_path / "arqmath" / "topics").mkdir()
    (tmp_path / "arqmath" / "qrels").mkdir()
    (tmp_path / "arqmath" / "topics" / "topics.txt").write_text("B.201\ta^2+b^2\nB.202\t\\frac{\nB.203\tq\n")
    (tmp_path / "arqmath" / "qrels" / "by_formula.tsv").write_text(
        "B.201\t0\t1\t3\nB.201\t0\t2\t1\nB.202\t0\t4\t2\nB.203\t0\t555\t3\n")
    (tmp_path / "arqmath" / "qrels" / "by_visual.tsv").write_text("B.201\t0\t104\t0\n")

    [judged] = thread_topics(tmp_path, [Year("topics.txt", "by_formula.tsv", "by_visual.tsv")], progress=lambda _: None)

    assert judged.qrels == {"B.201": {"101": 3, "102": 1, "104": 0}}  # B.203 judged no formula on the pages
    assert judged.unreadable == ["B.202"]
    candidates = judged.data["B.201"]
    assert {"101", "103", "102", "104", "109"} <= set(candidates.docs)
    assert candidates.docs.index("101") == candidates.docs.index("103") - 1  # one stored formula, both spellings
    assert candidates.features.shape[0] == len(candidates.docs) == len(candidates.dense)
    assert candidates.dense[candidates.docs.index("101")] == candidates.dense.max()  # the query itself ranks first
    [topic] = judged.training()
    assert sorted(topic.grades) == [0, 1, 3]

