import pytest

from corpora.documents.latex_counters import Counters, formatted


@pytest.mark.parametrize("value, style, expected", [
    pytest.param(3, "arabic", "3", id="arabic"),
    pytest.param(3, "alph", "c", id="alph"),
    pytest.param(26, "Alph", "Z", id="Alph"),
    pytest.param(27, "alph", "27", id="alph-past-z-is-a-number"),
    pytest.param(1994, "roman", "mcmxciv", id="roman"),
    pytest.param(4, "Roman", "IV", id="Roman"),
    pytest.param(0, "Roman", "0", id="no-roman-zero"),
    pytest.param(5, "fnsymbol", "5", id="unknown-style-is-a-number"),
])
def test_a_value_is_printed_in_its_counter_s_style(value, style, expected):
    assert formatted(value, style) == expected


def test_stepping_a_counter_resets_those_within_it_all_the_way_down():
    counters = Counters(["chapter", "section", "subsection"])
    counters.number_within("section", "chapter")
    counters.number_within("subsection", "section")
    for step in ("chapter", "section", "section", "subsection"):
        counters.step(step)
    assert counters.the("subsection") == "1.2.1"
    counters.step("chapter")
    assert [counters[name].value for name in ("chapter", "section", "subsection")] == [2, 0, 0]
    assert counters.the("section") == "2.0"


def test_a_counter_numbered_within_its_own_descendant_is_left_alone():
    counters = Counters(["section", "equation"])
    counters.number_within("equation", "section")
    counters.number_within("section", "equation")
    assert (counters["section"].within, counters["equation"].within) == ("", "section")


def test_a_counter_never_declared_starts_at_zero_and_can_be_set():
    counters = Counters([])
    assert counters.the("theorem") == "0"
    counters.assign("theorem", 4)
    counters.assign("theorem", 2, add=True)
    counters["theorem"].style = "Alph"
    assert counters.the("theorem") == "F"


def test_a_new_counter_replaces_an_old_one_of_its_name():
    counters = Counters(["thm"])
    counters.assign("thm", 5)
    counters["thm"].style = "roman"
    counters.new("thm")
    assert (counters["thm"].value, counters["thm"].style) == (0, "arabic")
