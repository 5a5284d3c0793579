
import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ml.formula import ParseError, to_slt_string
from searchapp.models import Formula
from searchapp.search.query import parse_queries, parse_query, stored_query
from searchapp.web.presenters import present

pytestmark = pytest.mark.django_db


@pytest.fixture
def indexed(index_file):
    return index_file()


def test_a_stored_formula_finds_itself_first_with_full_score(indexed):
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=5, fusion="f1")
    top = results.hits[0]
    assert top.formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert top.score == pytest.approx(1.0, abs=0.01) and top.score <= 1.0
    assert all(-1.0 <= part <= 1.0 for hit in results.hits for part in hit.parts.values())
    assert [hit.rank for hit in results.hits] == list(range(1, len(results.hits) + 1))
    assert all(a.score >= b.score for a, b in zip(results.hits, results.hits[1:]))


def test_the_learned_ranker_orders_by_default_and_names_what_raised_each_hit(indexed, settings):
    assert (settings.MATHSEARCH_RANKER_DIR / "model.txt").is_file()  # the shipped ranker
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=5)
    assert results.fusion == "learned" and results.hits[0].formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert all(a.score >= b.score for a, b in zip(results.hits, results.hits[1:]))
    assert all(value > 0 for hit in results.hits for _, value in hit.signals)
    assert any(hit.signals for hit in results.hits)


def test_similar_formulas_rank_above_unrelated_ones(indexed):
    ranked = [hit.formula.latex for hit in Formula.objects.search("p^2 + q^2 = r^2", k=7).hits]
    assert set(ranked[:2]) == {r"a^2 + b^2 = c^2", r"x^2 + y^2 = z^2"}


def test_hits_carry_score_parts_and_node_alignment(indexed):
    hit = Formula.objects.search(r"e^{i\pi} + 1 = 0", k=1).hits[0]
    assert set(hit.parts) == {"slg", "opg"}
    slg = hit.alignment["slg"]
    assert len(slg.pairs) == len(slg.query_labels)
    assert all(slg.query_labels[i] == slg.result_labels[j] for i, j, _ in slg.pairs)


def test_corpus_filter(index_file):
    index_file(["x^2"], corpus="one")
    index_file(["x^3"], corpus="two", name="two.txt")
    hits = Formula.objects.search("x^2", k=10, corpus="two").hits
    assert [hit.formula.corpus.name for hit in hits] == ["two"]


def test_unparsable_query_raises_parse_error_with_position(indexed):
    with pytest.raises(ParseError) as raised:
        Formula.objects.search(r"\frac{1}{")
    assert raised.value.pos is not None


def test_a_collection_larger_than_the_shortlist_is_searched_through_the_codebook(index_file):
    index_file(corpus="big")
    index_file(["w^5 - 1"], corpus="other", name="other.txt")
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=2, shortlist_size=2, corpus="big")
    assert results.hits[0].formula.latex == r"\sin^2 x + \cos^2 x = 1"
    assert 2 <= results.candidates <= 4 < Formula.objects.filter(corpus__name="big").count()
    assert {hit.formula.corpus.name for hit in results.hits} == {"big"}


def test_a_small_collection_is_scored_completely(indexed):
    assert Formula.objects.search("p^2", k=10).candidates == Formula.objects.count()


def test_a_search_reads_the_database_a_pinned_number_of_times(index_file):
    """Parse and embed once, read the candidates' matrices once and the hits' rows once, their posts once."""
    index_file(corpus="big")
    query = parse_query(r"\sin^2 x + \cos^2 x = 1")
    with CaptureQueriesContext(connection) as captured:
        results = Formula.objects.search(query, k=5, shortlist_size=2, corpus="big")
        present(results)
    statements = [q["sql"].split()[0].upper() for q in captured.captured_queries]
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), structure matches,
    # release, candidate matrices, people's feedback on the query and its logged pages, hit rows, hit posts, hit
    # occurrence counts
    assert len(statements) == 17, statements
    assert 1 <= len(results.hits) == min(5, results.candidates)


def test_several_queries_share_one_first_stage_and_score_as_each_alone(index_file):
    """A question's formulas: one codebook probe and posting-list read per representation, one matrix read."""
    index_file(corpus="big")
    queries, failed = parse_queries([r"\sin^2 x + \cos^2 x = 1", "a^2 + b^2 = c^2", r"\frac{1}{"])
    assert [text for text, _ in failed] == [r"\frac{1}{"] and failed[0][1].pos is not None
    alone = [Formula.objects.scored_candidates(query, 2, "big") for query in queries]
    with CaptureQueriesContext(connection) as captured:
        together = Formula.objects.scored_candidates_of(queries, 2, "big")
    # ids-if-small, savepoint, corpus id, 2 × (ef_search, nearest centroids, posting lists), 2 × structure matches,
    # release, candidate matrices
    assert len(captured.captured_queries) == 13
    for one, batched in zip(alone, together):
        assert one.ids == batched.ids
        assert all(np.allclose(one.parts[name], batched.parts[name]) for name in ("slg", "opg"))


def test_a_query_in_each_notation_finds_the_same_formula(indexed):
    latex = parse_query("a^2 + b^2 = c^2", "latex")
    slt = parse_query(to_slt_string(latex.graphs.slt), "slt")
    mathml = parse_query("<math><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup>"
                         "<mo>=</mo><msup><mi>c</mi><mn>2</mn></msup></math>", "mathml")
    tops = [Formula.objects.search(query, k=1).hits[0].formula.latex for query in (latex, slt, mathml)]
    assert tops == ["a^2 + b^2 = c^2"] * 3


def test_a_stored_formula_is_searched_from_its_vectors_without_parsing(indexed, monkeypatch):
    formula = Formula.objects.get(latex="a^2 + b^2 = c^2")
    monkeypatch.setattr("searchapp.search.query.parse", None)  # any parse would fail loudly
    query = stored_query(formula)
    hits = Formula.objects.exclude(pk=formula.pk).search(query, k=2).hits
    assert formula.pk not in [hit.formula_id for hit in hits]
    assert hits[0].formula.latex == "x^2 + y^2 = z^2"
    assert hits[0].alignment["slg"].query_labels == formula.node_labels["slt"]


def test_a_formula_held_by_overlapping_corpora_is_listed_once_naming_the_others(index_file):
    index_file(corpus="sample")
    index_file(corpus="full", name="full.txt")
    index_file(["p^2 + q^2 = r^2"], corpus="other", name="other.txt")
    results = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", k=100)
    latex = [hit.formula.latex for hit in results.hits]
    assert len(latex) == len(set(latex)) == results.candidates == Formula.objects.values("visual_key").distinct().count()
    top = results.hits[0]
    assert top.formula.corpus.name == "sample"  # equal scores: the first indexed leads
    assert [(f.corpus.name, f.latex) for f in top.also] == [("full", top.formula.latex)]
    assert next(hit for hit in results.hits if hit.formula.latex == "p^2 + q^2 = r^2").also == []
    one_corpus = Formula.objects.search(r"\sin^2 x + \cos^2 x = 1", corpus="full").hits
    assert [hit.formula.corpus.name for hit in one_corpus] == ["full"] * 7 and not any(hit.also for hit in one_corpus)


def test_pages_of_overlapping_corpora_never_repeat_a_formula(index_file):
    index_file(corpus="sample")
    index_file(corpus="full", name="full.txt")
    pages = [Formula.objects.search("a^2 + b^2 = c^2", k=3, offset=offset).hits for offset in (0, 3, 6)]
    keys = [hit.formula.visual_key for page in pages for hit in page]
    assert len(keys) == len(set(keys)) == 7  # the 7 distinct formulas, then the pages end
    assert [hit.rank for page in pages for hit in page] == list(range(1, 8))


def test_formulas_holding_a_pattern_rank_first_and_say_what_its_variables_stand_for(index_file):
    index_file([r"\frac{1}{n^2}", r"\frac{1}{x+y} = z", r"\frac{2}{n^2}", r"\sqrt{n^2}", r"\frac{1}{2}+\frac{1}{3}"],
               corpus="fractions")
    hits = Formula.objects.search(r"\frac{1}{\qvar{x}} + \frac{1}{\qvar{y}}", k=5).hits
    assert (hits[0].formula.latex, hits[0].bindings) == (r"\frac{1}{2}+\frac{1}{3}", [("x", "2"), ("y", "3")])
    assert all(hit.bindings is None for hit in hits[1:])
    hits = Formula.objects.search(r"\frac{1}{\qvar{x}}", k=5).hits
    assert {(hit.formula.latex, tuple(hit.bindings)) for hit in hits[:3]} == {
        (r"\frac{1}{n^2}", (("x", "n^{2}"),)), (r"\frac{1}{x+y} = z", (("x", "x + y"),)),
        (r"\frac{1}{2}+\frac{1}{3}", (("x", "2"),))}
    assert [hit.bindings for hit in hits[3:]] == [None, None]
    paged = [Formula.objects.search(r"\frac{1}{\qvar{x}}", k=1, offset=offset).hits[0] for offset in range(5)]
    assert [hit.formula_id for hit in paged] == [hit.formula_id for hit in hits]  # each page reads only what it needs
    assert all(hit.alignment["slg"].query_labels[i] != "W!x" for hit in hits for i, _, _ in hit.alignment["slg"].pairs)
    same = Formula.objects.search(r"\frac{1}{\qvar{x}} + \frac{1}{\qvar{x}}", k=5).hits
    assert all(hit.bindings is None for hit in same)  # one name, one sub-expression: 2 and 3 differ


def test_a_pattern_labels_only_the_formulas_its_bindings_give_back(index_file):
    index_file([r"a^2+ab+b^2=d^2", r"a^2+b^2+c^2=d^2+e^2+f^2", r"3^2+4^2=5^2", r"x^2+y^2=z^2", r"2x^2+y^2=z^2"],
               corpus="squares")
    hits = Formula.objects.search(r"\qvar{a}^2+\qvar{b}^2=\qvar{c}^2", k=5).hits
    assert {hit.formula.latex: hit.bindings for hit in hits} == {
        r"3^2+4^2=5^2": [("a", "3"), ("b", "4"), ("c", "5")], r"x^2+y^2=z^2": [("a", "x"), ("b", "y"), ("c", "z")],
        r"a^2+ab+b^2=d^2": None, r"a^2+b^2+c^2=d^2+e^2+f^2": None, r"2x^2+y^2=z^2": None}
    assert {hit.formula.latex for hit in hits[:2]} == {r"3^2+4^2=5^2", r"x^2+y^2=z^2"}  # the matches rank first
    typed = Formula.objects.search("?a^2+?b^2=?c^2", k=5).hits  # as Approach0 and zbMATH users write them
    assert [(hit.formula_id, hit.bindings) for hit in typed] == [(hit.formula_id, hit.bindings) for hit in hits]


def test_a_question_mark_without_a_letter_is_searched_as_the_symbol(indexed):
    asked = Formula.objects.search("x^2 + y^2 = z^2?", k=3)
    assert "?" in asked.query.labels["slt"] and not asked.query.variables["slg"]
    assert asked.hits[0].formula.latex == "x^2 + y^2 = z^2"


def test_a_query_of_query_variables_alone_is_refused(indexed):
    with pytest.raises(ParseError, match="only query variables") as raised:
        Formula.objects.search(r"\qvar{x}")
    assert raised.value.kind == "only_variables"
