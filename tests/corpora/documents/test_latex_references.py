import pytest

from corpora.documents.latex_references import References, Target

NAMES = {"thm": "Theorem", "section": "Section", "appendix": "Appendix", "cor": "Corollary"}


def references() -> References:
    known = References(NAMES)
    known.labels = {"t1": Target("1.1", "thm"), "t2": Target("1.2", "thm"), "s": Target("2", "section", "Methods"),
                    "a": Target("A", "appendix"), "c1": Target("3", "cor"), "c2": Target("4", "cor"),
                    "eq": Target("5", "equation"), "none": Target("", "thm")}
    return known


PRINTED = {
    "ref": ("ref", ["t1"], "1.1"),
    "ref-takes-one-label": ("ref", ["t1,t2"], "[t1,t2]"),
    "cref-plural": ("cref", ["t1,t2"], "Theorems 1.1 and 1.2"),
    "plural-of-y": ("cref", ["c1,c2"], "Corollaries 3 and 4"),
    "plural-of-x": ("cref", ["a, a"], "Appendices A and A"),
    "grouped-by-kind-in-first-order": ("cref", ["t1,s,t2"], "Theorems 1.1 and 1.2 and Section 2"),
    "Cref-capitalizes": ("Cref", ["eq"], "Eq. (5)"),
    "crefrange": ("crefrange", ["t1", "t2"], "Theorems 1.1 to 1.2"),
    "crefrange-of-two-kinds": ("crefrange", ["t1", "s"], "1.1 to 2"),
    "nameref": ("nameref", ["s"], "Methods"),
    "a-label-without-a-number": ("ref", ["none"], "[none]"),
    "no-label": ("cref", [" , "], ""),
}
"""Each case's command, arguments and what it prints, by name."""


@pytest.mark.parametrize("command, arguments, expected", PRINTED.values(), ids=PRINTED)
def test_what_a_reference_prints(command, arguments, expected):
    assert references().printed(command, arguments) == expected


def test_a_reference_made_before_its_label_prints_once_the_label_is_known():
    known = References(NAMES)
    text = f"see {known.reference('ref', ['later'])} and {known.reference('ref', [])}."
    known.labels["later"] = Target("7", "thm")
    assert known.resolve(text) == "see 7 and ."


def test_a_reference_in_a_formula_is_wrapped_where_it_stands():
    known = references()
    placeholder = known.reference("autoref", ["t1"], wrap=lambda printed: rf"\text{{{printed}}}")
    assert known.resolve(f"$x$ by {placeholder}") == r"$x$ by \text{Theorem 1.1}"


def test_references_inside_printed_names_resolve_to_a_bounded_depth():
    known = References(NAMES)
    known.labels["loop"] = Target("", "section", known.reference("nameref", ["loop"]))
    assert known.resolve(known.reference("nameref", ["loop"])) == ""
