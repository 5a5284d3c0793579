from corpora.corpus_files import read_records


def test_latex_lines_skip_blank_lines(write):
    records = list(read_records(write("a+b\n\n  \nc\n"), "latex"))
    assert [(r.line, r.formulas[0].text) for r in records] == [(1, "a+b"), (4, "c")]
