from mathparse import parse
from mathparse.tree import Node, Tree
from ml.training.corpus import CorpusFormula, SltOnly, parse_formula
from ml.training.parsing import load_graphs


def counting(parse):
    calls = []

    def counted(item):
        calls.append(item.text)
        return parse(item)

    return counted, calls


def same_graphs(a, b):
    return len(a) == len(b) and all(x == y for x, y in zip(a, b))


def test_a_second_load_reads_the_cache_instead_of_parsing(corpus, tmp_path):
    items, parse = corpus
    counted, calls = counting(parse)
    first = load_graphs(items, counted, 150, tmp_path)
    assert len(calls) == len(items)
    again = load_graphs(items, counted, 150, tmp_path)
    assert len(calls) == len(items)
    assert same_graphs(first[0], again[0]) and again[1] == first[1] == {"invalid_slt_string": 1}


def test_other_formulas_or_max_nodes_parse_again(corpus, tmp_path):
    items, parse = corpus
    counted, calls = counting(parse)
    load_graphs(items, counted, 150, tmp_path)
    load_graphs(items[:-1], counted, 150, tmp_path)
    load_graphs(items, counted, 2, tmp_path)
    assert len(calls) == 3 * len(items) - 1
    assert len(list(tmp_path.glob("*.pickle"))) == 3


def test_real_parses_come_back_equal_even_deep_ones(tmp_path):
    chain = Node("V!x")
    for _ in range(999):  # deeper than pickle can recurse
        chain = Node("V!x", (("n", chain),))
    deep = Tree(chain, "slt")
    items = [CorpusFormula(r"\frac{a+b}{a+b}^{2}", "latex"), CorpusFormula("deep", "slt")]

    def parse_or_deep(item):
        return SltOnly(deep) if item.text == "deep" else parse_formula(item)

    written, _ = load_graphs(items, parse_or_deep, 1000, tmp_path)
    read, _ = load_graphs(items, parse_or_deep, 1000, tmp_path)
    parsed = parse(items[0].text, "latex")
    assert read[0] == (parsed.slt, parsed.opt) and read[1] == (deep, None)
    assert [tree.edges for tree in read[0]] == [tree.edges for tree in written[0]]
