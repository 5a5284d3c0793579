import pytest

from corpora.documents.posts import BREAK, Document, Formula, Section, SourceIds, body, post, slug


def test_body_collapses_whitespace_and_places_formulas():
    text, found = body(["  Let\n the ", Formula("x"), " be\n\nfine", Formula("y = 1", display=True), "and",
                        Formula("z"), BREAK, "end $5"])
    assert text == "Let the $x$ be\n\nfine\n\n$$y = 1$$\n\nand $z$\n\nend \\$5"
    assert [text[start:end] for _, start, end in found] == ["$x$", "$$y = 1$$", "$z$"]


def test_a_mathml_formula_shows_its_latex():
    text, found = body([Formula("<math/>", "mathml", shown="x")])
    assert (text, found[0][0].text) == ("$x$", "<math/>")


@pytest.mark.parametrize("title, expected", [
    pytest.param("Eigenvalues of $A$", "eigenvalues-of-a", id="formula"),
    pytest.param("Équations différentielles", "equations-differentielles", id="accents"),
    pytest.param("  --  ", "", id="nothing-left"),
])
def test_slug(title, expected):
    assert slug(title) == expected


def test_source_ids_are_unique_and_bounded():
    ids = SourceIds()
    assert [ids.new("a.tex", "Intro"), ids.new("a.tex", "Intro"), ids.new("a.tex", "intro"), ids.new("a.tex", "")] == [
        "a.tex#intro", "a.tex#intro-2", "a.tex#intro-3", "a.tex"]
    long = ids.new("d/" * 50 + "a.tex", "word " * 100)
    assert len(long) <= 200 and long.startswith("d/d/")
    assert ids.new("a.tex", "$$") == "a.tex#section"


def test_a_path_too_long_for_an_id_is_a_value_error():
    with pytest.raises(ValueError, match="too long for a post id"):
        SourceIds().new("x" * 190, "s")


def test_a_section_over_the_limit_is_a_value_error(monkeypatch):
    from corpora.documents import posts
    monkeypatch.setattr(posts, "MAX_SECTION_BYTES", 10)
    document = Document("a.tex", "T")
    section = Section("S", "a.tex", ("S",), ["x" * 11])
    with pytest.raises(ValueError, match="11 bytes of text; a section is refused above 10"):
        post(document, section, SourceIds())


def test_titles_chain_the_headings_above():
    document = Document("a.tex", "Doc")
    document.section("Chapter", 2, "a.tex")
    inner = document.section("Section", 3, "a.tex")
    inner.pieces.append("words")
    record, _ = post(document, inner, SourceIds())
    assert record.title == "Doc › Chapter › Section"
