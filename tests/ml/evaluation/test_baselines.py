
import pytest

from corpora.visual_ids import VisualIdRecord
from mathparse.api import parse_latex, parse_slt_string
from mathparse.errors import ParseError
from mathparse.tree import Node, Tree
from ml.evaluation.baselines import average_evaluations, latex_tfidf_run, random_baseline, tfidf_run, tree_terms
from ml.evaluation.dev_split import load_dev_split
from ml.evaluation.metrics import evaluate

HEADLINE = ("ndcg_prime", "map_prime", "p10_prime")


@pytest.fixture(scope="module")
def dev_split(shared_data):
    return load_dev_split(shared_data)


def test_dev_split_loads_cleanly(dev_split):
    assert all(problems == [] for problems in dev_split.problems.values())
    assert (len(dev_split.qrels), len(dev_split.topics_latex), len(dev_split.visual_ids)) == (29, 85, 9926)
    assert set(dev_split.qrels) <= set(dev_split.topics_latex)


def test_random_order_on_dev_split_matches_design_notes(dev_split):
    result = random_baseline(dev_split.qrels, seed=7, repeats=30)
    assert result["topics"] == 29 and result["judged_at_10"] == 1.0
    assert [result[name] for name in HEADLINE] == pytest.approx([0.54, 0.17, 0.15], abs=0.025)


def test_random_baseline_is_seeded():
    qrels = {"T1": {f"d{i}": i % 4 for i in range(30)}}
    assert random_baseline(qrels, seed=3, repeats=2) == random_baseline(qrels, seed=3, repeats=2)
    assert random_baseline(qrels, seed=3, repeats=2) != random_baseline(qrels, seed=4, repeats=2)


def test_latex_tfidf_on_dev_split_beats_random_and_reproduces_design_notes(dev_split):
    qrels = dev_split.qrels
    ranking = latex_tfidf_run(qrels, dev_split.topics_latex, dev_split.doc_latex())
    result = evaluate(ranking.run, qrels)
    assert (ranking.missing_docs, ranking.missing_topics) == ({}, [])
    floor = random_baseline(qrels, seed=0, repeats=10)
    assert result["map_prime"] > floor["map_prime"] + 0.2 and result["p10_prime"] > floor["p10_prime"] + 0.2
    # DESIGN.md §5: 0.751 / 0.452 / 0.438 for tf-idf over LaTeX unigrams + bigrams on this split
    assert [result[name] for name in HEADLINE] == pytest.approx([0.751, 0.452, 0.438], abs=0.04)


def test_tfidf_run_over_node_labels():
    qrels = {"T1": {"plus": 0, "sup": 3, "none": 0}}
    queries = {"T1": ["V!x", "O!SUP", "N!2"]}
    docs = {"plus": ["V!x", "U!plus", "N!1"], "sup": ["V!y", "O!SUP", "N!2"], "none": ["V!z"], "other": ["V!x"]}
    ranking = tfidf_run(qrels, queries, docs, bigrams=False)
    assert [doc for doc, _ in ranking.run["T1"]] == ["sup", "plus", "none"]


def test_average_of_nothing_is_an_error():
    with pytest.raises(ValueError, match="nothing to average"):
        average_evaluations([])


X_SQUARED_PLUS_ONE = Tree(Node("U!plus", (("0", Node("O!SUP", (("0", Node("V!x")), ("1", Node("N!2"))))),
                                          ("0", Node("N!1")))), "opt")


@pytest.mark.parametrize("tree, with_edges, terms", [
    pytest.param(X_SQUARED_PLUS_ONE, False, ["opt:U!plus", "opt:O!SUP", "opt:V!x", "opt:N!2", "opt:N!1"],
                 id="labels"),
    pytest.param(X_SQUARED_PLUS_ONE, True,
                 ["opt:U!plus", "opt:O!SUP", "opt:V!x", "opt:N!2", "opt:N!1", "opt:U!plus 0 O!SUP",
                  "opt:O!SUP 0 V!x", "opt:O!SUP 1 N!2", "opt:U!plus 0 N!1"], id="labels-and-triples"),
    pytest.param(Tree(Node("V!x", (("a", Node("N!2")),)), "slt"), True, ["slt:V!x", "slt:N!2", "slt:V!x a N!2"],
                 id="slt-prefix"),
    pytest.param(None, True, [], id="no-tree"),
])
def test_tree_terms(tree, with_edges, terms):
    assert sorted(tree_terms(tree, with_edges)) == sorted(terms)


def test_opt_terms_on_dev_split_beat_random(dev_split):
    pool = {doc for judged in dev_split.qrels.values() for doc in judged}
    docs = {doc: _opt_terms(dev_split.visual_ids[doc]) for doc in pool}
    queries = {topic: _opt_terms(VisualIdRecord(topic, None, dev_split.topics_latex[topic]))
               for topic in dev_split.qrels}
    result = evaluate(tfidf_run(dev_split.qrels, queries, docs, bigrams=False).run, dev_split.qrels)
    assert result["map_prime"] > 0.4 and result["p10_prime"] > 0.4  # random: 0.17 / 0.15


def _opt_terms(record: VisualIdRecord) -> list[str]:
    try:
        graphs = parse_latex(record.latex) if record.latex else parse_slt_string(record.slt)
    except ParseError:
        return []
    return tree_terms(graphs.opt)
