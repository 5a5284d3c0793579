import gzip
import tarfile

import pytest

from corpora.documents import tar_archives
from corpora.documents.tar_archives import HEADER_BYTES, OpenTar, TarMember, gunzip, gzip_holds_tar, is_gzip, tar_members
from tests.corpora.documents.conftest import tar_bytes


def written(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


ARXIV_NAMES = {"2101.00001.gz": "2101.00001.tex", "arXiv-2101.00001v2.tar.gz": "arXiv-2101.00001v2.tex",
               "hep-th9901001.tgz": "hep-th9901001.tex", "paper.tex.gz": "paper.tex", "notes.md.GZ": "notes.md"}
"""A new identifier, a versioned one, an old one, a `.tex` and a suffix of its own."""


@pytest.mark.parametrize("name, expected", ARXIV_NAMES.items(), ids=ARXIV_NAMES)
def test_single_name(name, expected):
    assert tar_archives.single_name(name) == expected


def test_the_content_not_the_name_says_what_a_gzip_holds(tmp_path):
    tar = written(tmp_path, "a.gz", tar_bytes({"main.tex": "m"}, gzipped=True))
    single = written(tmp_path, "b.tar.gz", gzip.compress(b"\\documentclass{article}"))
    empty = written(tmp_path, "c.tgz", gzip.compress(bytes(tarfile.BLOCKSIZE)))
    plain = written(tmp_path, "d.tar", tar_bytes({"main.tex": "m"}))
    assert [is_gzip(path) for path in (tar, single, empty, plain)] == [True, True, True, False]
    assert [gzip_holds_tar(path) for path in (tar, single, empty)] == [True, False, True]


def test_gunzip_decompresses_no_more_than_asked_and_names_a_damaged_gzip(tmp_path):
    assert gunzip(written(tmp_path, "a.gz", gzip.compress(b"x" * 1000)), 10) == b"x" * 10
    with pytest.raises(ValueError, match=r"^not a readable gzip archive \("):
        gunzip(written(tmp_path, "b.gz", b"\x1f\x8bnot really"), 10)


def _special(name: str, kind: bytes, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


@pytest.mark.parametrize("gzipped", [pytest.param(False, id="tar"), pytest.param(True, id="tar-gz")])
def test_members_are_listed_with_their_size_offset_and_any_refusal(tmp_path, gzipped):
    data = tar_bytes({"sec": _special("sec", tarfile.DIRTYPE), "sec/a.tex": "abc",
                      "link": _special("link", tarfile.SYMTYPE, "/etc/passwd"), "dev": _special("dev", tarfile.CHRTYPE)},
                     gzipped=gzipped)
    members = list(tar_members(written(tmp_path, "up", data), gzipped))
    assert [(member.name, member.size, member.folder, member.refusal) for member in members] == [
        ("sec", 0, True, None), ("sec/a.tex", 3, False, None),
        ("link", 0, False, "is a symbolic link (to '/etc/passwd'); links are refused"),
        ("dev", 0, False, "is a character device; devices are refused")]
    assert members[1].offset % tarfile.BLOCKSIZE == 0 and members[1].offset > members[0].offset


def test_a_damaged_tar_is_named_as_such(tmp_path):
    with pytest.raises(ValueError, match=r"^not a readable tar archive \("):
        list(tar_members(written(tmp_path, "up.tar", b"x" * 600), gzipped=False))


def test_listing_stops_at_a_header_lying_about_the_size_of_what_follows(tmp_path):
    pax = tarfile.TarInfo("././@PaxHeader")
    pax.type, pax.size = tarfile.XHDTYPE, 5_000_000
    path = written(tmp_path, "pax.tar", pax.tobuf(tarfile.USTAR_FORMAT) + bytes(5_000_000))
    with pytest.raises(ValueError, match=f"more than {HEADER_BYTES:,} bytes of headers before a member's data"):
        list(tar_members(path, gzipped=False))


@pytest.mark.parametrize("gzipped", [pytest.param(False, id="tar"), pytest.param(True, id="tar-gz")])
def test_an_open_tar_reads_its_files_by_offset_in_any_order(tmp_path, gzipped):
    path = written(tmp_path, "up", tar_bytes({"a.tex": "first", "b.tex": "second"}, gzipped=gzipped))
    files = {member.name: member for member in tar_members(path, gzipped)}
    opened = OpenTar(path, gzipped, files)
    try:
        assert [opened.read("b.tex"), opened.read("a.tex"), opened.read("b.tex")] == [b"second", b"first", b"second"]
    finally:
        opened.close()


def test_a_file_the_archive_ends_inside_is_named(tmp_path):
    path = written(tmp_path, "up.tar", tar_bytes({"a.tex": "abc"}))
    opened = OpenTar(path, False, {"a.tex": TarMember("a.tex", 10_000, 512)})
    try:
        with pytest.raises(ValueError, match=r"the archive ends [\d,]+ bytes into this file of 10,000"):
            opened.read("a.tex")
    finally:
        opened.close()
