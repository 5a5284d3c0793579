import pytest

from ml.data.documents.latex_macros import Param, RunawayArgument, arguments, def_params, substitute, xparse_params
from ml.data.documents.latex_tokens import Frame, TokenStream


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
])
def test_substitute(body, values, expected):
    assert substitute(body, values) == expected


@pytest.mark.parametrize("text, params, expected", [
    pytest.param("{a}b c", (Param("m"), Param("m")), ["a", "b"], id="mandatory"),
    pytest.param("[o]{m}", (Param("o", "d"), Param("m")), ["o", "m"], id="optional-given"),
    pytest.param("{m}", (Param("o", "d"), Param("m")), ["d", "m"], id="optional-default"),
    pytest.param("[{]}]{m}", (Param("o", "d"), Param("m")), ["{]}", "m"], id="bracket-in-braces"),
    pytest.param("x,y.", (Param("u", ","), Param("u", ".")), ["x", "y"], id="delimited"),
])
def test_arguments(text, params, expected):
    assert arguments(stream_of(text), params) == expected


def test_a_runaway_delimited_argument():
    with pytest.raises(RunawayArgument, match="does not come before a blank line"):
        arguments(stream_of("x y\n\nz."), (Param("u", "."),))


@pytest.mark.parametrize("text, expected", [
    pytest.param("#1#2{", ("", (Param("m"), Param("m"))), id="undelimited"),
    pytest.param("#1.#2\\end{", ("", (Param("u", "."), Param("u", "\\end"))), id="delimited"),
    pytest.param(".#1{", (".", (Param("m"),)), id="prefix"),
])
def test_def_params(text, expected):
    assert def_params(stream_of(text)) == expected


@pytest.mark.parametrize("spec, expected", [
    pytest.param("m m", (Param("m"), Param("m")), id="mandatory"),
    pytest.param("o m", (Param("o", "-NoValue-"), Param("m")), id="optional"),
    pytest.param("O{x y} m", (Param("o", "x y"), Param("m")), id="optional-default"),
    pytest.param("s m", None, id="unsupported"),
])
def test_xparse_params(spec, expected):
    assert xparse_params(spec) == expected
