"""arXiv's source formats: a tar archive, gzipped (`.tar.gz`, `.tgz`) or not (`.tar`), and a gzipped single file
(arXiv serves a one-file paper as a gzip with no tar inside, whatever its name says, so the content decides).

A tar has no directory: its members are listed in one streaming pass, each handed to the caller as it comes so
that a refused archive is decompressed no further, with the offset of its data so that reading it later seeks
there. The pass reads no more than HEADER_BYTES past the end of the last member's data, so a header lying about
the size of what follows it (a pax header, a long name) cannot make it decompress or hold more.
"""
from __future__ import annotations

import gzip
import io
import tarfile
import tempfile
import zlib
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

GZIP_MAGIC = b"\x1f\x8b"
HEADER_BYTES = 65_536
"""The most a tar is read past the last listed member's data to reach the next one: its header, a pax or long-name
header before it, and tarfile's read-ahead (10,240 bytes). Real ones take a few kilobytes."""
SPOOL_MEMORY_BYTES = 16_000_000
"""A .tar.gz decompressed for reading is held in memory up to this size, in a temporary file beyond it."""
CORRUPT = (OSError, EOFError, zlib.error, tarfile.TarError)
"""What a damaged gzip or tar raises (gzip.BadGzipFile is an OSError)."""
_REFUSED_TYPES = {
    tarfile.SYMTYPE: "is a symbolic link (to {link!r}); links are refused",
    tarfile.LNKTYPE: "is a hard link (to {link!r}); links are refused",
    tarfile.CHRTYPE: "is a character device; devices are refused",
    tarfile.BLKTYPE: "is a block device; devices are refused",
    tarfile.FIFOTYPE: "is a FIFO; FIFOs are refused",
}


@dataclass(frozen=True)
class TarMember:
    """A member as its header declares it: its name, size, the offset of its data in the (decompressed) tar,
    whether it is a folder, and why it is refused (a link, a device, …), completing "member 'name' …", or None."""

    name: str
    size: int
    offset: int
    folder: bool = False
    refusal: str | None = None


def is_gzip(path: Path) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC


def gzip_holds_tar(path: Path) -> bool:
    """Whether a gzip's content starts with a tar header (a checksum that holds, or an empty archive's zero
    block); ValueError for a damaged gzip."""
    block = gunzip(path, tarfile.BLOCKSIZE)
    if block == bytes(tarfile.BLOCKSIZE):
        return True
    try:
        tarfile.TarInfo.frombuf(block, tarfile.ENCODING, "surrogateescape")
    except tarfile.HeaderError:
        return False
    return True


def gunzip(path: Path, limit: int) -> bytes:
    """At most `limit` bytes of a gzip's content, decompressing no more; ValueError for a damaged gzip."""
    try:
        with gzip.open(path, "rb") as content:
            return content.read(limit)
    except CORRUPT as error:
        raise ValueError(f"not a readable gzip archive ({error})") from None


def single_name(archive_name: str) -> str:
    """The name of a gzipped single file: the archive's without `.gz` (`.tgz`, `.tar.gz`), keeping a suffix of
    letters (`notes.md.gz` → `notes.md`) and otherwise ending in `.tex` (`2101.00001v2.gz` → `2101.00001v2.tex`),
    since arXiv names a one-file paper after its identifier."""
    lowered = archive_name.lower()
    stem = next((archive_name[:-len(suffix)] for suffix in (".tar.gz", ".tgz", ".gz", ".tar")
                 if lowered.endswith(suffix)), archive_name) or "paper"
    return stem if PurePosixPath(stem).suffix[1:].isalpha() else f"{stem}.tex"


def tar_members(path: Path, gzipped: bool) -> Generator[TarMember, None, None]:
    """Each member of a tar (gzipped or not) in archive order, read as the caller asks for the next, so that it
    stops decompressing where the caller stops; ValueError for a damaged archive or a lying header."""
    with open(path, "rb") as raw:
        stream = _Bounded(gzip.GzipFile(fileobj=raw, mode="rb") if gzipped else raw)
        try:
            with tarfile.open(fileobj=stream, mode="r|") as tar:
                for info in tar:
                    yield _member(info)
                    stream.limit = info.offset_data + _padded(info.size) + HEADER_BYTES
        except CORRUPT as error:
            kind = "gzip" if gzipped and not isinstance(error, tarfile.TarError) else "tar"
            raise ValueError(f"not a readable {kind} archive ({error})") from None


class OpenTar:
    """A listed tar's files read by offset: from the archive itself, or for a .tar.gz from one decompressed copy
    up to the end of its last file (gzip has no random access: seeking back would decompress it again)."""

    def __init__(self, path: Path, gzipped: bool, files: dict[str, TarMember]) -> None:
        self._files = files
        end = max((member.offset + member.size for member in files.values()), default=0)
        self._data = _decompressed(path, end) if gzipped else open(path, "rb")

    def read(self, name: str) -> bytes:
        member = self._files[name]
        self._data.seek(member.offset)
        data = self._data.read(member.size)
        if len(data) < member.size:
            raise ValueError(f"the archive ends {len(data):,} bytes into this file of {member.size:,}")
        return data

    def close(self) -> None:
        self._data.close()


def _member(info: tarfile.TarInfo) -> TarMember:
    template = _REFUSED_TYPES.get(info.type)
    if template is not None:
        refusal = template.format(link=info.linkname)
    elif info.issparse():  # its data is a map of holes, not the file
        refusal = "is a sparse file; sparse files are refused"
    elif not info.isreg() and not info.isdir():
        refusal = f"is of tar type {info.type.decode(errors='replace')!r}; only files and folders are read"
    else:
        refusal = None
    return TarMember(info.name, info.size, info.offset_data, info.isdir(), refusal)


def _padded(size: int) -> int:
    return -(-size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE


def _decompressed(path: Path, end: int) -> IO[bytes]:
    copy = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY_BYTES)
    try:
        with gzip.open(path, "rb") as content:
            while copy.tell() < end:
                chunk = content.read(min(end - copy.tell(), 1 << 20))
                if not chunk:
                    break
                copy.write(chunk)
    except CORRUPT as error:
        copy.close()
        raise ValueError(f"not a readable gzip archive ({error})") from None
    return copy


class _Bounded(io.BufferedIOBase):
    """A stream that refuses to be read past `limit` (which the lister moves on after each member it accepts)."""

    def __init__(self, stream: io.BufferedIOBase) -> None:
        super().__init__()
        self._stream, self.limit, self._position = stream, HEADER_BYTES, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        allowed = self.limit - self._position + 1  # one byte more than allowed, to tell a stream that goes on
        data = self._stream.read(allowed if size is None or size < 0 else min(size, allowed))
        self._position += len(data)
        if self._position > self.limit:
            raise ValueError(f"more than {HEADER_BYTES:,} bytes of headers before a member's data (a header lying "
                             "about its size)")
        return data
