import pytest

from corpora.documents.budgets import CharacterBudget, OverBudget
from corpora.documents.latex_output import ExpandedText
from tests.corpora.documents.conftest import expanded


@pytest.mark.parametrize("source, expected", [
    pytest.param(r"\def\<{\langle}$\<x, y\>$", r"$\langle x, y\>$", id="control-symbol-then-a-letter"),
    pytest.param(r"\newcommand{\e}{\epsilon}$\e% a comment" "\n" r"x$", r"$\epsilon x$", id="after-a-comment"),
    pytest.param(r"\def\a{\alpha}$\a\a y$", r"$\alpha\alpha y$", id="no-space-where-none-is-needed"),
])
def test_a_replacement_ending_in_a_command_stays_apart_from_the_letters_after_it(source, expected):
    assert expanded(source) == expected



def test_a_letter_written_after_a_control_word_is_kept_apart_from_it():
    output = ExpandedText()
    output.write(r"\langle")
    output.write("x")
    output.write("")
    assert output.text == r"\langle x"
    assert output.pieces == [r"\langle", " x"]


def test_a_failed_use_takes_back_what_it_wrote():
    output = ExpandedText()
    output.write("kept ")
    mark = len(output.pieces)
    output.write("undone")
    output.write(" too")
    output.take_back(mark)
    assert output.text == "kept "


def test_verbatim_is_kept_apart_and_numbered_in_order():
    output = ExpandedText()
    assert [output.set_aside("a"), output.set_aside("bc")] == [0, 1]
    assert output.verbatim == ["a", "bc"] and output.text == ""


def test_text_and_verbatim_are_counted_against_the_document_s_characters():
    output = ExpandedText()
    output.chars = CharacterBudget(limit=10)
    output.write("12345")
    output.set_aside("123")
    assert output.chars.spent == {"text produced": 5, "verbatim set aside": 3}
    with pytest.raises(OverBudget, match=r"over the budget of 10 characters .*: text produced \(8\), verbatim"):
        output.write("123")
