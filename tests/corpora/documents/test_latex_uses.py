import string

import pytest

from corpora.documents import latex_tokens, latex_uses
from corpora.documents.budgets import UploadTokens
from corpora.documents.latex_expansion import expand
from corpora.documents.latex_uses import MAX_USE_TOKENS, DocumentTokens
from tests.corpora.documents.conftest import dollar_formulas, no_files, resolver


def where(problems) -> list[tuple[str, int | None, str]]:
    return [(problem.file, problem.line, problem.kind) for problem in problems]


def test_a_deep_but_finite_nesting_expands_fully():
    names = ["n" + first + second for first in string.ascii_lowercase for second in string.ascii_lowercase][:100]
    chain = rf"\def\{names[-1]}{{x}}" + "".join(rf"\def\{name}{{(\{inner})}}" for name, inner in zip(names, names[1:]))
    expansion = expand(chain + rf"$\{names[0]}$", "main.tex", no_files)
    assert expansion.problems == []
    assert dollar_formulas(expansion.text) == ["(" * 99 + "x" + ")" * 99]


LOOPS = {"direct": r"\def\a{\a}", "growing": r"\def\a{x\a}", "mutual": r"\def\a{\b}\def\b{\a}",
         "doubling": r"\newcommand{\a}{\a\a}", "nesting": r"\newcommand{\a}{(\a)}",
         "growing-argument": r"\def\a#1{\a{#1#1}}"}
"""Macros that expand forever, each its own way."""


@pytest.mark.parametrize("definition", LOOPS.values(), ids=LOOPS.keys())
def test_a_looping_macro_is_reported_once_with_its_line_and_left_as_written(definition):
    expansion = expand(definition + "\n\n$\\a + 1$ and $\\a$", "main.tex", no_files)
    assert where(expansion.problems) == [("main.tex", 3, "macro-loop")]
    assert expansion.problems[0].message == (f"macro \\a reads more than {MAX_USE_TOKENS:,} tokens (it expands "
                                             "forever); left as written")
    assert dollar_formulas(expansion.text) == [r"\a + 1", r"\a"]


def _counting(monkeypatch) -> list[int]:
    """Counts the tokens read by every stream (the work of an expansion), in a one-item list."""
    read = [0]
    original = latex_tokens.TokenStream.next

    def next_token(self):
        read[0] += 1
        return original(self)
    monkeypatch.setattr(latex_tokens.TokenStream, "next", next_token)
    return read


def _tree(levels: int, uses: int) -> str:
    """A file of `levels` macros, each using the next twice (2^levels tokens a use), used `uses` times."""
    names = ["q" + letter for letter in string.ascii_letters[:levels + 1]]
    definitions = "".join(rf"\def\{name}{{\{inner}\{inner}}}" for name, inner in zip(names, names[1:]))
    return definitions + rf"\def\{names[-1]}{{x}}" + "$" + rf"\{names[0]} " * uses + "$"


@pytest.mark.parametrize("levels, kind, why", [
    pytest.param(12, "macro-budget",
                 "goes past the {budget:,} tokens the document's macros may read; no macro is expanded after it",
                 id="uses-within-the-use-bound-spend-the-document-s"),
    pytest.param(13, "macro-loop", f"reads more than {MAX_USE_TOKENS:,} tokens (it expands forever)",
                 id="a-use-past-the-use-bound"),
])
def test_a_small_file_asking_for_millions_of_tokens_is_stopped_early(monkeypatch, levels, kind, why):
    read = _counting(monkeypatch)
    source = _tree(levels, 100)
    assert len(source) < 700
    expansion = expand(source, "main.tex", no_files)
    budget = latex_uses.MAX_DOCUMENT_TOKENS + latex_uses.TOKENS_PER_SOURCE_CHAR * len(source)
    assert read[0] < budget + MAX_USE_TOKENS + len(source)  # not the 100 × 3 × 2^levels the file asks for
    assert where(expansion.problems) == [("main.tex", 1, kind)]
    assert expansion.problems[0].message == f"macro \\qa {why.format(budget=budget)}; left as written"


def test_the_document_budget_grows_with_its_text():
    ordinary = r"\newcommand{\R}{\mathbb{R}}" + "A line about $\\R^n$ and its dual space.\n" * 4000
    expansion = expand(ordinary, "main.tex", no_files)
    assert expansion.problems == []
    assert expansion.text.count(r"\mathbb{R}") == 4000


def test_an_upload_shares_its_macro_tokens_among_its_documents():
    """A folder of small macro bombs: once the upload's tokens are spent, its other documents expand nothing."""
    bomb = "".join(f"\\def\\m{chr(98 + i)}{{\\m{chr(97 + i)}\\m{chr(97 + i)}}}" for i in range(13))
    source = "\\def\\ma{x}" + bomb + "\n" + "\\mn " * 100 + "\n\\def\\one{1}$\\one$"
    tokens = UploadTokens(30_000)
    first = expand(source, "first.tex", no_files, tokens=tokens)
    second = expand(source, "second.tex", no_files, tokens=tokens)
    assert where(first.problems) == [("first.tex", 2, "macro-loop")] and first.text.endswith("$1$")
    assert tokens.left == 0
    assert where(second.problems) == [("second.tex", 2, "macro-budget")] and second.text.endswith(r"$\one$")
    assert "its upload's macros had left" in second.problems[0].message


def test_a_runaway_argument_is_reported_once_per_macro_and_other_uses_still_expand():
    source = "\\def\\a#1/{(#1)}\nfirst \\a x y\n\nnext $\\a z/$ \\a w\n\nend \\a v/"
    expansion = expand(source, "main.tex", no_files)
    assert " ".join(expansion.text.split()) == r"first \a x y next $(z)$ \a w end (v)"
    assert where(expansion.problems) == [("main.tex", 2, "runaway-argument")]
    assert expansion.problems[0].message == ("macro \\a has a runaway argument: an argument's delimiter '/' does "
                                             "not come before a blank line; left as written")


def test_a_use_that_does_not_match_its_definition_is_a_runaway_argument_and_left_as_written():
    expansion = expand("\\def\\ev[#1]#2{#2(#1)}\n$\\ev{f}$ $\\ev[a]{g}$", "main.tex", no_files)
    assert dollar_formulas(expansion.text) == [r"\ev{f}", "g(a)"]
    assert where(expansion.problems) == [("main.tex", 2, "runaway-argument")]
    assert expansion.problems[0].message == "macro \\ev does not match its definition ('[' must follow); left as written"


def test_a_macro_short_of_arguments_never_swallows_the_end_of_its_environment():
    source = ("\\def\\Second#1#2{#2}\n\\begin{eqnarray*}\n x & = & \\Foldl{f}{e}\\Second\n\\end{eqnarray*}\n"
              "after $\\Second{a}{b}$")
    expansion = expand(source, "main.tex", no_files)
    assert " ".join(expansion.text.split()) == (r"\begin{eqnarray*} x & = & \Foldl{f}{e}\Second \end{eqnarray*} "
                                                r"after $b$")
    assert where(expansion.problems) == [("main.tex", 3, "runaway-argument")]
    assert expansion.problems[0].message == ("macro \\Second has a runaway argument: an argument would be the \\end "
                                             "of its environment (fewer arguments given than it reads); left as written")


def test_a_runaway_definition_is_reported_where_reading_stopped():
    expansion = expand("\\newcommand{\\a}{" + "x\n" * 60_000, "main.tex", no_files)
    assert where(expansion.problems) == [("main.tex", 50001, "runaway-argument")]
    assert expansion.problems[0].message == ("\\newcommand: an argument runs past 100,000 characters (a brace never "
                                             "closed)")


def test_a_problem_names_the_included_file_and_its_line():
    expansion = expand(r"\def\a{\a}\input{b}", "main.tex", resolver({"b.tex": "one\ntwo $\\a$"}))
    assert where(expansion.problems) == [("b.tex", 2, "macro-loop")]
    assert str(expansion.problems[0]) == (f"b.tex:2: macro \\a reads more than {MAX_USE_TOKENS:,} tokens (it expands "
                                          "forever); left as written")


def test_reading_is_bounded_outside_macro_uses_too(monkeypatch):
    monkeypatch.setattr(latex_uses, "MAX_DOCUMENT_TOKENS", 0)
    monkeypatch.setattr(latex_uses, "TOKENS_PER_SOURCE_CHAR", 0)  # so that reading the text itself is too much
    with pytest.raises(ValueError, match="reading the document took more than 0 tokens"):
        expand("text", "main.tex", no_files)


def test_a_document_s_budget_grows_with_its_files_but_never_past_what_its_upload_has_left():
    tokens = DocumentTokens(UploadTokens(10**9))
    tokens.source_chars = 1_000
    assert tokens.budget == latex_uses.MAX_DOCUMENT_TOKENS + 1_000 * latex_uses.TOKENS_PER_SOURCE_CHAR
    assert tokens.ceiling == 3 * tokens.budget
    assert DocumentTokens(UploadTokens(500)).budget == 500


def test_a_use_gets_at_most_the_use_bound_and_no_more_than_the_document_has_left():
    tokens = DocumentTokens(UploadTokens(10**9))
    assert tokens.for_a_use() == MAX_USE_TOKENS
    tokens.spent = tokens.budget - 7
    assert tokens.for_a_use() == 7
    tokens.spent = tokens.budget + 7
    assert tokens.for_a_use() == 0


@pytest.mark.parametrize("upload, spent_all, kind, stopped", [
    pytest.param(10**9, False, "macro-loop", False, id="one-use-past-its-bound"),
    pytest.param(10**9, True, "macro-budget", True, id="the-document-s-budget"),
    pytest.param(100, False, "macro-budget", True, id="the-upload-s-tokens"),
])
def test_the_bound_a_use_passed_is_named_and_past_a_budget_no_macro_is_expanded(upload, spent_all, kind, stopped):
    tokens = DocumentTokens(UploadTokens(upload))
    tokens.source_chars = 10_000  # a budget well above one use's bound
    tokens.spent = tokens.budget - MAX_USE_TOKENS if spent_all else 0
    limit = tokens.passed("f", MAX_USE_TOKENS)
    assert (limit.macro, limit.kind, tokens.stopped) == ("f", kind, stopped)
