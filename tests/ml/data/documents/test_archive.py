import zipfile

import pytest

from ml.data.documents import archive
from ml.data.documents.archive import decoded, document_files


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
