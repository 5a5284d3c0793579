import pytest
import torch

from mathparse.errors import ParseError
from mathparse.tree import Node, Tree
from ml.training.corpus import CorpusFormula


@pytest.fixture(autouse=True)
def keep_thread_count():
    """train() sets torch's process-wide thread count; give other tests theirs back."""
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


VARIABLES = [("x", "y"), ("a", "b"), ("n", "m"), ("p", "q"), ("s", "t")]


def leaf(label: str) -> Node:
    return Node(label)


def formula(op: str, left: str, right: str) -> tuple[Tree, Tree]:
    """SLT and OPT of `left op right` for op in plus, times, sup, divide."""
    a, b = f"V!{left}", f"V!{right}"
    if op == "sup":
        return (Tree(Node(a, (("a", leaf(b)),)), "slt"),
                Tree(Node("O!SUP", (("0", leaf(a)), ("1", leaf(b)))), "opt"))
    if op == "divide":
        return (Tree(Node("O!divide", (("o", leaf(a)), ("u", leaf(b)))), "slt"),
                Tree(Node("O!divide", (("0", leaf(a)), ("1", leaf(b)))), "opt"))
    symbol = {"plus": "+", "times": "×"}[op]
    return (Tree(Node(a, (("n", Node(symbol, (("n", leaf(b)),))),)), "slt"),
            Tree(Node(f"U!{op}", (("0", leaf(a)), ("0", leaf(b)))), "opt"))


@pytest.fixture
def make_formula():
    return formula


class Parsed:
    def __init__(self, slt, opt):
        self.slt, self.opt = slt, opt


@pytest.fixture
def corpus():
    """20 tiny formulas, one that fails to parse and one without an OPT; `parse` looks them up."""
    table = {f"{op}:{a}{b}": formula(op, a, b) for op in ("plus", "times", "sup", "divide") for a, b in VARIABLES}
    table["slt-only"] = (formula("plus", "u", "v")[0], None)

    def parse(item: CorpusFormula):
        if item.text not in table:
            raise ParseError("no such formula", 0, "invalid_slt_string")
        return Parsed(*table[item.text])

    items = [CorpusFormula(text, "latex") for text in table] + [CorpusFormula("broken", "latex")]
    return items, parse
