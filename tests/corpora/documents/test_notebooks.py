import json

import pytest

from tests.corpora.documents.conftest import errors, posts, problems
from tests.corpora.documents.test_markdown import DELIMITERS, read_math


def notebook(*cells) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": kind, "metadata": {}, "source": source,
         **({"outputs": [], "execution_count": None} if kind == "code" else {})} for kind, source in cells]})


def test_markdown_cells_are_read_and_code_cells_ignored(upload):
    path = upload({"nb.ipynb": notebook(("markdown", ["# Title\n", "Text $x$."]), ("code", "y = '$y$'"),
                                        ("markdown", "## Part\n$$z$$"), ("raw", "$w$"))})
    assert [(r.post.source_id, r.post.title, r.post.body) for r in posts(path)] == [
        ("nb.ipynb", "Title", "Text $x$."), ("nb.ipynb#part", "Title › Part", "$$z$$")]


def test_a_broken_notebook_is_a_record_error(upload):
    path = upload({"bad.ipynb": "{not json", "good.md": "$x$"})
    assert problems(path) == [("unreadable", "bad.ipynb", None)]
    assert errors(path) == ["bad.ipynb: not a readable notebook (NotJSONError: Notebook does not appear to be "
                            "JSON: '{not json')"]
    assert [r.post.source_id for r in posts(path)] == ["good.md"]


def test_a_json_file_that_is_not_a_notebook_is_a_record_error(upload):
    assert problems(upload({"x.ipynb": '{"cells": 3}'})) == [("unreadable", "x.ipynb", None)]


@pytest.mark.parametrize("text, expected", DELIMITERS)
def test_each_delimiter_gives_its_formula_in_a_cell(upload, text, expected):
    path = upload({"nb.ipynb": notebook(("markdown", text.splitlines(keepends=True)))})
    assert read_math(path) == expected
    assert errors(path) == []


@pytest.mark.parametrize("opened", [
    pytest.param("```python\nx = 1", id="fence"),
    pytest.param("$$\nx", id="double-dollar"),
])
def test_a_cell_left_open_does_not_swallow_the_next(upload, opened):
    path = upload({"nb.ipynb": notebook(("markdown", opened), ("markdown", "$$y$$\n\nafter"))})
    assert [f.text for r in posts(path) for f in r.formulas][-1:] == ["y"]
    assert posts(path)[0].post.body.endswith("$$y$$\n\nafter")


def test_an_unread_delimiter_pair_in_a_cell_is_a_problem(upload):
    path = upload({"nb.ipynb": notebook(("markdown", "## Part\n\nThe integral\n\\[\n\\int f\n\n= 1\n\\]"))})
    assert problems(path) == [("unread-delimiters", "nb.ipynb", None)]
    assert errors(path) == ["nb.ipynb: section 'Part': text holds an unread formula delimiter pair \\[ … \\]"]
    assert [r.post.source_id for r in posts(path)] == ["nb.ipynb#part"]
