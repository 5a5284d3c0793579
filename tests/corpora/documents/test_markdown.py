import pytest

from corpora.documents import document_formulas
from tests.corpora.documents.conftest import errors, posts, problems

BETA = r"B(x,y) = \frac{\Gamma(x)\Gamma(y)}{\Gamma(x+y)}"
DELIMITERS = [
    pytest.param("a $x+1$ b", [("x+1", False, "$x+1$")], id="dollar"),
    pytest.param("a\n\n$$\nx\n$$\n\nb", [("x", True, "$$x$$")], id="double-dollar-block"),
    pytest.param("a\n$$x$$\nb", [("x", True, "$$x$$")], id="double-dollar-in-a-paragraph"),
    pytest.param(r"a \(x\) b", [("x", False, "$x$")], id="parenthesis"),
    pytest.param(f"\\[ {BETA} \\]", [(BETA, True, f"$${BETA}$$")], id="bracket-own-line"),
    pytest.param(f"The beta function is \\[ {BETA} \\] so.", [(BETA, True, f"$${BETA}$$")],
                 id="bracket-in-a-paragraph"),
    pytest.param("The beta function is\n\\[ B \\]\nso.", [("B", True, "$$B$$")], id="bracket-after-a-line"),
    pytest.param("a\n\n\\[\nf(x) = a\n- b\n\\]\n\nb", [("f(x) = a - b", True, "$$f(x) = a - b$$")],
                 id="bracket-multi-line-block"),
    pytest.param("a\n\\[\nx\n= 1\n\\]\nb", [("x = 1", True, "$$x = 1$$")], id="bracket-multi-line-in-a-paragraph"),
    pytest.param("a\n\n```math\nx = 1\n```\n\nb", [("x = 1", True, "$$x = 1$$")], id="math-fence"),
]
"""Each way to write a formula: (Markdown, [(formula, display, as the post's body carries it)])."""


def read(upload, text: str):
    return posts(upload({"notes.md": text}))


def read_math(path) -> list[tuple[str, bool, str]]:
    [record] = posts(path)
    shown = [record.post.body[f.start:f.end] for f in record.formulas]
    return [(f.text, f.display, text) for f, text in zip(document_formulas(path), shown, strict=True)]


@pytest.mark.parametrize("text, expected", DELIMITERS)
def test_each_delimiter_gives_its_formula(upload, text, expected):
    path = upload({"notes.md": text})
    assert read_math(path) == expected
    assert errors(path) == []


@pytest.mark.parametrize("text, expected", [
    pytest.param("a\n\n\\begin{align}\na &= b\\\\\nc &= d\n\\end{align}\n",
                 [("a = b", "$$a = b$$"), ("c = d", "$$c = d$$")], id="amsmath-environment"),
    pytest.param("> a\n> \\[\n> x\n> \\]\n", [("x", "$$x$$")], id="bracket-block-in-a-quote"),
    pytest.param("- item\n  \\[ x \\]\n", [("x", "$$x$$")], id="bracket-in-a-list-item"),
    pytest.param("a \\(x\ny\\) b", [("x y", "$x y$")], id="parenthesis-across-lines"),
    pytest.param("a `$x$` b", [], id="code-span-not-math"),
    pytest.param("a\n\n```python\n$x$\n```\n", [], id="code-fence-not-math"),
    pytest.param("text\n\n    $x$ indented code\n", [], id="indented-code-not-math"),
    pytest.param("costs $5 and $6", [], id="money-not-math"),
])
def test_math(upload, text, expected):
    [record] = read(upload, text)
    assert [(f.text, record.post.body[f.start:f.end]) for f in record.formulas] == expected


@pytest.mark.parametrize("text", [
    pytest.param("$$x$$ (eq 1)\n", id="dollars"),
    pytest.param("\\[ x \\] (eq 1)\n", id="brackets"),
    pytest.param("\\[\nx\n\\]  (eq 1)\n", id="brackets-multi-line"),
])
def test_a_labelled_block_gives_an_anchor(upload, text):
    [record] = read(upload, text)
    assert [(f.text, f.anchor) for f in record.formulas] == [("x", "eq-1")]


@pytest.mark.parametrize("text, body", [
    pytest.param("\\[ x \\] and more", "$$x$$\n\nand more", id="words-after-the-closing"),
    pytest.param("\\[ x \\] (eq1) more", "$$x$$\n\n(eq1) more", id="words-after-a-label"),
    pytest.param("a `\\[x\\]` and `\\(y\\)` b", r"a \[x\] and \(y\) b", id="code-spans-stay-words"),
    pytest.param("a\n\n```\n\\[x\\]\n```\n\nb", "a\n\nb", id="code-block-left-out"),
    pytest.param(r"a \\[x\\] b", r"a \[x\] b", id="escaped-backslash"),
])
def test_text_around_brackets_is_kept_as_words(upload, text, body):
    path = upload({"notes.md": text})
    assert [r.post.body for r in posts(path)] == [body]
    assert errors(path) == []


@pytest.mark.parametrize("text, problem", [
    pytest.param("The integral\n\\[\n\\int f\n\n= 1\n\\]\n", "'(before the first)': text holds an unread "
                 "formula delimiter pair \\[ … \\]", id="blank-line-inside-a-paragraph-display"),
    pytest.param("# T\n\n## Part\n\na \\(x\n+ y\\) b\n", "'Part': text holds an unread formula delimiter pair "
                 "\\( … \\)", id="list-item-inside-parentheses"),
    pytest.param("## Part\n\n<div>\n$$x$$\n</div>\n\nText $y$.\n", "'Part': text holds an unread formula "
                 "delimiter pair $$ … $$", id="html-block"),
])
def test_an_unread_delimiter_pair_is_a_problem_and_the_post_stays(upload, text, problem):
    path = upload({"notes.md": text})
    assert problems(path) == [("unread-delimiters", "notes.md", None)]
    assert errors(path) == [f"notes.md: section {problem}"]
    assert len(posts(path)) == 1


def test_one_problem_per_document(upload):
    path = upload({"notes.md": "## A\n\n<div>\\[x\\]</div>\n\n## B\n\n<div>\\(y\\)</div>\n"})
    assert problems(path) == [("unread-delimiters", "notes.md", None)]
    assert errors(path) == ["notes.md: section 'A': text holds an unread formula delimiter pair \\[ … \\]"]


def test_an_ordinary_note_has_no_problem(upload):
    note = ("# Notes\n\nIt costs $5 and $6.\n\nWrite \\$\\$ x \\$\\$ for dollars, `\\[x\\]` and `$$y$$` in code,\n"
            "a link [a](b) (c), and \\\\[ is a backslash and a bracket.\n\n"
            "```\n\\[ code \\]\n$$ code $$\n```\n\n    \\( indented \\)\n\n<!-- $$ hidden $$ -->\n\n"
            "## Math\n\n$a$, $$b$$, \\(c\\), \\[d\\] and\n\n\\[\ne\n\\]\n")
    path = upload({"notes.md": note})
    assert errors(path) == []
    assert [f.text for r in posts(path) for f in r.formulas] == ["a", "b", "c", "d", "e"]


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
