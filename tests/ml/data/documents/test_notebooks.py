import json

from tests.ml.data.documents.conftest import errors, posts


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
    assert errors(path) == ["bad.ipynb: not a readable notebook (NotJSONError: Notebook does not appear to be "
                            "JSON: '{not json')"]
    assert [r.post.source_id for r in posts(path)] == ["good.md"]


def test_a_json_file_that_is_not_a_notebook_is_a_record_error(upload):
    [message] = errors(upload({"x.ipynb": '{"cells": 3}'}))
    assert message.startswith("x.ipynb: not a readable notebook")
