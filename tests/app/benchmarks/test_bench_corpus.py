"""The benchmark corpus: real formulas first, source by source, each once; failures counted; then variants."""
import json

from mathparse import parse_latex, to_slt_string
from searchapp.benchmarks.bench_corpus import bench_corpus, write_slt_tsv
from searchapp.learning.judged_corpus import JUDGED
from searchapp.learning.thread_judgments import PAGES


def _data(tmp_path):
    judged = tmp_path / JUDGED
    judged.mkdir(parents=True)
    (judged / "visual_id_file.tsv").write_text("1\tNone\tx^2+1\n2\tNone\t\\frac{a}{b}\n3\tNone\t\\frac{\n",
                                               encoding="utf-8")
    (judged / "formulas_slt_string.tsv").write_text("10\t5\t[V!y]\n", encoding="utf-8")
    (tmp_path / PAGES).mkdir(parents=True)
    wiki = tmp_path / "wiki.json"
    wiki.write_text(json.dumps({"m1": "x^2+1", "m2": "\\sqrt{z}"}), encoding="utf-8")
    return tmp_path, wiki


def test_real_formulas_come_first_each_once_and_failures_are_counted(tmp_path):
    data, wiki = _data(tmp_path)
    corpus = bench_corpus(data, 20, wiki, progress=lambda _: None)
    real = [to_slt_string(parse_latex(latex).slt) for latex in ("x^2+1", "\\frac{a}{b}")] + ["[V!y]"]
    assert corpus.strings[:3] == real
    assert corpus.strings[3] == to_slt_string(parse_latex("\\sqrt{z}").slt)  # x^2+1 again adds nothing
    assert corpus.sources == {"arqmath_judged": 2, "arqmath_collection": 1, "threads": 0, "wikipedia": 1,
                              "variants": 16}
    assert corpus.unparsed == {"arqmath_judged": 1}
    assert len(set(corpus.strings)) == 20


def test_a_small_index_stops_at_the_first_sources_and_needs_no_wikipedia(tmp_path):
    data, _ = _data(tmp_path)
    corpus = bench_corpus(data, 2, None, progress=lambda _: None)
    assert corpus.sources == {"arqmath_judged": 2, "variants": 0}


def test_formulas_are_grouped_into_posts(tmp_path):
    path = tmp_path / "bench.tsv"
    write_slt_tsv([f"[V!x{i}]" for i in range(12)], path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "1\t1\t[V!x0]" and lines[9].startswith("10\t1\t") and lines[10] == "11\t2\t[V!x10]"
