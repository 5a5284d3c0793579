from corpora.corpus_files import read_records


def test_arqmath_tsv_skips_the_header_and_checks_columns(write):
    path = write("id\tpost_id\tthread_id\ttype\tvisual_id\tformula\n"
                 "10\t20\t30\tanswer\t40\tx^2\n"
                 "11\t21\ttoo-few\n")
    record, error = read_records(path, "arqmath")
    assert record.post.source_id == "20" and record.post.url.endswith("/a/20")
    assert record.formulas[0].text == "x^2" and record.formulas[0].position == 10
    assert "expected 6" in error.message and error.line == 3


def test_a_csv_quoted_formula_is_unquoted(write):
    path = write('id\tpost_id\tthread_id\ttype\tvisual_id\tformula\n12\t22\t32\tanswer\t42\t"P_n=""0""."\n')
    [record] = read_records(path, "arqmath")
    assert record.formulas[0].text == 'P_n="0".'
