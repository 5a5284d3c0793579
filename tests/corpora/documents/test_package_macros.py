import re

import pytest

from corpora.documents.latex_expansion import expand
from corpora.documents.latex_macros import Param
from corpora.documents.package_macros import PackageMacro, SpecError, package_macros, package_table, params
from corpora.documents.renderable import katex_names
from tests.corpora.documents.test_renderable import katex_failures


def _no_files(command, name, including):
    if command == "usepackage":
        raise LookupError(name)
    raise ValueError("no such file in the upload")


def expanded(text: str) -> str:
    return " ".join(expand(text, "main.tex", _no_files, package_macros()).text.split())


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\bbbk \bbbr", r"\Bbbk \mathbb{R}", id="springer-class-alias"),
    pytest.param(r"\openone", r"\mathbb{1}", id="revtex-alias"),
    pytest.param(r"\mathbbm{1} \mathds{1}", r"\mathbb{1} \mathbb{1}", id="bbm-dsfont"),
    pytest.param(r"\upalpha \Upomega", r"\alpha \Omega", id="upgreek"),
    pytest.param(r"\mbox{if} x", r"\text{if} x", id="latex-kernel"),
    pytest.param(r"\abs{x} \norm*{v}", r"\left\lvert x \right\rvert \left\lVert v \right\rVert", id="physics-delimiters"),
    pytest.param(r"\dv{f}{x}", r"\frac{\mathrm{d} f}{\mathrm{d} x}", id="physics-derivative"),
    pytest.param(r"\pdv[2]{f}{x}", r"\frac{\partial^{2} f}{\partial {x}^{2}}", id="physics-order"),
    pytest.param(r"\left( \dv{t} \right) \psi", r"\left( \frac{\mathrm{d}}{\mathrm{d} t} \right) \psi",
                 id="physics-derivative-operator"),
    pytest.param(r"\qty(\frac{a}{b})", r"(\frac{a}{b})", id="physics-qty"),
    pytest.param(r"\mel{n}{H}{m}", r"\left\langle n \middle\vert H \middle\vert m \right\rangle", id="physics-mel"),
    pytest.param(r"\SI{3}{\meter\per\second}", r"3\,\mathrm{\mathrm{m}\mathrm{s}^{-1}}", id="siunitx-si"),
    pytest.param(r"\si{\kilo\gram\squared}", r"\mathrm{\mathrm{k}\mathrm{g}^{2}}", id="siunitx-units"),
    pytest.param(r"\num{1.5e3} \ang{30}", r"1.5e3 30^{\circ}", id="siunitx-numbers"),
    pytest.param(r"\bm{x} \boldsymbol{y}", r"\bm{x} \boldsymbol{y}", id="bm-katex-renders-itself"),
    pytest.param(r"\root 3 \of {x}", r"\sqrt[3]{x}", id="plain-tex-delimited"),
    pytest.param(r"\underaccent{\bar}{x}", r"\underset{\bar{}}{x}", id="an-accent-as-an-argument"),
    pytest.param(r"\newcommand{\abs}[1]{|#1|}\abs{x}", "|x|", id="the-document-s-own-definition-wins"),
])
def test_package_macros_expand(source, expected):
    assert expanded(source) == expected


@pytest.mark.parametrize("spec, expected", [
    pytest.param("", (), id="none"),
    pytest.param("mm", (Param("m"), Param("m")), id="mandatory"),
    pytest.param("sO{}m", (Param("s"), Param("o", ""), Param("m")), id="star-optional"),
    pytest.param(r"u{\of}m", (Param("u", delimiters=(r"\of",)), Param("m")), id="delimited"),
])
def test_argument_specs(spec, expected):
    assert params(spec) == expected


def test_an_argument_spec_the_expander_cannot_read_is_an_error():
    with pytest.raises(SpecError) as raised:
        params("mx")
    assert raised.value.part == "mx"


def test_no_entry_shadows_a_command_katex_knows():
    names = katex_names()
    assert [row.name for row in package_table() if row.name in names.math or row.name in names.text] == []


def test_each_name_is_in_the_table_once():
    names = [row.name for row in package_table()]
    assert len(names) == len(set(names)) == len(package_macros())


def _sample(row: PackageMacro, given: bool) -> str:
    """A use of the entry with sample arguments, its optional ones (and star) absent or `given`."""
    use, letters = [f"\\{row.name}"], iter("xyzwv")
    for param in params(row.spec):
        if param.kind == "m":
            use.append(f"{{{next(letters)}}}")
        elif param.kind == "u":
            use.append(" 3 " + "".join(param.delimiters) + " ")
        elif given:
            use.append({"s": "*", "o": "[2]", "g": f"{{{next(letters)}}}"}[param.kind])
    return "".join(use)


def test_katex_renders_every_entry_as_the_expander_expands_it():
    expansions = {(row.name, expanded(_sample(row, given))) for row in package_table() for given in (False, True)}
    assert [name for name, text in expansions if re.search(rf"\\{name}(?![A-Za-z])", text)] == []
    samples = sorted({text for _, text in expansions})
    assert katex_failures(samples) == {}
    assert katex_failures(samples, display=True) == {}
