import json

import pytest

from corpora.documents.latex_macros import (
    FALSE,
    NO_VALUE,
    TRUE,
    Macro,
    Param,
    RunawayArgument,
    UseMismatch,
    arguments,
    csname,
    def_params,
    match_prefix,
    substitute,
    xparse_params,
)
from corpora.documents.latex_tokens import Frame, Token, TokenStream


def stream_of(text: str) -> TokenStream:
    stream = TokenStream()
    stream.push(Frame(text, file="a.tex"))
    return stream


@pytest.mark.parametrize("body, values, expected", [
    pytest.param("(#1,#2)", ["a", "b"], "(a,b)", id="arguments"),
    pytest.param("a##1", [], "a#1", id="double-hash"),
    pytest.param(r"\lvert#1\rvert", ["x"], r"\lvert x\rvert", id="control-word-kept-apart"),
    pytest.param(r"\lvert#1", ["{x}"], r"\lvert{x}", id="brace-needs-no-space"),
    pytest.param("#3", ["a"], "", id="missing-argument"),
    pytest.param("#0 # x", [], "#0 # x", id="lone-hashes-stay"),
])
def test_substitute(body, values, expected):
    assert substitute(body, values) == expected


@pytest.mark.parametrize("text, params, expected", [
    pytest.param("{a}b c", (Param("m"), Param("m")), ["a", "b"], id="mandatory"),
    pytest.param("[o]{m}", (Param("o", "d"), Param("m")), ["o", "m"], id="optional-given"),
    pytest.param("{m}", (Param("o", "d"), Param("m")), ["d", "m"], id="optional-default"),
    pytest.param("[{]}]{m}", (Param("o", "d"), Param("m")), ["{]}", "m"], id="bracket-in-braces"),
    pytest.param("(x){m}", (Param("o", NO_VALUE, ("(", ")")), Param("m")), ["x", "m"], id="optional-parentheses"),
    pytest.param("*{m}", (Param("s"), Param("m")), [TRUE, "m"], id="star"),
    pytest.param("{m}", (Param("s"), Param("m")), [FALSE, "m"], id="no-star"),
    pytest.param("+x", (Param("t", delimiters=("+",)), Param("m")), [TRUE, "x"], id="token-flag"),
    pytest.param("{g}x", (Param("g", NO_VALUE), Param("m")), ["g", "x"], id="braced-optional-given"),
    pytest.param("x", (Param("g", NO_VALUE), Param("m")), [NO_VALUE, "x"], id="braced-optional-absent"),
    pytest.param("x,y.", (Param("u", delimiters=(",",)), Param("u", delimiters=(".",))), ["x", "y"], id="delimited"),
    pytest.param("{a.b}.", (Param("u", delimiters=(".",)),), ["a.b"], id="delimited-braces-removed"),
    pytest.param("{a}{b}.", (Param("u", delimiters=(".",)),), ["{a}{b}"], id="delimited-two-groups-kept"),
    pytest.param("a {t} to b.", (Param("u", delimiters=("t", "o")), Param("u", delimiters=(".",))), ["a {t}", "b"],
                 id="delimited-by-two-tokens"),
    pytest.param(r"x\end y", (Param("u", delimiters=(r"\end",)),), ["x"], id="delimited-by-a-macro"),
])
def test_arguments(text, params, expected):
    assert arguments(stream_of(text), params) == expected


@pytest.mark.parametrize("text, params, error", [
    pytest.param("x y\n\nz.", (Param("u", delimiters=(".",)),), "does not come before a blank line", id="blank-line"),
    pytest.param("[x" + " y" * 20_000 + "]", (Param("o"),), "not closed by", id="unclosed-optional"),
])
def test_a_runaway_argument(text, params, error):
    with pytest.raises(RunawayArgument, match=error):
        arguments(stream_of(text), params)


@pytest.mark.parametrize("text, prefix, matches", [
    pytest.param("[x]", ("[",), True, id="matches"),
    pytest.param(" [x]", ("[",), True, id="space-skipped"),
    pytest.param("{x}", ("[",), False, id="other-token"),
    pytest.param("", (r"\sm",), False, id="nothing"),
])
def test_a_def_prefix_must_follow(text, prefix, matches):
    stream = stream_of(text)
    if matches:
        match_prefix(stream, prefix)
        assert [token.text for token in [stream.next()] if token is not None] == ["x"]
    else:
        with pytest.raises(UseMismatch):
            match_prefix(stream, prefix)


@pytest.mark.parametrize("text, expected", [
    pytest.param("#1#2{", ((), (Param("m"), Param("m"))), id="undelimited"),
    pytest.param("#1.#2\\end{", ((), (Param("u", delimiters=(".",)), Param("u", delimiters=("\\end",)))),
                 id="delimited"),
    pytest.param(".#1{", ((".",), (Param("m"),)), id="prefix"),
    pytest.param("[#1]#2{", (("[",), (Param("u", delimiters=("]",)), Param("m"))), id="bracketed-first"),
    pytest.param("#1 to #2.{", ((), (Param("u", delimiters=("t", "o")), Param("u", delimiters=(".",)))),
                 id="word-delimiter"),
    pytest.param("{", ((), ()), id="none"),
])
def test_def_params(text, expected):
    assert def_params(stream_of(text)) == expected


@pytest.mark.parametrize("spec, expected", [
    pytest.param("m m", (Param("m"), Param("m")), id="mandatory"),
    pytest.param("o m", (Param("o", NO_VALUE), Param("m")), id="optional"),
    pytest.param("O{x y} m", (Param("o", "x y"), Param("m")), id="optional-default"),
    pytest.param("s +m", (Param("s"), Param("m")), id="star-and-long"),
    pytest.param(r"t+ t\foo", (Param("t", delimiters=("+",)), Param("t", delimiters=(r"\foo",))), id="token-flags"),
    pytest.param("d() D<>{z} r[] R(){w}", (Param("o", NO_VALUE, ("(", ")")), Param("o", "z", ("<", ">")),
                                           Param("o", NO_VALUE, ("[", "]")), Param("o", "w", ("(", ")"))),
                 id="delimited-optional-and-required"),
    pytest.param("g G{a}", (Param("g", NO_VALUE), Param("g", "a")), id="braced-optional"),
    pytest.param("v", None, id="verbatim-unsupported"),
    pytest.param(">{\\SplitList{,}}m", None, id="processor-unsupported"),
])
def test_xparse_params(spec, expected):
    assert xparse_params(spec) == expected


@pytest.mark.parametrize("macro", [
    pytest.param(Macro("R", body=r"\mathbb{R}"), id="plain"),
    pytest.param(Macro("p", (Param("o", "x"), Param("m")), "(#1,#2)"), id="optional"),
    pytest.param(Macro("lam", (Param("u", delimiters=(".",)), Param("m")), r"\lambda #1.#2", ("[",), at_letter=True),
                 id="delimited-with-prefix"),
    pytest.param(Macro("eps", primitive=r"\varepsilon"), id="let-primitive"),
])
def test_a_macro_goes_to_json_and_back(macro):
    assert Macro.from_json(json.loads(json.dumps(macro.to_json()))) == macro


@pytest.mark.parametrize("text, name", [
    pytest.param(r" lemma1\endcsname x", "lemma1", id="letters-and-digits"),
    pytest.param(r"c@\page\endcsname", "c@page", id="a-macro-inside-gives-its-name"),
])
def test_csname(text, name):
    stream = stream_of(text)
    assert csname(stream, Token("macro", "csname", r"\csname", " ")) == Token("macro", name, "\\" + name, " ")
