"""A read-only view of the files of an upload (a file, a folder, or an archive: zip, tar, tar.gz, or a gzipped
single file as arXiv serves a one-file paper): relative posix path → bytes, read lazily, so LaTeX include
resolution works the same in a folder and in an archive.

An archive is checked before anything is read from it: its declared sizes, member count and compression ratio
(each member's and the whole archive's: a bomb is refused as a whole), member paths that would leave the folder,
and in a tar links, devices and FIFOs. Each file is refused above MAX_DOCUMENT_BYTES before being read whole, and
the readers of an upload may read no more than twice what it declares (an archive may declare less than it
holds). In a folder each archive is one paper: its
files appear under the archive's name as a folder (`2101.00001.tar.gz/main.tex`), and a refused archive becomes
one entry of `DocumentFiles.refused` instead of refusing the folder.
"""
from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable
from contextlib import closing
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Protocol

from corpora.documents.tar_archives import OpenTar, TarMember, gunzip, gzip_holds_tar, is_gzip, single_name, tar_members

MAX_DOCUMENT_BYTES = 5_000_000
"""A file above this size is refused (a RecordError naming it), checked before reading it whole."""
MAX_ARCHIVE_BYTES = 200_000_000
"""The total uncompressed size an archive may declare."""
MAX_ARCHIVE_MEMBERS = 10_000
MAX_COMPRESSION_RATIO = 100
"""An archive, or a zip member, compressed more than this is a bomb: LaTeX sources compress about 4:1. Below
BOMB_MIN_BYTES uncompressed (MEMBER_BOMB_MIN_BYTES for one member), the ratio of a tiny file says nothing."""
BOMB_MIN_BYTES = 1_000_000
MEMBER_BOMB_MIN_BYTES = 64_000
UNREADABLE = (OSError, ValueError, zipfile.BadZipFile, zlib.error, EOFError)
"""What reading one file may raise."""
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".gz")

Listing = tuple[dict[str, int], Callable[[str], bytes]]
"""The files of one source: {relative path: declared size}, and how to read one by its relative path."""


class DocumentFiles:
    """The files of an upload by relative posix path (sorted), each read on demand by `read`, and the archives
    of a folder that were refused ({path: why, one line}, sorted).

    Hidden files and folders (a name starting with `.`) and macOS's `__MACOSX/` copies are not part of it.
    """

    def __init__(self, paths: list[str], reader: Callable[[str], bytes], sizes: dict[str, int],
                 refused: dict[str, str] | None = None) -> None:
        self.paths = sorted(paths)
        self.refused = dict(sorted((refused or {}).items()))
        self._reader, self._sizes = reader, sizes
        self.declared = sum(sizes.values())
        self.bytes_read = 0
        """What the readers have read so far, at most 2 × `declared` + MAX_DOCUMENT_BYTES."""

    def __contains__(self, path: object) -> bool:
        return path in self._sizes

    def size(self, path: str) -> int:
        """The file's size as its folder or archive declares it (what progress counts), without reading it."""
        return self._sizes[path]

    def read(self, path: str) -> bytes:
        """The bytes of one file; ValueError if it is over MAX_DOCUMENT_BYTES (without reading it whole)."""
        if self._sizes[path] > MAX_DOCUMENT_BYTES:
            raise ValueError(f"{self._sizes[path]:,} bytes; a file is refused above {MAX_DOCUMENT_BYTES:,}")
        budget = 2 * self.declared + MAX_DOCUMENT_BYTES
        if self.bytes_read > budget:
            raise ValueError(f"not read: the upload's readers have read {self.bytes_read:,} bytes, more than twice "
                             f"the {self.declared:,} its files declare")
        data = self._reader(path)
        self.bytes_read += len(data)
        if len(data) > MAX_DOCUMENT_BYTES:  # an archive may declare less than it holds
            raise ValueError(f"more than {MAX_DOCUMENT_BYTES:,} bytes; a file is refused above that")
        return data


class _OpenArchive(Protocol):
    def read(self, name: str) -> bytes: ...

    def close(self) -> None: ...


class _Opened:
    """The archive last read from, kept open (a .tar.gz decompressed once), so that reading its members in a row
    opens it once, while a folder of thousands of archives holds one of them open at a time."""

    def __init__(self) -> None:
        self._path: Path | None = None
        self._archive: _OpenArchive | None = None

    def read(self, path: Path, opener: Callable[[], _OpenArchive], name: str) -> bytes:
        if self._archive is None or self._path != path:
            if self._archive is not None:
                self._archive.close()
                self._archive = None  # an opener that fails leaves nothing half-open
            self._archive, self._path = opener(), path
        return self._archive.read(name)


def document_files(path: str | Path) -> DocumentFiles:
    """The view of a file, a folder (recursively) or an archive; ValueError for a missing path or an archive
    refused by its checks (one line naming it and saying why)."""
    path = Path(path)
    if path.is_dir():
        return _folder(path, _Opened())
    if path.is_file() and is_archive(path.name):
        try:
            sizes, read = _archive(path, _Opened())
        except ValueError as error:
            raise ValueError(f"{path.name}: {error}") from None
        return DocumentFiles(list(sizes), read, sizes)
    if path.is_file():
        return DocumentFiles([path.name], lambda _: _read_head(path), {path.name: path.stat().st_size})
    raise ValueError(f"{path}: no such file or folder")


def is_archive(name: str) -> bool:
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def _hidden(relative: PurePosixPath) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in relative.parts)


def _folder(folder: Path, opened: _Opened) -> DocumentFiles:
    """A folder's files; a link is followed only to a file inside the folder (`secret.tex -> /etc/passwd` is
    refused, naming the link), as a member of an archive may not leave it either."""
    sizes: dict[str, int] = {}
    readers: dict[str, Callable[[], bytes]] = {}
    refused: dict[str, str] = {}
    inside = folder.resolve()
    for file in folder.rglob("*"):
        relative = PurePosixPath(file.relative_to(folder).as_posix())
        if not file.is_file() or _hidden(relative):
            continue
        if file.is_symlink() and not file.resolve().is_relative_to(inside):
            refused[str(relative)] = "a link to a file outside the folder: not read"
            continue
        if not is_archive(file.name):
            sizes[str(relative)], readers[str(relative)] = file.stat().st_size, partial(_read_head, file)
            continue
        try:
            listed, read = _archive(file, opened)
        except UNREADABLE as error:  # one paper refused, not the folder
            refused[str(relative)] = str(error)
            continue
        for name, size in listed.items():
            sizes[f"{relative}/{name}"], readers[f"{relative}/{name}"] = size, partial(read, name)
    return DocumentFiles(list(sizes), lambda relative: readers[relative](), sizes, refused)


def _read_head(file: Path) -> bytes:
    with open(file, "rb") as handle:  # at most one byte past the limit, whatever the file grew to
        return handle.read(MAX_DOCUMENT_BYTES + 1)


def _archive(path: Path, opened: _Opened) -> Listing:
    """The checked listing of a zip, a tar (gzipped or not) or a gzipped single file; ValueError saying why not."""
    if path.name.lower().endswith(".zip"):
        return _zip(path, opened)
    if not is_gzip(path):
        return _tar(path, False, opened)
    return _tar(path, True, opened) if gzip_holds_tar(path) else _gzipped_file(path)


def _zip(path: Path, opened: _Opened) -> Listing:
    try:
        with zipfile.ZipFile(path) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"not a readable zip archive ({error})") from None
    problem = archive_problem(infos) or _ratio_problem(sum(info.file_size for info in infos), path.stat().st_size,
                                                       "zip")
    if problem:
        raise ValueError(problem)
    members = {info.filename: info for info in infos if not _hidden(PurePosixPath(info.filename))}
    return ({name: info.file_size for name, info in members.items()},
            partial(opened.read, path, partial(_OpenZip, path, members)))


class _OpenZip:
    def __init__(self, path: Path, members: dict[str, zipfile.ZipInfo]) -> None:
        self._archive, self._members = zipfile.ZipFile(path), members

    def read(self, name: str) -> bytes:
        with self._archive.open(self._members[name]) as member:
            return member.read(MAX_DOCUMENT_BYTES + 1)

    def close(self) -> None:
        self._archive.close()


def archive_problem(infos: list[zipfile.ZipInfo]) -> str | None:
    """Why a zip's members are refused before reading any of them (a bomb, too many, a path leaving the
    folder), or None."""
    problem = _count_problem(len(infos)) or _total_problem(sum(info.file_size for info in infos))
    for info in infos:
        if problem:
            break
        ratio = info.file_size / max(info.compress_size, 1)
        if _leaves_folder(info.filename):
            problem = f"member {info.filename!r} would be written outside the folder"
        elif info.file_size > MEMBER_BOMB_MIN_BYTES and ratio > MAX_COMPRESSION_RATIO:
            problem = (f"member {info.filename!r} is compressed {ratio:,.0f}:1; an archive is refused above "
                       f"{MAX_COMPRESSION_RATIO}:1 (a zip bomb)")
    return problem


def _tar(path: Path, gzipped: bool, opened: _Opened) -> Listing:
    files = _checked_tar(path, gzipped)
    visible = {name: member for name, member in files.items() if not _hidden(PurePosixPath(name))}
    return ({name: member.size for name, member in visible.items()},
            partial(opened.read, path, partial(OpenTar, path, gzipped, visible)))


def _checked_tar(path: Path, gzipped: bool) -> dict[str, TarMember]:
    """A tar's files by normalized path (`./main.tex` is `main.tex`), each member checked as it is listed, so
    that a refused archive is decompressed no further; ValueError (one line) for the first problem."""
    compressed = path.stat().st_size
    count = total = 0
    files: dict[str, TarMember] = {}
    with closing(tar_members(path, gzipped)) as members:
        for member in members:
            count, total = count + 1, total + member.size
            problem = (_count_problem(count) or _total_problem(total) or _member_problem(member)
                       or (_ratio_problem(total, compressed, "gzip") if gzipped else None))
            if problem:
                raise ValueError(problem)
            if not member.folder:
                files[str(PurePosixPath(member.name))] = member
    return files


def _member_problem(member: TarMember) -> str | None:
    if _leaves_folder(member.name):
        return f"member {member.name!r} would be written outside the folder"
    return f"member {member.name!r} {member.refusal}" if member.refusal else None


def _gzipped_file(path: Path) -> Listing:
    """A gzip of one file, named after the archive (see `single_name`); decompressed once here, no further than
    a document may be, to check it."""
    data = gunzip(path, MAX_DOCUMENT_BYTES + 1)
    problem = _ratio_problem(len(data), path.stat().st_size, "gzip")
    if problem:
        raise ValueError(problem)
    # over the limit, it declares the limit: reading it then says "more than", not a size nobody measured
    return {single_name(path.name): min(len(data), MAX_DOCUMENT_BYTES)}, lambda _: gunzip(path, MAX_DOCUMENT_BYTES + 1)


def _count_problem(count: int) -> str | None:
    if count > MAX_ARCHIVE_MEMBERS:
        return f"{count:,} members; an archive is refused above {MAX_ARCHIVE_MEMBERS:,}"
    return None


def _total_problem(total: int) -> str | None:
    if total > MAX_ARCHIVE_BYTES:
        return f"{total:,} bytes uncompressed; an archive is refused above {MAX_ARCHIVE_BYTES:,}"
    return None


def _ratio_problem(total: int, compressed: int, kind: str) -> str | None:
    """The whole archive's ratio: the declared total's to the file's size (for a tar.gz the total only grows as
    members are listed: the first member past the bound refuses it)."""
    ratio = total / max(compressed, 1)
    if total > BOMB_MIN_BYTES and ratio > MAX_COMPRESSION_RATIO:
        return (f"{total:,} bytes from {compressed:,} compressed, {ratio:,.0f}:1; an archive is refused above "
                f"{MAX_COMPRESSION_RATIO}:1 (a {kind} bomb)")
    return None


def _leaves_folder(name: str) -> bool:
    name = name.replace("\\", "/")
    return name.startswith("/") or ".." in PurePosixPath(name).parts or (len(name) > 1 and name[1] == ":")


def decoded(data: bytes, latin1: bool = False) -> str:
    """UTF-8 text (a byte-order mark dropped), or with `latin1` Latin-1 when it is not UTF-8 (old LaTeX
    sources); ValueError for binary data (a NUL byte) or undecodable text."""
    if b"\x00" in data:
        raise ValueError(f"binary data (a NUL byte at {data.index(0)}), not text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if latin1:
            return data.decode("latin-1")
        raise ValueError(f"not UTF-8 (byte {error.start})") from None
