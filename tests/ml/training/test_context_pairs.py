import pytest
import torch

from ml.models.config import EncoderConfig
from ml.models.encoders import NodeEncoderModel
from ml.models.features import NodeFeaturizer
from ml.training import context_pairs
from ml.training.context_pairs import nearest_partners, thread_graphs
from ml.training.corpus import CorpusFormula, parse_formula


def page_formula(latex: str, page: str, formula_id: str) -> CorpusFormula:
    return CorpusFormula(latex, "latex", f"{page}.html:{formula_id}")


def test_threads_are_question_ids_with_distinct_formulas():
    formulas = [
        page_formula("x^2+1", "10_11", "1"), page_formula("x^{2}+1", "10_12", "2"),  # same key, two answers
        page_formula("\\frac{a}{b}", "10_12", "3"),
        page_formula("y", "20_21", "4"),  # a thread with one formula gives no pair
        page_formula("\\frac{", "10_11", "5"),  # does not parse: left out
    ]
    threads = thread_graphs(formulas, parse_formula, max_nodes=150)
    assert len(threads) == 1 and len(threads[0]) == 2


def test_oversized_formulas_are_left_out():
    formulas = [page_formula("a+b+c+d", "1_2", "1"), page_formula("x", "1_2", "2")]
    assert thread_graphs(formulas, parse_formula, max_nodes=3) == []


@pytest.fixture
def model():
    latex = ["x^2+y^2=z^2", "x^2+y^2=r^2", "\\int_0^1 f(t)\\,dt", "x^2+y^2=z^2"]
    trees = [tree for text in latex for tree in (parse_formula(CorpusFormula(text, "latex")).slt,
                                                  parse_formula(CorpusFormula(text, "latex")).opt)]
    torch.manual_seed(0)
    return NodeEncoderModel(NodeFeaturizer.build(trees, 100, 1, 8), EncoderConfig(dim=32, layers=2)).eval()


def graphs(latex: str):
    parsed = parse_formula(CorpusFormula(latex, "latex"))
    return parsed.slt, parsed.opt


def test_each_anchor_gets_its_most_alike_thread_mate(model):
    thread = [graphs("x^2+y^2=z^2"), graphs("\\int_0^1 f(t)\\,dt"), graphs("x^2+y^2")]
    partner_of = {id(anchor): partner for anchor, partner in nearest_partners([thread], model)}
    assert partner_of[id(thread[0])] is thread[2]


def test_near_identical_and_tiny_formulas_are_not_paired(model, monkeypatch):
    thread = [graphs("x^2+y^2=z^2"), graphs("x^2+y^2=r^2"), graphs("x")]  # the first two: similarity 0.98
    pairs = {(id(anchor), id(partner)) for anchor, partner in nearest_partners([thread], model)}
    assert (id(thread[0]), id(thread[1])) not in pairs and all(anchor != id(thread[2]) for anchor, _ in pairs)
    monkeypatch.setattr(context_pairs, "HIGH", 1.01)
    pairs = {(id(anchor), id(partner)) for anchor, partner in nearest_partners([thread], model)}
    assert (id(thread[0]), id(thread[1])) in pairs
