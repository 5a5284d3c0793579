import pytest

from corpora.documents.latex_definitions import MAX_EDEF_CHARS, Definitions
from corpora.documents.latex_macros import NO_VALUE, Environment, Macro, Param
from corpora.documents.latex_tokens import Frame, TokenStream


def read(text: str, predefined: dict[str, Macro] | None = None, file: str = "a.tex") -> Definitions:
    """The definitions after reading `text`, every definition command in it read (other tokens skipped)."""
    stream = TokenStream()
    stream.push(Frame(text, file=file))
    definitions = Definitions(stream, dict(predefined or {}), predefined or {}, ())
    while (token := stream.next()) is not None:
        if token.kind == "macro" and definitions.handles(token.name):
            definitions.define(token)
        elif token.kind in ("brace_open", "brace_close"):
            definitions.scope(token.kind == "brace_open")
    return definitions


@pytest.mark.parametrize("text, name, macro", [
    pytest.param(r"\newcommand{\p}[2][x]{(#1,#2)}", "p", Macro("p", (Param("o", "x"), Param("m")), "(#1,#2)"),
                 id="newcommand"),
    pytest.param(r"\def\ev[#1]#2{#2(#1)}", "ev",
                 Macro("ev", (Param("u", delimiters=("]",)), Param("m")), "#2(#1)", ("[",)), id="def-with-prefix"),
    pytest.param(r"\NewDocumentCommand\f{s o m}{x}", "f", Macro("f", (Param("s"), Param("o", NO_VALUE), Param("m")), "x"),
                 id="xparse"),
    pytest.param(r"\DeclareMathOperator{\Tr}{Tr}", "Tr", Macro("Tr", body=r"\operatorname{Tr}"), id="operator"),
    pytest.param(r"\let\eps\varepsilon", "eps", Macro("eps", primitive=r"\varepsilon"), id="let-primitive"),
    pytest.param(r"\def\f@x{y}", "f@x", Macro("f@x", body="y", at_letter=True), id="package-at-letter"),
])
def test_a_definition_gives_a_macro(text, name, macro):
    file = "a.sty" if "@" in name else "a.tex"
    assert read(text, file=file).macros[name] == macro


def test_an_environment_definition():
    definitions = read(r"\newenvironment{eq}[1]{\begin{equation}#1}{\end{equation}}")
    assert definitions.environments == {"eq": Environment("eq", (Param("m"),), r"\begin{equation}#1",
                                                          r"\end{equation}")}


@pytest.mark.parametrize("text, macro", [
    pytest.param(r"\def\x{1}\edef\x{\x+1}\edef\x{\x+1}", Macro("x", body="{{1}+1}+1"), id="adds-to-its-old-meaning"),
    pytest.param(r"\def\x{" + "y" * MAX_EDEF_CHARS + r"}\edef\x{\x\x}", Macro("x", primitive=r"\x"),
                 id="doubling-past-the-bound-is-written-as-is"),
    pytest.param(r"\edef\x{\x}", Macro("x", primitive=r"\x"), id="no-old-meaning"),
    pytest.param(r"\def\x#1{#1}\edef\x{\x 1}", Macro("x", primitive=r"\x"), id="old-meaning-with-arguments"),
])
def test_an_edef_of_itself(text, macro):
    assert read(text).macros["x"] == macro


def test_the_own_macros_hold_their_internals_and_leave_out_predefined_ones_left_alone():
    predefined = {"R": Macro("R", body="R"), "N": Macro("N", body="N")}
    definitions = read(r"\def\a@b{}\newcommand{\N}{\mathbb{N}}\providecommand{\R}{S}{\def\local{x}}", predefined,
                       file="a.sty")
    assert definitions.own_macros() == {"N": Macro("N", body=r"\mathbb{N}", at_letter=True),
                                        "a@b": Macro("a@b", at_letter=True)}
