import pytest

from corpora.documents.budgets import (
    MAX_DOCUMENT_CHARS,
    MAX_UPLOAD_MACRO_TOKENS,
    CharacterBudget,
    OverBudget,
    UploadTokens,
)


def test_characters_are_counted_by_what_spent_them_and_past_the_limit_the_budget_names_the_three_largest():
    budget = CharacterBudget(limit=100)
    budget.spend("main.tex", 10, read=True)
    budget.spend("big.tex", 30, read=True)
    budget.spend("big.tex", 30, read=True)
    budget.spend("text produced", 20)
    budget.spend("verbatim set aside", 5)
    assert budget.total == 95
    with pytest.raises(OverBudget) as refused:
        budget.spend("text produced", 6)
    assert (refused.value.budget, refused.value.limit) == ("characters a document may read and produce", 100)
    assert refused.value.spent_on == "big.tex read 2 times (60), text produced (26), main.tex read (10)"
    assert str(refused.value) == f"over the budget of 100 characters a document may read and produce: {refused.value.spent_on}"


def test_a_document_may_spend_exactly_its_limit():
    budget = CharacterBudget(limit=10)
    budget.spend("text produced", 10)
    assert budget.summary() == "text produced (10)"


def test_an_upload_s_macro_tokens_run_down_to_zero_and_no_further():
    tokens = UploadTokens(100)
    tokens.spend(60)
    assert tokens.left == 40
    tokens.spend(60)
    assert tokens.left == 0


def test_the_default_budgets():
    assert CharacterBudget().limit == MAX_DOCUMENT_CHARS and UploadTokens().left == MAX_UPLOAD_MACRO_TOKENS
