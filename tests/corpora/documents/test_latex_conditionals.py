import pytest

from corpora.documents.latex_conditionals import Conditionals, branch
from corpora.documents.latex_macros import FALSE, NO_VALUE, TRUE, Macro
from corpora.documents.latex_tokens import Frame, Token, TokenStream


def stream_of(text: str) -> TokenStream:
    stream = TokenStream()
    stream.push(Frame(text, file="a.sty"))
    return stream


def rest(stream: TokenStream) -> str:
    out = []
    while (token := stream.next()) is not None:
        out.append(token.written)
    return "".join(out)


@pytest.mark.parametrize("name, text, expected, left", [
    pytest.param("@ifnextchar", "[{yes}{no}[x]", "yes", "[x]", id="ifnextchar-found"),
    pytest.param("@ifnextchar", "[{yes}{no} x", "no", " x", id="ifnextchar-not-found"),
    pytest.param("@ifnextchar", "[{yes}{no} % c\n [x]", "yes", "[x]", id="ifnextchar-looks-past-spaces-and-comments"),
    pytest.param("@ifnextchar", r"\bgroup{yes}{no}{x}", "yes", "{x}", id="ifnextchar-bgroup"),
    pytest.param("@ifnextchar", r"\sm{yes}{no}\sm x", "yes", r"\sm x", id="ifnextchar-macro"),
    pytest.param("@ifnextchar", "[{yes}{no}", "no", "", id="ifnextchar-at-the-end"),
    pytest.param("@ifundefined", "{known}{u}{d}", "d", "", id="ifundefined-defined"),
    pytest.param("@ifundefined", "{other}{u}{d}", "u", "", id="ifundefined-undefined"),
    pytest.param("IfBooleanTF", f"{{{TRUE}}}{{t}}{{f}}", "t", "", id="ifbooleantf-true"),
    pytest.param("IfBooleanTF", f"{{{FALSE}}}{{t}}{{f}}", "f", "", id="ifbooleantf-false"),
    pytest.param("IfBooleanT", f"{{{FALSE}}}{{t}}x", "", "x", id="ifbooleant-false"),
    pytest.param("IfBooleanF", f"{{{FALSE}}}{{f}}x", "f", "x", id="ifbooleanf-false"),
    pytest.param("IfNoValueTF", f"{{{NO_VALUE}}}{{t}}{{f}}", "t", "", id="ifnovaluetf-absent"),
    pytest.param("IfNoValueTF", "{2}{t}{f}", "f", "", id="ifnovaluetf-given"),
    pytest.param("IfValueTF", "{2}{t}{f}", "t", "", id="ifvaluetf-given"),
    pytest.param("IfValueT", f"{{{NO_VALUE}}}{{t}}x", "", "x", id="ifvaluet-absent"),
    pytest.param("IfNoValueF", "{2}{f}x", "f", "x", id="ifnovaluef-given"),
])
def test_branch(name, text, expected, left):
    stream = stream_of(text)
    assert branch(name, stream, lambda macro: macro == "known") == expected
    assert rest(stream) == left


@pytest.mark.parametrize("text, expected", [
    pytest.param(r"\iffalse a\else b\fi c", " b c", id="iffalse-else"),
    pytest.param(r"\iftrue a\else b\fi c", " a c", id="iftrue-else"),
    pytest.param(r"\ifmmode a\else b\fi c", r"\ifmmode a\else b\fi c", id="undecided-kept-whole"),
    pytest.param(r"\newif\ifx \xtrue\ifx a\fi", " a", id="newif-switch"),
])
def test_conditionals(text, expected):
    stream = stream_of(text)
    conditionals, out = Conditionals(stream), []
    while (token := stream.next()) is not None:
        out.append(conditionals.token(token) if token.kind == "macro" and conditionals.handles(token.name)
                   else token.written)
    assert "".join(out) == expected


def test_a_macro_named_like_a_conditional_is_not_one():
    assert not Conditionals(stream_of("")).handles("iff")
    assert Conditionals(stream_of("")).token(Token("macro", "fi", "\\fi")) == "\\fi"  # a \fi of no \if is kept


@pytest.mark.parametrize("text, expected", [
    pytest.param(r"\ifx\relax\relax e\else n\fi", " e", id="ifx-empty-argument"),
    pytest.param(r"\ifx\relax x\relax e\else n\fi", " n", id="ifx-argument-given"),
    pytest.param(r"\ifx&&e\else n\fi", "e", id="ifx-same-characters"),
    pytest.param(r"\ifx\bgroup{e\else n\fi", "e", id="ifx-bgroup-is-a-brace"),
    pytest.param(r"\ifx\a\b e\else n\fi", " e", id="ifx-same-meaning"),
    pytest.param(r"\ifx\a\c e\else n\fi", " n", id="ifx-other-meaning"),
    pytest.param(r"\ifx\a\chapter e\else n\fi", r"\ifx\a\chapter e\else n\fi", id="ifx-undecided-kept"),
    pytest.param(r"\ifx\a x e\else n\fi", " n", id="ifx-macro-and-character"),
    pytest.param(r"\ifx\d x e\else n\fi", " e", id="ifx-macro-let-to-the-character"),
    pytest.param(r"\if\relax\detokenize{}\relax e\else n\fi", " e", id="if-detokenize-empty"),
    pytest.param(r"\if\relax\detokenize{ab}\relax e\else n\fi", " n", id="if-detokenize-given"),
    pytest.param(r"\if ab e\else n\fi", r"\if ab e\else n\fi", id="if-undecided-kept"),
])
def test_an_argument_test_is_decided(text, expected):
    stream = stream_of(text)
    macros = {"a": Macro("a", body="x"), "b": Macro("b", body="x"), "c": Macro("c", body="y"),
              "d": Macro("d", primitive="x")}
    conditionals, out = Conditionals(stream, macros), []
    while (token := stream.next()) is not None:
        out.append(conditionals.token(token) if token.kind == "macro" and conditionals.handles(token.name)
                   else token.written)
    assert "".join(out) == expected
