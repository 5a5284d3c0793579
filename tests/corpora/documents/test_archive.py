import gzip
import io
import random
import re
import tarfile
import zipfile

import pytest

from corpora.documents import archive, tar_archives
from corpora.documents.archive import decoded, document_files
from tests.corpora.documents.conftest import errors, formulas, tar_bytes


def test_a_folder_lists_its_files_without_hidden_ones(tmp_path):
    (tmp_path / "a" / ".git").mkdir(parents=True)
    (tmp_path / "a" / ".git" / "x.tex").write_text("x")
    (tmp_path / "a" / "b.tex").write_text("b")
    (tmp_path / ".hidden.tex").write_text("h")
    files = document_files(tmp_path)
    assert files.paths == ["a/b.tex"]
    assert files.read("a/b.tex") == b"b"


def test_a_zip_lists_its_files_without_macos_copies(tmp_path):
    path = tmp_path / "up.zip"
    with zipfile.ZipFile(path, "w") as zipped:
        zipped.writestr("doc/main.tex", "m")
        zipped.writestr("__MACOSX/doc/._main.tex", "junk")
        zipped.writestr("doc/", "")
    files = document_files(path)
    assert files.paths == ["doc/main.tex"]
    assert files.read("doc/main.tex") == b"m"


def test_a_single_file_is_named_by_its_name(tmp_path):
    (tmp_path / "notes.md").write_text("# x")
    assert document_files(tmp_path / "notes.md").paths == ["notes.md"]


def test_a_missing_path_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="no such file or folder"):
        document_files(tmp_path / "nothing")


def test_a_file_over_the_limit_is_refused_without_reading_it(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_DOCUMENT_BYTES", 10)
    (tmp_path / "big.tex").write_text("x" * 11)
    files = document_files(tmp_path)
    with pytest.raises(ValueError, match="11 bytes; a file is refused above 10"):
        files.read("big.tex")


def _zip(tmp_path, members, compression=zipfile.ZIP_DEFLATED):
    path = tmp_path / "up.zip"
    with zipfile.ZipFile(path, "w", compression) as zipped:
        for name, content in members:
            zipped.writestr(name, content)
    return path


@pytest.mark.parametrize("members, message", [
    pytest.param([("bomb.tex", "0" * 2_000_000)], r"compressed \d[\d,]*:1; .*a zip bomb", id="ratio"),
    pytest.param([("member.tex", "0" * 100_000), ("noise.tex", random.Random(0).randbytes(2_000_000))],
                 r"member 'member.tex' is compressed \d[\d,]*:1; .*a zip bomb", id="one-member-of-100-kb"),
    pytest.param([(f"{n}.tex", "0" * 20_000) for n in range(100)], r"2,000,000 bytes from [\d,]+ compressed, "
                 r"\d[\d,]*:1; an archive is refused above 100:1 \(a zip bomb\)", id="many-small-members"),
    pytest.param([("../evil.tex", "x")], "would be written outside the folder", id="parent-path"),
    pytest.param([("/etc/evil.tex", "x")], "would be written outside the folder", id="absolute-path"),
    pytest.param([("a/../../evil.tex", "x")], "would be written outside the folder", id="nested-parent-path"),
])
def test_a_zip_is_refused_before_reading(tmp_path, members, message):
    with pytest.raises(ValueError, match=message):
        document_files(_zip(tmp_path, members))


def test_a_zip_with_too_many_members_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_ARCHIVE_MEMBERS", 3)
    with pytest.raises(ValueError, match="4 members; an archive is refused above 3"):
        document_files(_zip(tmp_path, [(f"{n}.tex", "x") for n in range(4)]))


def test_the_readers_read_no_more_than_twice_what_an_upload_declares(monkeypatch):
    """An archive may declare less than it holds: what is read is counted as it is read."""
    monkeypatch.setattr(archive, "MAX_DOCUMENT_BYTES", 100)
    files = archive.DocumentFiles(["a.tex", "b.tex"], lambda name: b"x" * 90, {"a.tex": 1, "b.tex": 1})
    files.read("a.tex")
    files.read("a.tex")
    with pytest.raises(ValueError, match="not read: the upload's readers have read 180 bytes, more than twice the 2"):
        files.read("b.tex")


def test_a_zip_too_large_uncompressed_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_ARCHIVE_BYTES", 100)
    with pytest.raises(ValueError, match="bytes uncompressed; an archive is refused above 100"):
        document_files(_zip(tmp_path, [("a.tex", "x" * 101)], zipfile.ZIP_STORED))


def test_a_broken_zip_is_a_value_error(tmp_path):
    (tmp_path / "up.zip").write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ValueError, match="not a readable zip archive"):
        document_files(tmp_path / "up.zip")


@pytest.mark.parametrize("data, latin1, expected", [
    pytest.param("é".encode(), False, "é", id="utf-8"),
    pytest.param("\ufeffx".encode(), False, "x", id="byte-order-mark"),
    pytest.param("é".encode("latin-1"), True, "é", id="latin-1-fallback"),
])
def test_decoded(data, latin1, expected):
    assert decoded(data, latin1) == expected


@pytest.mark.parametrize("data, latin1, message", [
    pytest.param(b"a\x00b", True, "binary data", id="nul-byte"),
    pytest.param("é".encode("latin-1"), False, "not UTF-8", id="not-utf-8"),
])
def test_undecodable(data, latin1, message):
    with pytest.raises(ValueError, match=message):
        decoded(data, latin1)


def _special(kind: bytes, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo()
    info.type, info.linkname = kind, link
    return info


def _zip_bytes(members: dict) -> bytes:
    written = io.BytesIO()
    with zipfile.ZipFile(written, "w") as zipped:
        for name, content in members.items():
            zipped.writestr(name, content)
    return written.getvalue()


@pytest.mark.parametrize("name, data, expected", [
    pytest.param("paper.tar", tar_bytes({"main.tex": "m", "sec/a.tex": "a"}), {"main.tex": b"m", "sec/a.tex": b"a"},
                 id="tar"),
    pytest.param("paper.tar.gz", tar_bytes({"./main.tex": "m", "./sec/a.tex": "a"}, gzipped=True),
                 {"main.tex": b"m", "sec/a.tex": b"a"}, id="tar-gz-with-dot-slash-names"),
    pytest.param("paper.tgz", tar_bytes({"sec": _special(tarfile.DIRTYPE), "sec/a.tex": "a", ".DS_Store": "x"},
                                        gzipped=True), {"sec/a.tex": b"a"}, id="tgz-without-folders-or-hidden-files"),
    pytest.param("2101.00002.gz", gzip.compress(b"\\documentclass{article}"),
                 {"2101.00002.tex": b"\\documentclass{article}"}, id="gzipped-single-file"),
    pytest.param("2101.00003v2.tar.gz", gzip.compress(b"one file"), {"2101.00003v2.tex": b"one file"},
                 id="single-file-named-tar-gz"),
    pytest.param("notes.md.gz", gzip.compress(b"# x"), {"notes.md": b"# x"}, id="gzip-keeping-its-suffix"),
    pytest.param("empty.tar.gz", gzip.compress(bytes(1024)), {}, id="empty-tar"),
])
def test_each_tar_format_is_readable(tmp_path, name, data, expected):
    (tmp_path / name).write_bytes(data)
    files = document_files(tmp_path / name)
    assert {path: files.read(path) for path in files.paths} == expected
    assert {path: files.size(path) for path in files.paths} == {path: len(read) for path, read in expected.items()}


PAPER = ("\\documentclass{{article}}\n\\begin{{document}}\n\\section{{Results}}\n\\input{{sections/result}}\n"
         "\\end{{document}}\n")


def test_a_folder_of_archives_reads_each_paper_inside_itself(upload):
    folder = upload({
        "2101.00001.tar.gz": tar_bytes({"main.tex": PAPER.format(), "sections/result.tex": "$$x^2$$"}, gzipped=True),
        "2101.00002.zip": _zip_bytes({"main.tex": PAPER.format(), "sections/result.tex": "$$y^3$$"}),
        "old/2101.00003.gz": gzip.compress(PAPER.replace("\\input{{sections/result}}", "$$z_4$$").format().encode()),
        "notes.tex": "$$w$$",
    })
    assert document_files(folder).paths == [
        "2101.00001.tar.gz/main.tex", "2101.00001.tar.gz/sections/result.tex", "2101.00002.zip/main.tex",
        "2101.00002.zip/sections/result.tex", "notes.tex", "old/2101.00003.gz/2101.00003.tex"]
    assert sorted(formulas(folder)) == ["w", "x^2", "y^3", "z_4"]
    assert errors(folder) == []


def test_a_refused_archive_in_a_folder_is_one_problem_and_the_others_are_read(upload):
    folder = upload({"good.tar.gz": tar_bytes({"main.tex": "g"}, gzipped=True),
                     "link.tar": tar_bytes({"main.tex": "l", "a.tex": _special(tarfile.SYMTYPE, "/etc/passwd")}),
                     "broken.zip": b"PK\x03\x04 not really", "bad.tgz": b"\x1f\x8b\x08\x00 not really"})
    files = document_files(folder)
    assert files.paths == ["good.tar.gz/main.tex"] and files.read("good.tar.gz/main.tex") == b"g"
    assert list(files.refused) == ["bad.tgz", "broken.zip", "link.tar"]
    assert files.refused["link.tar"] == "member 'a.tex' is a symbolic link (to '/etc/passwd'); links are refused"
    assert files.refused["broken.zip"].startswith("not a readable zip archive (")
    assert files.refused["bad.tgz"].startswith("not a readable gzip archive (")


@pytest.mark.parametrize("name, data, message", [
    pytest.param("bomb.tar.gz", tar_bytes({"ok.tex": "x", "bomb.tex": bytes(2_000_000)}, gzipped=True),
                 r"2,000,001 bytes from [\d,]+ compressed, [\d,]+:1; an archive is refused above 100:1 \(a gzip bomb\)",
                 id="tar-gz-bomb"),
    pytest.param("bomb.gz", gzip.compress(b" " * 3_000_000),
                 r"[\d,]+ bytes from [\d,]+ compressed, [\d,]+:1; an archive is refused above 100:1 \(a gzip bomb\)",
                 id="single-file-bomb"),
    pytest.param("link.tar.gz", tar_bytes({"a.tex": _special(tarfile.SYMTYPE, "/etc/passwd")}, gzipped=True),
                 r"member 'a.tex' is a symbolic link \(to '/etc/passwd'\); links are refused", id="symlink"),
    pytest.param("hard.tar", tar_bytes({"a.tex": "a", "b.tex": _special(tarfile.LNKTYPE, "a.tex")}),
                 r"member 'b.tex' is a hard link \(to 'a.tex'\); links are refused", id="hard-link"),
    pytest.param("up.tar", tar_bytes({"../evil.tex": "x"}), r"member '../evil.tex' would be written outside the folder",
                 id="parent-path"),
    pytest.param("up.tar", tar_bytes({"a/../../evil.tex": "x"}),
                 r"member 'a/../../evil.tex' would be written outside the folder", id="nested-parent-path"),
    pytest.param("up.tgz", tar_bytes({"/etc/evil.tex": "x"}, gzipped=True),
                 r"member '/etc/evil.tex' would be written outside the folder", id="absolute-path"),
    pytest.param("dev.tar", tar_bytes({"tty": _special(tarfile.CHRTYPE)}),
                 r"member 'tty' is a character device; devices are refused", id="character-device"),
    pytest.param("dev.tar", tar_bytes({"sda": _special(tarfile.BLKTYPE)}),
                 r"member 'sda' is a block device; devices are refused", id="block-device"),
    pytest.param("fifo.tar", tar_bytes({"pipe": _special(tarfile.FIFOTYPE)}),
                 r"member 'pipe' is a FIFO; FIFOs are refused", id="fifo"),
    pytest.param("bad.tar.gz", b"\x1f\x8b\x08\x00" + b"garbage" * 100, r"not a readable gzip archive \(.+\)",
                 id="corrupt-gzip"),
    pytest.param("cut.tar.gz", gzip.compress(tar_bytes({"main.tex": random.Random(0).randbytes(20_000)}))[:3000],
                 r"not a readable gzip archive \(Compressed file ended before the end-of-stream marker was reached\)",
                 id="truncated-gzip"),
    pytest.param("cut.tar", tar_bytes({"main.tex": "x" * 5000})[:2048],
                 r"not a readable tar archive \(unexpected end of data\)", id="truncated-tar"),
    pytest.param("up.tar", b"not a tar" * 100, r"not a readable tar archive \(.+\)", id="not-a-tar"),
])
def test_a_tar_is_refused_with_one_line_before_reading(tmp_path, name, data, message):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(ValueError, match=f"^{re.escape(name)}: {message}$"):
        document_files(tmp_path / name)


@pytest.mark.parametrize("limit, value, message", [
    pytest.param("MAX_ARCHIVE_MEMBERS", 3, "4 members; an archive is refused above 3", id="members"),
    pytest.param("MAX_ARCHIVE_BYTES", 100, "101 bytes uncompressed; an archive is refused above 100", id="bytes"),
])
def test_a_tar_past_the_archive_limits_is_refused(tmp_path, monkeypatch, limit, value, message):
    monkeypatch.setattr(archive, limit, value)
    (tmp_path / "up.tar.gz").write_bytes(tar_bytes({"0.tex": "x" * 98, "1.tex": "x", "2.tex": "x", "3.tex": "x"},
                                                   gzipped=True))
    with pytest.raises(ValueError, match=f"up.tar.gz: {message}$"):
        document_files(tmp_path / "up.tar.gz")


def test_a_bomb_is_refused_from_its_header_before_its_data_is_decompressed(tmp_path):
    compressed = gzip.compress(tar_bytes({"bomb.tex": bytes(5_000_000)}))
    (tmp_path / "bomb.tar.gz").write_bytes(compressed[:len(compressed) // 2])  # a cut stream, had it been read on
    with pytest.raises(ValueError, match=r"5,000,000 bytes from [\d,]+ compressed, .*\(a gzip bomb\)$"):
        document_files(tmp_path / "bomb.tar.gz")


def test_a_header_lying_about_its_size_is_refused_at_a_bound(tmp_path):
    pax = tarfile.TarInfo("././@PaxHeader")
    pax.type, pax.size = tarfile.XHDTYPE, 5_000_000  # tarfile would read all of it into memory
    (tmp_path / "pax.tar.gz").write_bytes(gzip.compress(pax.tobuf(tarfile.USTAR_FORMAT) + bytes(5_000_000)))
    with pytest.raises(ValueError, match=f"more than {tar_archives.HEADER_BYTES:,} bytes of headers before a member's "
                                         r"data \(a header lying about its size\)"):
        document_files(tmp_path / "pax.tar.gz")


@pytest.mark.parametrize("name, data, message", [
    pytest.param("up.tar.gz", tar_bytes({"big.tex": "x" * 11}, gzipped=True), "11 bytes; a file is refused above 10",
                 id="tar-member"),
    pytest.param("big.gz", gzip.compress(b"x" * 11), "more than 10 bytes; a file is refused above that",
                 id="gzipped-single-file"),
])
def test_an_archived_file_over_the_limit_is_refused(tmp_path, monkeypatch, name, data, message):
    monkeypatch.setattr(archive, "MAX_DOCUMENT_BYTES", 10)
    (tmp_path / name).write_bytes(data)
    files = document_files(tmp_path / name)
    with pytest.raises(ValueError, match=message):
        files.read(files.paths[0])


@pytest.mark.parametrize("order, decompressions", [
    pytest.param(["a.tgz/1.tex", "a.tgz/2.tex", "a.tgz/3.tex", "b.tgz/1.tex", "b.tgz/2.tex"], 2, id="in-a-row"),
    pytest.param(["a.tgz/3.tex", "a.tgz/1.tex", "a.tgz/2.tex", "a.tgz/1.tex"], 1, id="backwards-in-one"),
    pytest.param(["a.tgz/1.tex", "b.tgz/1.tex", "a.tgz/2.tex"], 3, id="back-and-forth"),
])
def test_a_tar_gz_is_decompressed_once_for_its_members_read_in_a_row(upload, monkeypatch, order, decompressions):
    calls = []
    decompress = tar_archives._decompressed
    monkeypatch.setattr(tar_archives, "_decompressed", lambda *args: calls.append(args) or decompress(*args))
    members = {f"{n}.tex": f"text {n}" for n in (1, 2, 3)}
    files = document_files(upload({"a.tgz": tar_bytes(members, gzipped=True), "b.tgz": tar_bytes(members, gzipped=True)}))
    assert [files.read(path) for path in order] == [f"text {path[-5]}".encode() for path in order]
    assert len(calls) == decompressions


def test_a_tar_is_listed_once_however_many_members_are_read(tmp_path, monkeypatch):
    listings = []
    listed = archive.tar_members
    monkeypatch.setattr(archive, "tar_members", lambda *args: listings.append(args) or listed(*args))
    (tmp_path / "up.tar").write_bytes(tar_bytes({f"{n}.tex": str(n) for n in range(5)}))
    files = document_files(tmp_path / "up.tar")
    assert [files.read(path) for path in reversed(files.paths)] == [b"4", b"3", b"2", b"1", b"0"]
    assert len(listings) == 1


def test_a_link_in_a_folder_is_read_only_when_it_stays_inside(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0")
    folder = tmp_path / "papers"
    (folder / "notes").mkdir(parents=True)
    (folder / "notes" / "a.tex").write_text("$$a$$")
    (folder / "same.tex").symlink_to(folder / "notes" / "a.tex")
    (folder / "secret.tex").symlink_to(outside)
    files = document_files(folder)
    assert files.paths == ["notes/a.tex", "same.tex"]
    assert files.refused == {"secret.tex": "a link to a file outside the folder: not read"}
