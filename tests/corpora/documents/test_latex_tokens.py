import pytest

from corpora.documents.latex_tokens import Frame, Token, TokenLimit, TokenStream, at_letter_catcode


def stream_of(*frames: Frame) -> TokenStream:
    stream = TokenStream()
    for frame in frames:
        stream.push(frame)
    return stream


def read(stream: TokenStream, peek: bool = False) -> Token:
    token = stream.peek() if peek else stream.next()
    assert token is not None
    return token


def tokens(stream: TokenStream) -> list[tuple[str, str]]:
    out = []
    while (token := stream.next()) is not None:
        out.append((token.kind, token.written))
    return out


@pytest.mark.parametrize("text, expected", [
    pytest.param(r"a \foo{x}", [("char", "a"), ("macro", r" \foo"), ("brace_open", "{"), ("char", "x"),
                                ("brace_close", "}")], id="space-goes-with-the-next-token"),
    pytest.param("a % c\n  b", [("char", "a"), ("comment", " % c\n  "), ("char", "b")],
                 id="comment-takes-the-newline-and-the-indent"),
    pytest.param("a %\n\nb", [("char", "a"), ("comment", " %"), ("char", "\n\n"), ("char", "b")],
                 id="comment-keeps-a-blank-line"),
    pytest.param("a\n  \nb", [("char", "a"), ("char", "\n  \n"), ("char", "b")], id="blank-line-with-spaces"),
    pytest.param(r"\% \\ \@", [("macro", r"\%"), ("macro", r" \\"), ("macro", r" \@")], id="control-symbols"),
    pytest.param(r"\my@cmd", [("macro", r"\my"), ("char", "@"), ("char", "c"), ("char", "m"), ("char", "d")],
                 id="at-is-no-letter-in-a-document"),
    pytest.param(r"$x$ $$y$$ \(z\) \[w\]", [
        ("mathmode_inline", "$"), ("char", "x"), ("mathmode_inline", "$"), ("mathmode_display", " $$"), ("char", "y"),
        ("mathmode_display", "$$"), ("mathmode_inline", r" \("), ("char", "z"), ("mathmode_inline", r"\)"),
        ("mathmode_display", r" \["), ("char", "w"), ("mathmode_display", r"\]")], id="math-delimiters"),
    pytest.param("a--b~c", [("char", "a"), ("specials", "--"), ("char", "b"), ("specials", "~"), ("char", "c")],
                 id="specials"),
    pytest.param("\\café x ", [("macro", "\\café"), ("char", " x"), ("space", " ")], id="unicode-letters-and-end-space"),
])
def test_tokens_keep_their_text_and_the_space_before(text, expected):
    assert tokens(stream_of(Frame(text, file="a.tex"))) == expected


def test_a_replacement_text_is_read_before_the_file_and_then_the_file_goes_on():
    stream = stream_of(Frame("{y}", file="a.tex"), Frame(r"\frac{x}", macro="a"))
    assert [text for _, text in tokens(stream)] == [r"\frac", "{", "x", "}", "{", "y", "}"]


def test_reading_stops_at_the_end_of_a_file():
    stream = stream_of(Frame("outer", file="a.tex"), Frame("in", file="b.tex"))
    assert [text for _, text in tokens(stream)] == ["i", "n"]
    assert stream.file == "b.tex"


@pytest.mark.parametrize("frames, expected", [
    pytest.param([Frame(r"\my@cmd\@ifnextchar[", file="a.sty")], [r"\my@cmd", r"\@ifnextchar", "["],
                 id="package-file"),
    pytest.param([Frame("", file="a.tex"), Frame(r"\my@cmd x", macro="m", at_letter=True)], [r"\my@cmd", " x"],
                 id="replacement-text-written-with-at-a-letter"),
    pytest.param([Frame(r"\@ x", file="a.sty")], [r"\@", " x"], id="at-alone"),
])
def test_at_is_a_letter_where_tex_makes_it_one(frames, expected):
    assert [text for _, text in tokens(stream_of(*frames))] == expected


def test_makeatletter_holds_for_the_files_read_until_makeatother_and_a_package_restores_it():
    stream = stream_of(Frame(r"\a@b", file="main.tex"))
    stream.at_letter = True
    assert read(stream).name == "a@b"
    stream.push(Frame("", file="p.sty"))
    stream.at_letter = False  # a package's own \makeatother ends with it
    stream.next()
    stream.pop_file()
    assert stream.at_letter


def test_inserted_tokens_are_read_as_they_are_before_the_source():
    stream = stream_of(Frame("rest", file="a.tex"))
    stream.insert([Token("macro", "lemma1", r"\lemma1")])
    assert read(stream).name == "lemma1"
    assert read(stream, peek=True).text == "r"
    stream.insert([Token("char", "x", "x")])  # the token looked at goes back to its source first
    assert [text for _, text in tokens(stream)] == list("xrest")


def test_tokens_read_are_counted_and_bounded():
    stream = stream_of(Frame("abcdef", file="a.tex"))
    stream.peek()
    stream.next()
    assert stream.count == 1  # a token looked at and then read counts once
    stream.limit = 3
    stream.next()
    stream.next()
    with pytest.raises(TokenLimit):
        stream.next()


def test_a_replacement_text_used_up_is_dropped_before_the_next_one_nests():
    stream = stream_of(Frame("", file="a.tex"), Frame(r"\a", macro="a"))
    for _ in range(100):
        stream.next()
        stream.push(Frame(r"\a", macro="a"))
    assert stream.macro_depth == 1


def test_peek_and_raw_reads():
    stream = stream_of(Frame(r"|a$b| \end{verbatim}rest", file="a.tex"))
    assert read(stream, peek=True).text == "|"
    assert stream.raw_char() == "|"
    assert stream.raw_until("|") == "a$b"
    assert stream.raw_until(r"\end{verbatim}") == " "
    assert [text for _, text in tokens(stream)] == list("rest")


def test_the_line_is_where_the_innermost_file_is_read():
    stream = stream_of(Frame("a\nb\nc", file="a.tex"))
    assert [read(stream).text for _ in range(2)] == ["a", "b"]
    assert stream.line == 2


@pytest.mark.parametrize("text, at_letter, left", [
    pytest.param("`\\@=11 x", True, " x", id="letter"),
    pytest.param("`\\@11\\relax", True, "\\relax", id="letter-without-equals"),
    pytest.param("`\\@=12 x", False, " x", id="other"),
    pytest.param("`\\^=7 x", None, "`\\^=7 x", id="another-character-left-to-read"),
])
def test_plain_tex_s_catcode_of_at(text, at_letter, left):
    stream = stream_of(Frame(text, file="a.tex"))
    assert at_letter_catcode(stream) is at_letter
    assert "".join(written for _, written in tokens(stream)) == left
