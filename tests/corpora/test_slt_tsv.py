from corpora.corpus_files import read_records


def test_slt_tsv_reads_tangent_strings(write):
    record, error = read_records(write("5\t9\t[V!x,a[N!2]]\n6\tnine\t[V!y]\n"), "slt_tsv")
    assert (record.post.source_id, record.formulas[0].notation, record.formulas[0].position) == ("post-9", "slt", 5)
    assert "must be integers" in error.message


def test_real_slt_strings(shared_data):
    path = shared_data / "arqmath" / "arqmath1-task2-judged-formulas" / "formulas_slt_string.tsv"
    records = list(read_records(path, "slt_tsv"))
    assert len(records) == 22446 and all(r.formulas for r in records)
    assert not any('""' in r.formulas[0].text for r in records)  # the 4 CSV-quoted strings are unquoted
