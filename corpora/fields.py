"""A line's fields: TAB-separated with CSV quoting (the ARQMath organisers' TSVs), or whitespace-separated (TREC).

`visual_id_file.tsv`, `formulas_slt_string.tsv`, the formula TSVs and the MathML files were written with
Python's `csv` module, so a LaTeX field such as `f"(0)` is stored as `"f""(0)"`; splitting on TAB alone
would keep the quotes and hand the parsers a formula nobody wrote.
"""
from __future__ import annotations

import csv


def tsv_fields(line: str) -> list[str]:
    """The fields of one line (without its line ending); ValueError when the quoting is broken."""
    try:
        return next(csv.reader([line], delimiter="\t", quotechar='"', strict=True))
    except csv.Error as error:
        raise ValueError(f"bad CSV quoting: {error}") from None


def tsv_columns(line: str, count: int) -> list[str]:
    """Exactly `count` TSV fields, or ValueError saying how many there are."""
    columns = tsv_fields(line)
    if len(columns) != count:
        raise ValueError(f"expected {count} tab-separated columns, found {len(columns)}")
    return columns


def whitespace_fields(line: str, count: int, names: str) -> list[str]:
    """Exactly `count` fields separated by TABs or spaces (TREC files use either), `names` saying which."""
    parts = line.split()
    if len(parts) != count:
        raise ValueError(f"expected {count} fields ({names}), found {len(parts)}")
    return parts
