import hashlib

from corpora.documents import archive
from corpora.documents.archive import document_files
from corpora.documents.hashed_files import HashedFiles


def hashed(upload, files: dict) -> HashedFiles:
    return HashedFiles(document_files(upload(files)))


def test_reading_a_file_keeps_the_sha256_of_its_bytes(upload):
    files = hashed(upload, {"a.tex": "A", "b.md": "B"})
    assert files.read("a.tex") == b"A"
    assert files.digests == {"a.tex": hashlib.sha256(b"A").hexdigest()}


def test_a_digest_asked_for_reads_the_file_once(upload, monkeypatch):
    files = hashed(upload, {"a.tex": "A"})
    reads = []
    read = files.files.read
    monkeypatch.setattr(files.files, "read", lambda path: reads.append(path) or read(path))
    assert files.digest("a.tex") == files.digest("a.tex") == hashlib.sha256(b"A").hexdigest()
    assert reads == ["a.tex"]


def test_a_file_gone_or_unreadable_has_no_digest(upload, monkeypatch):
    monkeypatch.setattr(archive, "MAX_DOCUMENT_BYTES", 3)
    files = hashed(upload, {"big.tex": "too big", "a.tex": "A"})
    assert (files.digest("gone.tex"), files.digest("big.tex"), files.digest("a.tex") is not None) == (None, None, True)
    assert "gone.tex" not in files and "big.tex" in files


def test_it_lists_and_sizes_the_upload_s_files(upload):
    files = hashed(upload, {"a.tex": "AAA", "sub/b.md": "B"})
    assert files.paths == ["a.tex", "sub/b.md"]
    assert (files.size("a.tex"), files.size("sub/b.md")) == (3, 1)
