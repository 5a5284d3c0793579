import pytest

from tests.ml.data.documents.conftest import posts


def read(upload, text: str):
    return posts(upload({"notes.md": text}))


@pytest.mark.parametrize("text, expected", [
    pytest.param("a $x+1$ b", [("x+1", "$x+1$")], id="dollar"),
    pytest.param("a\n\n$$\nx\n$$\n\nb", [("x", "$$x$$")], id="double-dollar"),
    pytest.param(r"a \(x\) b", [("x", "$x$")], id="parenthesis"),
    pytest.param("a\n\n\\[\nx\n\\]\n\nb", [("x", "$$x$$")], id="bracket"),
    pytest.param("a\n\n```math\nx = 1\n```\n\nb", [("x = 1", "$$x = 1$$")], id="math-fence"),
    pytest.param("a\n\n\\begin{align}\na &= b\\\\\nc &= d\n\\end{align}\n",
                 [("a = b", "$$a = b$$"), ("c = d", "$$c = d$$")], id="amsmath-environment"),
    pytest.param("a `$x$` b", [], id="code-span-not-math"),
    pytest.param("a\n\n```python\n$x$\n```\n", [], id="code-fence-not-math"),
    pytest.param("text\n\n    $x$ indented code\n", [], id="indented-code-not-math"),
    pytest.param("costs $5 and $6", [], id="money-not-math"),
])
def test_math(upload, text, expected):
    [record] = read(upload, text)
    assert [(f.text, record.post.body[f.start:f.end]) for f in record.formulas] == expected


def test_a_labelled_block_gives_an_anchor(upload):
    [record] = read(upload, "$$x$$ (eq1)\n")
    assert [(f.text, f.anchor) for f in record.formulas] == [("x", "eq1")]


def test_headings_make_sections(upload):
    records = read(upload, "# Notes on $f$\n\nIntro $a$.\n\n## First\n\nOne `code` $b$.\n\n### Deeper\n\nTwo.\n\n"
                           "# Second\n\nThree.\n\n## First\n\nFour.\n")
    assert [(r.post.source_id, r.post.title, r.post.body) for r in records] == [
        ("notes.md", "Notes on $f$", "Intro $a$."),
        ("notes.md#first", "Notes on $f$ › First", "One code $b$.\n\nDeeper\n\nTwo."),
        ("notes.md#second", "Notes on $f$ › Second", "Three."),
        ("notes.md#first-2", "Notes on $f$ › Second › First", "Four."),
    ]


def test_without_a_heading_the_file_name_is_the_title(upload):
    [record] = read(upload, "Just $x$.")
    assert (record.post.source_id, record.post.title) == ("notes.md", "notes")


def test_dollars_in_code_are_escaped_in_the_body(upload):
    [record] = read(upload, "Run `echo $HOME` then $x$.")
    assert record.post.body == r"Run echo \$HOME then $x$."
    assert [record.post.body[f.start:f.end] for f in record.formulas] == ["$x$"]


def test_the_markdown_extension_is_read_too(upload):
    assert [r.post.source_id for r in posts(upload({"a.markdown": "$x$"}))] == ["a.markdown"]
