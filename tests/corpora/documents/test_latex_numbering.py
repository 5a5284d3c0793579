import pytest

from corpora.documents.latex_numbering import Numbering


def article() -> Numbering:
    """Section 1 ("Intro") holds Theorem 1.1, Lemma 1.2 (sharing its counter), an unnumbered remark, equations
    (1) and (2), an unnumbered one, one tagged (*), and Figure 1."""
    numbering = Numbering("article")
    numbering.configure("newtheorem", [None, "thm", None, "Theorem", "section"])
    numbering.configure("newtheorem", [None, "lem", "thm", "Lemma", None])
    numbering.configure("newtheorem", ["*", "rem", None, "Remark", None])
    numbering.heading("section", starred=False)
    numbering.name("Intro")
    numbering.label("sec:intro")
    for environment, label in (("thm", "thm:a"), ("lem", "lem:b"), ("rem", "rem:c")):
        numbering.theorem(environment)
        numbering.label(label)
    numbering.equation(["eq:a"], None, numbered=True)
    numbering.equation(["eq:b"], None, numbered=True)
    numbering.equation(["eq:none"], None, numbered=False)
    numbering.equation(["eq:tag"], "*", numbered=True)
    numbering.caption("figure")
    numbering.label("fig:a")
    return numbering


@pytest.mark.parametrize("command, arguments, expected", [
    pytest.param("ref", ["thm:a"], "1.1", id="ref"),
    pytest.param("ref", ["lem:b"], "1.2", id="ref-shared-counter"),
    pytest.param("pageref", ["thm:a"], "1.1", id="pageref-is-the-number"),
    pytest.param("vref", ["eq:a"], "1", id="vref"),
    pytest.param("eqref", ["eq:a"], "(1)", id="eqref"),
    pytest.param("eqref", ["eq:tag"], "(*)", id="eqref-tag"),
    pytest.param("autoref", ["sec:intro"], "Section 1", id="autoref-section"),
    pytest.param("autoref", ["thm:a"], "Theorem 1.1", id="autoref-theorem"),
    pytest.param("autoref", ["lem:b"], "Lemma 1.2", id="autoref-named-by-environment"),
    pytest.param("autoref", ["eq:a"], "Equation 1", id="autoref-equation"),
    pytest.param("autoref", ["fig:a"], "Figure 1", id="autoref-figure"),
    pytest.param("cref", ["thm:a"], "Theorem 1.1", id="cref"),
    pytest.param("cref", ["eq:a"], "eq. (1)", id="cref-equation"),
    pytest.param("Cref", ["eq:a"], "Eq. (1)", id="Cref-capitalized"),
    pytest.param("cref", ["eq:a, eq:b"], "eqs. (1) and (2)", id="cref-list"),
    pytest.param("cref", ["thm:a,lem:b,eq:a,nowhere"], "Theorem 1.1, Lemma 1.2, eq. (1) and [nowhere]",
                 id="cref-mixed-list"),
    pytest.param("crefrange", ["eq:a", "eq:b"], "eqs. (1) to (2)", id="crefrange"),
    pytest.param("labelcref", ["eq:a,eq:b"], "1 and 2", id="labelcref"),
    pytest.param("nameref", ["sec:intro"], "Intro", id="nameref"),
    pytest.param("nameref", ["thm:a"], "Theorem 1.1", id="nameref-without-name"),
    pytest.param("ref", ["nowhere"], "[nowhere]", id="undefined"),
    pytest.param("autoref", ["nowhere"], "[nowhere]", id="autoref-undefined"),
    pytest.param("eqref", ["nowhere"], "[nowhere]", id="eqref-undefined"),
    pytest.param("ref", ["rem:c"], "[rem:c]", id="unnumbered-theorem"),
    pytest.param("eqref", ["eq:none"], "[eq:none]", id="unnumbered-equation"),
])
def test_reference_forms(command, arguments, expected):
    numbering = article()
    assert numbering.resolve(numbering.reference(command, arguments)) == expected


def test_references_resolve_once_the_document_is_read():
    numbering = Numbering("article")
    early = numbering.reference("eqref", ["eq:late"])
    in_formula = numbering.reference("ref", ["eq_late"], wrap=lambda printed: f"\\text{{{printed}}}")
    numbering.heading("section", starred=False)
    numbering.name(f"After {numbering.reference('ref', ['eq:late'])}")
    numbering.label("sec:a")
    numbering.equation(["eq:late"], None, numbered=True)
    text = f"{early}, {in_formula}, {numbering.reference('nameref', ['sec:a'])}"
    assert numbering.resolve(text) == r"(1), \text{[eq_late]}, After 1"


def _numbers(document_class: str | None, steps: str) -> list[str]:
    """What each heading, `equation`, `thm` and `lem` of `steps` prints, `lem` sharing `thm`'s counter within
    sections; `command:a,b` is a command of the numbering with its arguments."""
    numbering = Numbering(document_class)
    numbering.configure("newtheorem", [None, "thm", None, "Theorem", "section"])
    numbering.configure("newtheorem", [None, "lem", "thm", "Lemma", None])
    printed = []
    for step in steps.split():
        name, _, arguments = step.partition(":")
        if name == "equation":
            printed.append(numbering.equation([], None, numbered=True))
        elif name in ("thm", "lem"):
            printed.append(numbering.theorem(name) or "")
        elif ":" in step or name in ("appendix", "frontmatter", "mainmatter", "backmatter"):
            numbering.configure(name, [None, *arguments.split(",")] if arguments else [])
        else:
            printed.append(numbering.heading(name.rstrip("*"), starred=name.endswith("*")))
    return printed


@pytest.mark.parametrize("document_class, steps, expected", [
    pytest.param("article", "section subsection subsection section subsection equation equation",
                 ["1", "1.1", "1.2", "2", "2.1", "1", "2"], id="article"),
    pytest.param("book", "chapter section section equation chapter equation section*",
                 ["1", "1.1", "1.2", "1.1", "2", "2.1", ""], id="book-equations-within-chapters"),
    pytest.param("article", "numberwithin:equation,section section equation equation section equation",
                 ["1", "1.1", "1.2", "2", "2.1"], id="numberwithin"),
    pytest.param("book", "counterwithout:equation,chapter chapter equation chapter equation",
                 ["1", "1", "2", "2"], id="counterwithout"),
    pytest.param("article", "section thm lem thm section lem",
                 ["1", "Theorem 1.1", "Lemma 1.2", "Theorem 1.3", "2", "Lemma 2.1"], id="theorems-share-a-counter"),
    pytest.param("article", "section appendix section subsection", ["1", "A", "A.1"], id="article-appendix"),
    pytest.param("book", "chapter section appendix chapter section", ["1", "1.1", "A", "A.1"], id="book-appendix"),
    pytest.param("book", "part chapter part chapter", ["I", "1", "II", "2"], id="parts"),
    pytest.param("book", "chapter section subsection subsubsection", ["1", "1.1", "1.1.1", ""],
                 id="book-secnumdepth"),
    pytest.param("article", "section subsection subsubsection paragraph", ["1", "1.1", "1.1.1", ""],
                 id="article-secnumdepth"),
    pytest.param("article", "setcounter:secnumdepth,1 section subsection", ["1", ""], id="setcounter-secnumdepth"),
    pytest.param("article", "setcounter:section,4 section addtocounter:equation,2 equation", ["5", "3"],
                 id="setcounter-addtocounter"),
    pytest.param("book", "frontmatter chapter mainmatter chapter backmatter chapter", ["", "1", ""],
                 id="front-and-back-matter"),
    pytest.param("article", "numberwithin:equation,section numberwithin:section,equation section equation",
                 ["1", "1.1"], id="a-cycle-is-refused"),
    pytest.param(None, "section equation thm", ["", "", "Theorem"], id="a-file-alone-knows-no-numbers"),
])
def test_counters(document_class, steps, expected):
    assert _numbers(document_class, steps) == expected


@pytest.mark.parametrize("options, expected", [
    pytest.param(("", "", "", ""), [("1.", "1"), ("(a)", "1a"), ("i.", "1(a)i"), ("A.", "1(a)iA")],
                 id="latex-nested"),
    pytest.param((r"label=(\roman*)",), [("(i)", "(i)")], id="enumitem-label"),
    pytest.param((r"label=\textbf{\Alph*}., leftmargin=*",), [("A.", "A")], id="enumitem-label-with-commands"),
    pytest.param(("noitemsep",), [("1.", "1")], id="enumitem-keys-only"),
    pytest.param(("(a)",), [("(a)", "(a)")], id="enumerate-package"),
    pytest.param(("{Step} 1.",), [("Step 1.", "Step 1")], id="enumerate-package-braced-words"),
])
def test_enumerate_items(options, expected):
    numbering = Numbering("article")
    printed = []
    for option in options:
        numbering.start_list(True, option)
        label = numbering.item()
        printed.append((label, numbering.current.number if numbering.current else None))
    assert printed == expected


def test_an_itemize_item_is_not_numbered_and_a_group_ends_its_lists():
    numbering = Numbering("article")
    numbering.start_list(True)
    numbering.item()
    with numbering.group():
        numbering.start_list(False)
        assert numbering.item() is None
    assert numbering.item() == "2."
