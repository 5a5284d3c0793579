from pathlib import Path

import pytest

from mathparse.tree import Tree
from ml.training.corpus import CorpusFormula, parse_formula, read_corpus, read_corpus_spec, unique
from tests.conftest import skip_unless_ci

SHARED = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "arqmath"


@pytest.mark.parametrize(
    "fmt, content, expected",
    [
        pytest.param("latex", "x^2\n\n\\frac{a}{b}\n", [("x^2", "latex", "f:1"), ("\\frac{a}{b}", "latex", "f:3")],
                     id="latex-lines"),
        pytest.param("visual_ids", "3\t[V!x]\tNone\r\n4\tNone\tx+1\n",
                     [("[V!x]", "slt", "f:3"), ("x+1", "latex", "f:4")], id="visual-ids-prefer-latex"),
        pytest.param("slt_strings", "16\t99\t[V!f[M!()1x1,w[V!x]]]\n", [("[V!f[M!()1x1,w[V!x]]]", "slt", "f:16")],
                     id="slt-strings"),
        pytest.param("topics", "B.1 \t f(x)= \\frac{1}{x}\n", [("f(x)= \\frac{1}{x}", "latex", "f:B.1")],
                     id="topic-text"),
        pytest.param("jsonl", '{"latex": "a+b", "post": 1}\n', [("a+b", "latex", "f:1")], id="jsonl"),
        pytest.param("formulas_jsonl", '{"notation": "slt", "text": "[V!x]", "key": "k", "source": "g:3"}\n',
                     [("[V!x]", "slt", "f:g:3")], id="formulas-jsonl"),
        pytest.param("wiki_json", '{"d41d": "x^2", "e5f6": "\\\\alpha"}', [("x^2", "latex", "f:d41d"),
                     ("\\alpha", "latex", "f:e5f6")], id="wiki-json"),
        pytest.param("mse_html", '<span class="math-container" id="7" visual_id="9"><math alttext="a&amp;gt;b">'
                     "<mi>a</mi></math></span>", [("a>b", "latex", "f:7")], id="mse-page"),
    ],
)
def test_readers(tmp_path, fmt, content, expected):
    path = tmp_path / "f"
    path.write_bytes(content.encode())
    assert [(f.text, f.kind, f.source) for f in read_corpus(path, fmt)] == expected


@pytest.mark.parametrize("fmt, content, message", [
    pytest.param("visual_ids", "3\t[V!x]\tNone\n5\tNone\tNone\n", "line 2: neither an SLT string nor LaTeX",
                 id="visual-id-without-formula"),
    pytest.param("topics", "B.1\tx\nB.2\t\n", "line 2: expected `topic <TAB> latex`", id="topic-without-latex"),
])
def test_a_malformed_line_is_an_error_naming_file_and_line(tmp_path, fmt, content, message):
    path = tmp_path / "f"
    path.write_text(content)
    with pytest.raises(ValueError, match=f"{path}: 1 malformed line\\(s\\); {message}"):
        list(read_corpus(path, fmt))


def test_topic_xml(tmp_path):
    path = tmp_path / "t.xml"
    path.write_text('<Topics><Topic number="B.1"><Latex>a &lt; b</Latex></Topic>'
                    '<Topic number="B.2"><Latex>\n x\n</Latex></Topic></Topics>')
    assert [(f.text, f.source) for f in read_corpus(path, "topics")] == [("a < b", "t.xml:1"), ("x", "t.xml:2")]


def test_topic_xml_that_breaks_off_is_an_error(tmp_path):
    path = tmp_path / "t.xml"
    path.write_text('<Topics><Topic number="B.1"><Latex>x</Latex></Topic>')
    with pytest.raises(ValueError, match="1 malformed line"):
        list(read_corpus(path, "topics"))


def test_unknown_format_names_the_valid_ones(tmp_path):
    with pytest.raises(ValueError, match=r"expected one of \['formulas_jsonl', 'jsonl', 'latex', 'mse_html', 'slt_strings'"):
        read_corpus(tmp_path / "f", "csv")


def test_unique_keeps_first_of_each_text():
    items = [CorpusFormula("x", "latex", "a"), CorpusFormula("x", "slt", "b"), CorpusFormula("x", "latex", "c")]
    assert [f.source for f in unique(items)] == ["a", "b"]


def test_parse_slt_string_formula_has_no_opt():
    parsed = parse_formula(CorpusFormula("[V!x,a[N!2]]", "slt"))
    assert isinstance(parsed.slt, Tree) and parsed.slt.labels == ["V!x", "N!2"] and parsed.opt is None


def test_parse_unknown_kind():
    with pytest.raises(ValueError, match="unknown formula kind 'content'"):
        parse_formula(CorpusFormula("<apply/>", "content"))


def test_shared_visual_id_file_counts():
    path = SHARED / "arqmath1-task2-judged-formulas" / "visual_id_file.tsv"
    if not path.exists():
        skip_unless_ci(f"benchmark data not found at {path}")
    kinds = [f.kind for f in read_corpus(path, "visual_ids")]
    assert (kinds.count("latex"), kinds.count("slt")) == (8483, 1443)


def test_a_folder_of_thread_pages_is_a_corpus_spec(tmp_path):
    (tmp_path / "1_2.html").write_text('<span class="math-container" id="7" visual_id="9"><math><mi>a</mi></math></span>')
    [formula] = read_corpus_spec(f"{tmp_path}:mse_html")
    assert (formula.kind, formula.source) == ("mathml", "1_2.html:7")
    assert parse_formula(formula).slt.root.label == "V!a"
    with pytest.raises(ValueError, match="give an existing PATH:FORMAT"):
        read_corpus_spec(f"{tmp_path}:latex")
