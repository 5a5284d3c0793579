import json

import pytest
from django.core.management import CommandError, call_command

from ml.training.corpus import read_corpus


def test_formulas_are_deduplicated_by_visual_key_across_sources_and_written_back_readable(tmp_path, capsys):
    wiki = tmp_path / "wiki.json"
    wiki.write_text(json.dumps({"a": "x^2", "b": "x^{2}", "c": "\\frac{1}{", "d": "y"}))
    slt = tmp_path / "slt.tsv"
    slt.write_text("16\t99\t[V!y]\n17\t99\t[V!z]\n")
    out = tmp_path / "distinct.jsonl"
    call_command("training_corpus", "--corpus", f"{wiki}:wiki_json", "--corpus", f"{slt}:slt_strings", "--out", str(out))
    report = capsys.readouterr().out
    assert f"{wiki}:wiki_json: read 4, parsed 3, failed 1 (" in report and "new distinct keys 2" in report
    assert f"{slt}:slt_strings: read 2, parsed 2, failed 0 (none), new distinct keys 1" in report
    assert "total distinct: 3" in report
    written = list(read_corpus(out, "formulas_jsonl"))
    assert [(f.text, f.kind, f.source) for f in written] == [
        ("x^2", "latex", "distinct.jsonl:wiki.json:a"), ("y", "latex", "distinct.jsonl:wiki.json:d"),
        ("[V!z]", "slt", "distinct.jsonl:slt.tsv:17")]


def test_a_missing_corpus_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="give an existing PATH:FORMAT"):
        call_command("training_corpus", "--corpus", f"{tmp_path}/none.json:wiki_json")
