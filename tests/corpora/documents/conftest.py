import gzip
import io
import re
import tarfile
import zipfile

import pytest

from corpora.documents import document_records
from corpora.documents.latex_expansion import expand
from corpora.documents.latex_includes import MissingInclude
from corpora.records import IndexRecord, RecordError


@pytest.fixture
def upload(tmp_path):
    """Writes {relative path: text or bytes} into a folder (or, with zip=True, a zip archive) and returns its path."""
    def writer(files: dict, zip: bool = False, name: str = "upload"):
        if zip:
            path = tmp_path / f"{name}.zip"
            with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
                for relative, content in files.items():
                    archive.writestr(relative, content)
            return path
        folder = tmp_path / name
        for relative, content in files.items():
            file = folder / relative
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(content if isinstance(content, bytes) else content.encode())
        return folder
    return writer


def tar_bytes(members: dict, gzipped: bool = False) -> bytes:
    """A tar archive (gzipped with `gzipped`) of {member name: text, bytes, or a `tarfile.TarInfo` for a member
    without data: a folder, a link, a device}."""
    written = io.BytesIO()
    with tarfile.open(fileobj=written, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, content in members.items():
            if isinstance(content, tarfile.TarInfo):
                content.name = name
                archive.addfile(content)
                continue
            data = content if isinstance(content, bytes) else content.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return gzip.compress(written.getvalue()) if gzipped else written.getvalue()


def posts(path) -> list[IndexRecord]:
    return [item for item in document_records(path) if isinstance(item, IndexRecord)]


def errors(path) -> list[str]:
    return [item.message for item in document_records(path) if isinstance(item, RecordError)]


def problems(path) -> list[tuple[str, str | None, int | None]]:
    """(kind, file, line in the file) of each problem of an upload's documents, in order."""
    return [(item.kind, item.file, item.file_line) for item in document_records(path) if isinstance(item, RecordError)]


def formulas(path) -> list[str]:
    return [formula.text for record in posts(path) for formula in record.formulas]


def no_files(command, name, including):
    """A resolver of an upload of one file: every package is a system package, every other include is missing."""
    if command == "usepackage":
        raise LookupError(name)
    raise MissingInclude("no such file in the upload")


def resolver(files: dict[str, str]):
    """A resolver over {path: text}: `\\input{a}` finds a.tex, `\\usepackage{p}` finds p.sty."""
    def resolve(command, name, including):
        for path in (name, f"{name}.sty" if command == "usepackage" else f"{name}.tex"):
            if path in files:
                return path, files[path]
        return no_files(command, name, including)
    return resolve


def expanded(text: str, **files: str) -> str:
    """The text of main.tex, with `files` to include, expanded, its white space made single spaces."""
    return " ".join(expand(text, "main.tex", resolver(files)).text.split())


def dollar_formulas(text: str) -> list[str]:
    """What an expanded text holds between `$`s."""
    return re.findall(r"\$([^$]*)\$", text)
