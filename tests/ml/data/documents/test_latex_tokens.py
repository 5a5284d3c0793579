from ml.data.documents.latex_tokens import Frame, TokenStream


def tokens(stream: TokenStream) -> list[tuple[str, str]]:
    out = []
    while (token := stream.next()) is not None:
        out.append((token.kind, token.written))
    return out


def test_tokens_keep_their_text_and_the_space_before():
    stream = TokenStream()
    stream.push(Frame(r"a \foo{x} % c" + "\n" + r"\% \my@cmd", file="a.tex"))
    assert tokens(stream) == [("char", "a"), ("macro", r" \foo"), ("brace_open", "{"), ("char", "x"),
                              ("brace_close", "}"), ("comment", " % c\n"), ("macro", r"\%"), ("macro", r" \my@cmd")]


def test_a_replacement_text_is_read_before_the_file_and_then_the_file_goes_on():
    stream = TokenStream()
    stream.push(Frame("{y}", file="a.tex"))
    stream.push(Frame(r"\frac{x}", macro="a"))
    assert [text for _, text in tokens(stream)] == [r"\frac", "{", "x", "}", "{", "y", "}"]


def test_reading_stops_at_the_end_of_a_file():
    stream = TokenStream()
    stream.push(Frame("outer", file="a.tex"))
    stream.push(Frame("in", file="b.tex"))
    assert [text for _, text in tokens(stream)] == ["i", "n"]
    assert stream.file == "b.tex"


def test_peek_and_raw_reads():
    stream = TokenStream()
    stream.push(Frame(r"|a$b| \end{verbatim}rest", file="a.tex"))
    assert stream.peek().text == "|"
    assert stream.raw_char() == "|"
    assert stream.raw_until("|") == "a$b"
    assert stream.raw_until(r"\end{verbatim}") == " "
    assert [text for _, text in tokens(stream)] == list("rest")
