"""The uploads a security probe used to exhaust the machine (issue 51), generated here and indexed through the real
pipeline: each bad document ends as a named error after bounded work, and the rest of its job is indexed."""
import json
import random
import re
import string
import subprocess
import sys
import zipfile

import pytest

from corpora.documents import posts
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job
from searchapp.models import Post
from tests.conftest import REPO

NOTE = "# Pythagoras\n\nFor a right triangle $$a^2 + b^2 = c^2$$ holds.\n"
LETTERS = ((string.ascii_lowercase + " ") * 10).encode()[:256]
"""Random bytes → lower-case letters and spaces (a translation table)."""


def index(path, corpus: str = "probe"):
    return run_job(start_index_job(path, "documents", corpus, enqueue=False))


def messages(job) -> list[str]:
    return [error["message"] for error in job.errors]


@pytest.fixture(scope="module")
def verbatim_bomb(tmp_path_factory):
    """`\\input{big}` 200 times, where big.tex is 4.8 MB of verbatim text: 2.6 GB of worker memory before. Random
    letters, so the archive is compressed like text (3:1), not refused as a zip bomb before it is read."""
    letters = random.Random(0).randbytes(4_800_000).translate(LETTERS).decode()
    big = "\\begin{verbatim}\n" + letters + "\n\\end{verbatim}\n"
    main = "\\documentclass{article}\n\\begin{document}\n" + "\\input{big}\n" * 200 + "\\end{document}\n"
    path = tmp_path_factory.mktemp("bomb") / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("main.tex", main)
        archive.writestr("big.tex", big)
        archive.writestr("note.md", NOTE)
    return path


@pytest.mark.django_db
def test_a_file_of_verbatim_text_included_200_times_is_one_named_error(verbatim_bomb):
    job = index(verbatim_bomb)
    assert job.state == "done"
    [error] = [message for message in messages(job) if message.startswith("main.tex")]
    assert error.startswith("main.tex: over the budget of 8,000,000 characters a document may read and produce: "
                            "big.tex read (4,800,0")
    assert list(Post.objects.values_list("source_id", flat=True)) == ["note.md"]


PEAK_SCRIPT = """
import json, sys, django
django.setup()
from corpora.documents import posts
from searchapp.indexing.actions import start_index_job
from searchapp.indexing.jobs import run_job

def status(field):
    return int(next(line for line in open("/proc/self/status") if line.startswith(field)).split()[1]) * 1024

run_job(start_index_job(sys.argv[2], "documents", "warm-up", enqueue=False))  # the models loaded, as in a worker
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # the peak (VmHWM) starts again from here
started = status("VmRSS")
job = run_job(start_index_job(sys.argv[1], "documents", "probe", enqueue=False))
print(json.dumps({"state": job.state, "grew": status("VmHWM") - started}))
"""


@pytest.mark.django_db(transaction=True)
def test_a_worker_reading_the_verbatim_bomb_stays_within_300_mb_of_where_it_started(verbatim_bomb, tmp_path,
                                                                                     service_env):
    (tmp_path / "warm").mkdir()
    (tmp_path / "warm" / "note.md").write_text(NOTE)
    ran = subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(verbatim_bomb), str(tmp_path / "warm")],
                         cwd=REPO, env=service_env, capture_output=True, text=True, check=True)
    measured = json.loads(ran.stdout.strip().splitlines()[-1])
    assert measured["state"] == "done"
    assert measured["grew"] < 300 * 1024 * 1024


@pytest.mark.django_db
def test_a_693_byte_tree_of_defs_is_left_as_written_after_its_budget_and_the_job_goes_on(tmp_path):
    names = [f"\\m{letter}" for letter in string.ascii_lowercase[:14]]
    tree = "\\def\\ma{x}" + "".join(f"\\def{name}{{{below}{below}}}" for below, name in zip(names, names[1:]))
    source = f"{tree}\n\\begin{{document}}\n" + f"{names[-1]} " * 100 + "\n\\end{document}\n"
    assert len(source) < 700
    (tmp_path / "tree.tex").write_text(source)
    (tmp_path / "note.md").write_text(NOTE)
    job = index(tmp_path)
    assert job.state == "done"
    assert any(message.startswith("tree.tex:") and "tokens" in message and "left as written" in message
               for message in messages(job))
    assert "note.md" in Post.objects.values_list("source_id", flat=True)


@pytest.mark.django_db
def test_a_zip_of_small_members_compressed_160_to_1_together_is_refused_in_one_line(tmp_path):
    """Each member is below the size at which its own ratio counts (MEMBER_BOMB_MIN_BYTES): the whole archive's is
    what refuses it. The probe sent 9,999 such members (200 MB); a hundred (2 MB, past BOMB_MIN_BYTES) take the same
    path."""
    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for number in range(100):
            archive.writestr(f"{number}.tex", "%" * 20_000)
    job = index(path)
    assert job.state == "failed"
    assert re.search(r"2,000,000 bytes from 1\d,\d{3} compressed, 1\d\d:1; an archive is refused above 100:1 \(a zip bomb\)",
                     job.message), job.message
    assert Post.objects.count() == 0


@pytest.mark.django_db
def test_formulas_too_long_or_deep_are_formula_errors_and_their_posts_stay(tmp_path, monkeypatch):
    """Each past its bound by far: a section's bytes (lowered from 1 MB, as the reader's own tests do, so that a
    section past it takes a moment to read), a formula's characters (LaTeX's 5,000, MathML's 40,000) and depth (100;
    5,000 elements deep is far past Python's recursion limit too)."""
    monkeypatch.setattr(posts, "MAX_SECTION_BYTES", 10_000)
    (tmp_path / "line.tex").write_text("\\documentclass{article}\\begin{document}\\section{A}\n\\[" + "x+" * 5_000
                                       + "y\\]\n\\section{B}\nStill read: $a+b$.\n\\end{document}\n")
    (tmp_path / "long.md").write_text("# Long\n\nWords $$" + "x+" * 3_000 + "y$$ and $c$.\n")
    (tmp_path / "deep.md").write_text("# Deep\n\nFirst $" + "\\frac{1}{" * 165 + "x" + "}" * 165 + "$ and $d$.\n")
    (tmp_path / "deep.html").write_text("<h1>Deep</h1><p><math>" + "<mrow>" * 5_000 + "<mi>x</mi>"
                                        + "</mrow>" * 5_000 + "</math> and <math><mi>e</mi></math></p>")
    (tmp_path / "wide.html").write_text("<h1>Wide</h1><p><math>" + "<mi>x</mi>" * 10_000
                                        + "</math> and <math><mi>f</mi></math></p>")
    job = index(tmp_path)
    assert job.state == "done"
    found = messages(job)
    assert any(message.startswith("line.tex: section 'A': 10,005 bytes of text; a section is refused above 10,000")
               for message in found)
    assert sorted(Post.objects.values_list("source_id", flat=True)) == [
        "deep.html", "deep.md", "line.tex#b", "long.md", "wide.html"]
    kinds = sorted(message.split(": ")[1].split(" at ")[0] for message in found if message.startswith("formula "))
    assert kinds == ["too_deep", "too_long", "too_long", "too_long"]


@pytest.mark.django_db
def test_a_link_out_of_an_indexed_folder_is_refused_by_name(tmp_path):
    (tmp_path / "secret.txt").write_text("root:x:0:0\n")
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "secret.tex").symlink_to(tmp_path / "secret.txt")
    (folder / "note.md").write_text(NOTE)
    job = index(folder)
    assert "secret.tex: a link to a file outside the folder: not read" in messages(job)
    assert not Post.objects.filter(body__contains="root:x").exists()
