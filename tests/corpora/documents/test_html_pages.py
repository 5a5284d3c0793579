import pytest

from tests.corpora.documents.conftest import posts

KATEX = ('<span class="katex"><span class="katex-mathml"><math><semantics><mrow><msup><mi>q</mi><mn>2</mn></msup>'
         '</mrow><annotation encoding="application/x-tex">q^2</annotation></semantics></math></span>'
         '<span class="katex-html" aria-hidden="true"><span class="mord">q2</span></span></span>')


def page(body: str, head: str = "<title>The page</title>") -> str:
    return f"<!DOCTYPE html><html><head>{head}<style>p {{}}</style></head><body>{body}</body></html>"


def read(upload, body: str, head: str = "<title>The page</title>"):
    return posts(upload({"page.html": page(body, head)}))


@pytest.mark.parametrize("body, expected", [
    pytest.param(r"<p>a \(x\) b</p>", [("x", "latex", "$x$")], id="mathjax-parenthesis"),
    pytest.param(r"<p>a \[x\] b</p>", [("x", "latex", "$$x$$")], id="mathjax-bracket"),
    pytest.param("<p>a $$x$$ b</p>", [("x", "latex", "$$x$$")], id="mathjax-double-dollar"),
    pytest.param("<p>a $x$ b</p>", [("x", "latex", "$x$")], id="mathjax-dollar"),
    pytest.param(f"<p>a {KATEX} b</p>", [("q^2", "latex", "$q^2$")], id="katex-annotation"),
    pytest.param('<p><math display="block"><mi>z</mi><mo>&lt;</mo><mn>1</mn></math></p>',
                 [('<math display="block"><mi>z</mi><mo>&lt;</mo><mn>1</mn></math>', "mathml", "$$z < 1$$")],
                 id="mathml-without-tex"),
    pytest.param('<p>a <script type="math/tex">y</script> <script type="math/tex; mode=display">w</script></p>',
                 [("y", "latex", "$y$"), ("w", "latex", "$$w$$")], id="mathjax-2-scripts"),
    pytest.param('<p>a <script>var s = "$x$";</script> b</p>', [], id="script-not-text"),
    pytest.param("<p>a <code>$x$</code> <pre>\\(y\\)</pre></p>", [], id="code-not-math"),
])
def test_formulas(upload, body, expected):
    [record] = read(upload, body)
    assert [(f.text, f.notation, record.post.body[f.start:f.end]) for f in record.formulas] == expected


def test_katex_drawing_is_not_text(upload):
    [record] = read(upload, f"<p>a {KATEX} b</p>")
    assert record.post.body == "a $q^2$ b"


def test_headings_make_sections(upload):
    records = read(upload, "<h1>The page</h1><p>Intro $a$.</p><h2>First</h2><p>One.</p><h3>Sub</h3><p>Two.</p>"
                           "<h1>Second</h1><p>Three.</p>")
    assert [(r.post.source_id, r.post.title, r.post.body) for r in records] == [
        ("page.html", "The page", "Intro $a$."),
        ("page.html#first", "The page › First", "One.\n\nSub\n\nTwo."),
        ("page.html#second", "The page › Second", "Three."),
    ]


def test_the_first_h1_titles_a_page_without_title(upload):
    [record] = read(upload, "<h1>Heading</h1><p>x</p>", head="")
    assert (record.post.title, record.post.source_id) == ("Heading", "page.html")


def test_the_htm_extension_is_read_too(upload):
    assert [r.post.source_id for r in posts(upload({"a.htm": "<p>$x$</p>"}))] == ["a.htm"]
