import zipfile

import pytest

from corpora import mse_threads
from corpora.mse_threads import ThreadFormula, parse_thread_page, read_thread_page, thread_pages, thread_posts, thread_records
from corpora.records import RecordError
from corpora.tolerant import Problem
from tests.ml.factories import MATH, formula_span, thread_page

PAGE = "\n".join([
    "<html><body><p>",
    '<span class="math-container" id="1" visual_id="10">' + MATH.format(alt='alttext="a&lt;b"') + "</span>",
    '<span class="math-container" id="2" visual_id="20">' + MATH.format(alt='alttext="x&amp;gt;0"') + "</span>",
    '<span class="math-container" id="3" visual_id="30">' + MATH.format(alt="") + "</span>",
    '<span class="math-container" id="4" visual_id="40">x</span>',
    'b<span class="math-container" id="5">y</span> the',
    "</p></body></html>",
])


def test_formulas_come_with_their_ids_and_unescaped_latex_or_their_mathml():
    read = parse_thread_page(PAGE)
    assert read.value.formulas == [
        ThreadFormula("1", "10", "a<b", "latex", 2),
        ThreadFormula("2", "20", "x>0", "latex", 3),  # escaped twice in the page
        ThreadFormula("3", "30", MATH.format(alt=""), "mathml", 4),
    ]


@pytest.mark.parametrize("alttext, latex", [
    # escaped twice, then read by LaTeXML as LaTeX: the `&` an alignment tab, its cell opened by \displaystyle
    (r"\begin{aligned} a&amp;\displaystyle amp;=b\\ &amp;\displaystyle amp;&amp;\displaystyle lt;c\end{aligned}",
     r"\begin{aligned} a&\displaystyle =b\\ &\displaystyle <c\end{aligned}"),
    (r"\exists\delta&amp;% gt;0", r"\exists\delta>0"),  # a line-wrap % between the halves
    (r"\@@eqnarray$a$&amp;$\displaystyle amp;=b$&amp;$\displaystyle lt;c$", r"\@@eqnarray$a$&$\displaystyle =b$$<c$"),
    (r"\@@eqnarray$a$&amp;$% \displaystyle amp;b$", r"\@@eqnarray$a$&$% \displaystyle b$"),
    (r"\binom{n}% {3}", r"\binom{n}% {3}"),  # a line-wrap % alone stays
    (r"a&amp;amp;b", "a&b"),  # escaped twice, whole
])
def test_entities_escaped_twice_are_read_whole_even_when_latexml_split_them(alttext, latex):
    page = f'<span class="math-container" id="1" visual_id="10">{MATH.format(alt=f"alttext={chr(34)}{alttext}{chr(34)}")}</span>'
    assert [formula.text for formula in parse_thread_page(page).value.formulas] == [latex]


def test_a_span_without_math_is_a_problem_and_a_stray_dollar_fragment_is_counted():
    read = parse_thread_page(PAGE)
    assert read.problems == [Problem(5, "formula span 4: no <math> element inside")]
    assert read.value.fragments == 1


def test_a_real_page(shared_data):
    folder = shared_data / "arqmath" / "threads-mathdowsers"
    page = folder / "1001895_1002239.html"
    assert page in thread_pages(folder) and thread_pages(page) == [page]
    read = read_thread_page(page)
    assert read.problems == [] and len(read.value.formulas) == 22
    assert read.value.formulas[0] == ThreadFormula("9549293", "1805", "f(x)", "latex", 25)


def test_a_page_is_a_question_with_title_and_tags_and_an_answer_linked_to_it():
    page = thread_page(f"<p>Is {formula_span(1, 'a^2+b^2')} a square?</p> <p>Second &amp; last.</p>",
                       f"<p>Yes: {formula_span(2, 'x&lt;y')}</p>",
                       title=f"Sum {formula_span(3, 'a+b')}")
    question, answer = thread_posts(page, 7)
    assert question.line == answer.line == 7
    assert (question.post.source_id, question.post.title, question.post.tags, question.post.parent) == \
        ("11", "Sum $a+b$", ["algebra", "number-theory"], "")
    assert question.post.body == "Is $a^2+b^2$ a square?\n\nSecond & last.\n\nComment: Try $n$."
    assert question.post.url == "https://math.stackexchange.com/q/11"
    assert (answer.post.source_id, answer.post.parent, answer.post.body) == ("12", "11", "Yes: $x<y$")
    # the title's formula first (no place in the body), then the body's and the comments' at their $…$
    assert [(f.position, f.text, f.start, f.end) for f in question.formulas] == [
        (3, "a+b", 0, 0), (1, "a^2+b^2", 3, 12), (9, "n", 53, 56)]
    assert [question.post.body[f.start:f.end] for f in question.formulas[1:]] == ["$a^2+b^2$", "$n$"]
    assert [f.position for f in answer.formulas] == [2]  # the related question's formula is not this post's


def test_a_page_without_its_answer_is_one_error_naming_the_file(tmp_path):
    (tmp_path / "1_2.html").write_text("<html><body><div id='question' question_id='1'>Only a question</div></body></html>")
    (tmp_path / "3_4.html").write_text(thread_page("<p>Q</p>", "<p>A</p>"))
    items = list(thread_records(tmp_path))
    assert items[0] == RecordError(1, "1_2.html: expected a question (question_id) and an answer (answer_id)")
    assert [item.post.source_id for item in items[1:]] == ["11", "12"]


def test_a_zip_of_pages_reads_as_the_folder_does_and_its_bad_pages_are_each_reported(tmp_path, monkeypatch):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "3_4.html").write_text(thread_page("<p>Q</p>", "<p>A</p>"))
    (folder / "5_6.html").write_text(thread_page("<p>Q2</p>", "<p>A2</p>").replace('"11"', '"15"'))
    limit = max(len(page.read_bytes()) for page in folder.iterdir())
    archive = tmp_path / "pages.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as written:
        written.write(folder / "5_6.html", "pages/5_6.html")
        written.write(folder / "3_4.html", "pages/3_4.html")
        written.writestr("__MACOSX/pages/._3_4.html", b"\x00\x05\x16\x07 resource fork")
        written.writestr("pages/notes.txt", "not a page")
        written.writestr("pages/7_8.html", b"\xff\xfe not UTF-8")
        written.writestr("pages/9_10.html", "x" * (limit + 1))
    monkeypatch.setattr(mse_threads, "MAX_PAGE_BYTES", limit)
    items = list(thread_records(archive))
    assert items[:4] == list(thread_records(folder))
    assert [item.line for item in items[4:]] == [3, 4] and all(isinstance(item, RecordError) for item in items[4:])
    assert items[4].message.startswith("7_8.html: 'utf-8' codec can't decode")
    assert items[5].message == f"9_10.html: more than {limit:,} bytes; a page is refused above that"


def test_a_page_of_a_folder_over_the_size_limit_is_an_error_naming_it(tmp_path, monkeypatch):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "1_2.html").write_text(thread_page("<p>" + "long " * 100 + "</p>", "<p>A</p>"))
    (folder / "3_4.html").write_text(thread_page("<p>Q</p>", "<p>A</p>").replace('"11"', '"3"'))
    monkeypatch.setattr(mse_threads, "MAX_PAGE_BYTES", len((folder / "3_4.html").read_bytes()))
    items = list(thread_records(folder))
    assert items[0] == RecordError(1, f"1_2.html: more than {mse_threads.MAX_PAGE_BYTES:,} bytes; a page is refused "
                                      "above that")
    assert [item.post.source_id for item in items[1:]] == ["3", "12"]


def test_a_zip_with_a_broken_directory_is_a_file_error_naming_it(tmp_path):
    archive = tmp_path / "pages.zip"
    with zipfile.ZipFile(archive, "w") as written:
        written.writestr("1_2.html", thread_page("<p>Q</p>", "<p>A</p>"))
    archive.write_bytes(archive.read_bytes().replace(b"PK\x01\x02", b"XX\x01\x02"))  # the central directory's entry
    assert zipfile.is_zipfile(archive)
    with pytest.raises(ValueError, match=r"pages\.zip: not a readable zip archive"):
        list(thread_records(archive))


def test_every_real_page_reads_as_a_question_and_an_answer(shared_data):
    items = list(thread_records(shared_data / "arqmath" / "threads-mathdowsers"))
    assert len(items) == 2 * 3395 and not [item for item in items if isinstance(item, RecordError)]
    posts = {item.post.source_id: item for item in items}
    assert len(posts) == 2769 + 3395 and all(item.post.body for item in posts.values())
    assert sum(len(item.formulas) for item in posts.values()) > 76_000
