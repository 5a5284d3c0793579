import pytest

from corpora.documents.latex_macros import Macro, Param
from corpora.documents.notation import MAX_READINGS, CorpusMacros, control_sequences, corpus_macros, readings

_M = Param("m")
MACROS = {macro.name: macro.to_json() for macro in (
    Macro("norm", (_M,), r"\left\lVert#1\right\rVert"),
    Macro("inner", (_M, _M), r"\langle #1, #2\rangle"),
    Macro("pd", (Param("o", "t"), _M), r"\partial_{#1} #2"),
    Macro("abs", (_M,), r"\lvert#1\rvert"),
    Macro("dist", (_M, _M), r"\abs{#1 - #2}"),
    Macro("R", (), r"\mathbb{R}"),
    Macro("eps", primitive=r"\varepsilon"),
    Macro("forever", (), r"\forever\forever"),
)}


@pytest.mark.parametrize("latex, expected, names", [
    pytest.param(r"\norm{x+y} \le \norm{x} + \norm{y}",
                 r"\left\lVert x+y\right\rVert \le \left\lVert x\right\rVert + \left\lVert y\right\rVert", ["norm"],
                 id="argument"),
    pytest.param(r"\inner{x}{y} = \norm{x}", r"\langle x, y\rangle = \left\lVert x\right\rVert", ["inner", "norm"],
                 id="two-macros-in-order-of-use"),
    pytest.param(r"\pd f + \pd[s]{g}", r"\partial_{t} f + \partial_{s} g", ["pd"], id="optional-argument"),
    pytest.param(r"\dist{x}{y}", r"\lvert x - y\rvert", ["dist"], id="nested-macro"),
    pytest.param(r"x \in \R", r"x \in \mathbb{R}", ["R"], id="no-argument"),
    pytest.param(r"\eps > 0", r"\varepsilon > 0", ["eps"], id="let"),
    pytest.param(r"\normal(x) + \Real", r"\normal(x) + \Real", [], id="a-longer-name-is-another-command"),
    pytest.param(r"\normal(x) + \norm{x}", r"\operatorname{normal}(x) + \left\lVert x\right\rVert", ["norm"],
                 id="prefix-beside-the-macro"),  # and what no one defines is written as the corpus stored it
    pytest.param(r"\norm{\bbbk^n} \ge 0", r"\left\lVert\Bbbk^n\right\rVert \ge 0", ["norm"],
                 id="with-the-package-macros-the-documents-were-read-with"),
    pytest.param(r"a \\norm{x}", r"a \\norm{x}", [], id="line-break-then-letters"),
    pytest.param(r"\left\lVert x\right\rVert", r"\left\lVert x\right\rVert", [], id="none-used"),
    pytest.param(r"\norm{x} % the norm", r"\norm{x} % the norm", [], id="comment-left-as-typed"),
    pytest.param(r"\input{a} \norm{x}", r"\input{a} \norm{x}", [], id="include-left-as-typed"),
    pytest.param(r"\verb|a| \norm{x}", r"\verb|a| \norm{x}", [], id="verbatim-left-as-typed"),
    pytest.param(r"\forever + \norm{x}", r"\forever + \norm{x}", [], id="endless-macro-left-as-typed"),
    pytest.param(r"50\% \norm{x}", r"50\% \left\lVert x\right\rVert", ["norm"], id="escaped-percent"),
])
def test_a_query_is_read_with_the_macros_it_writes(latex, expected, names):
    assert readings(latex, MACROS, {}) == [(expected, names)]


def test_no_macros_leave_the_text_as_typed():
    assert readings(r"\norm{x}", {}, {}) == [(r"\norm{x}", [])]


@pytest.mark.parametrize("latex, expected", [
    pytest.param(r"\frac{\alpha}{\beta} + \alpha", ["frac", "alpha", "beta"], id="words-once-in-order"),
    pytest.param(r"a\,b\\c", [",", "\\"], id="control-symbols"),
    pytest.param("x^2", [], id="none"),
])
def test_control_sequences(latex, expected):
    assert control_sequences(latex) == expected


def _defined(replacement: str) -> dict:
    return Macro("x", (Param("m"),), replacement).to_json()


def test_a_corpus_reads_each_macro_with_its_most_common_definition_the_first_on_a_tie():
    documents = [{"norm": _defined(r"\lVert #1\rVert")}, {"norm": _defined(r"|#1|")}, {"norm": _defined(r"|#1|")},
                 {"inner": _defined(r"\langle #1\rangle")}, {"inner": _defined(r"(#1)")}]
    assert corpus_macros(documents) == CorpusMacros(
        {"norm": _defined(r"|#1|"), "inner": _defined(r"\langle #1\rangle")},
        {"norm": [_defined(r"\lVert #1\rVert")], "inner": [_defined(r"(#1)")]})


@pytest.mark.parametrize("redefining, documents, kept", [
    pytest.param(1, 3, False, id="one-manual-of-three"),
    pytest.param(1, 1, True, id="the-only-document"),
    pytest.param(2, 4, True, id="half"),
])
def test_a_command_katex_knows_keeps_its_meaning_unless_half_the_documents_redefine_it(redefining, documents, kept):
    """One plain-TeX manual's `\\frac` read every query's `\\frac` its way in a corpus of 3,000 documents."""
    frac = {"frac": _defined(r"{#1\over#2}")}
    macros, others = corpus_macros([frac] * redefining + [{}] * (documents - redefining))
    assert ("frac" in macros) is kept
    assert others == {}


@pytest.mark.parametrize("name", ["textbackslash", "csname", "string", "ifx"])
def test_a_command_katex_or_the_expander_reads_keeps_its_meaning_when_one_manual_redefines_it(name):
    """One manual's `\\def\\textbackslash#1\\section{…}` (or its `\\csname`, `\\string`) left every query whose macro
    writes one unexpanded."""
    delimited = Macro(name, (Param("u", delimiters=(r"\section",)),), "#1").to_json()
    macros, others = corpus_macros([{name: delimited}, {}, {}])
    assert name not in macros and name not in others


def _delimited(replacement: str) -> dict:
    return Macro("test", (Param("u", delimiters=("/",)),), replacement).to_json()


def test_a_query_is_read_with_the_definitions_it_is_written_for_first_then_the_most_common():
    """Fourteen manuals each define `\\test`; `\\test xlongequal/` is written for one delimited by `/`."""
    plain = Macro("test", (), r"\mathrm{T}").to_json()
    macros, others = corpus_macros([{"test": plain}, {"test": plain}, {"test": _delimited(r"A\csname #1\endcsname Z")},
                                    {"test": _delimited(r"B\csname #1\endcsname Z")}])
    assert macros == {"test": plain}
    assert readings(r"\test xlongequal/", macros, others) == [
        (r"A\xlongequal Z", ["test"]), (r"B\xlongequal Z", ["test"]), (r"\mathrm{T} xlongequal/", ["test"])]
    assert readings(r"\test + 1", macros, others)[0] == (r"\mathrm{T} + 1", ["test"])


def test_a_definition_that_does_not_expand_the_query_is_not_a_reading():
    endless = Macro("f", (), r"\f\f").to_json()
    macros, others = corpus_macros([{"f": endless}, {"f": endless}, {"f": _defined("(#1)")}])
    assert readings(r"\f{x}", macros, others) == [("(x)", ["f"])]


def test_a_query_has_at_most_max_readings():
    definitions = [_defined(f"f_{{{number}}}(#1)") for number in range(MAX_READINGS + 2)]
    macros, others = corpus_macros([{"f": definition} for definition in definitions])
    assert readings(r"\f{x}", macros, others) == [(f"f_{{{number}}}(x)", ["f"]) for number in range(MAX_READINGS)]


def test_a_query_no_definition_reads_is_left_as_typed():
    macros, others = corpus_macros([{"f": Macro("f", (), r"\f\f").to_json()}, {"f": Macro("f", (), r"\f").to_json()}])
    assert readings(r"\f + x", macros, others) == [(r"\f + x", [])]
