"""The three framework-free libraries depend only on those before them (mathparse ← corpora ← ml), never on Django or
the app. Each module's source is parsed, not imported, so every import counts: one inside a function too, and an
`importlib.import_module("…")` of a literal name."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from tests.conftest import REPO

LIBRARIES = ("mathparse", "corpora", "ml")
"""In order: each may import only those before it."""
APP = ("django", "searchapp", "mathsearch")


def imported_names(source: str) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every absolute import in `source`; a relative one stays inside its package."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and _names_import_module(node.func) and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            yield node.lineno, node.args[0].value


def _names_import_module(function: ast.expr) -> bool:
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name in ("import_module", "__import__")


def forbidden(library: str, module: str) -> bool:
    top = module.partition(".")[0]
    later = LIBRARIES[LIBRARIES.index(library) + 1:]
    return top in later or top in APP or top.startswith("django_")


def violations(library: str, name: str, source: str) -> list[str]:
    return [f"{name}:{line} imports {module}" for line, module in sorted(imported_names(source))
            if forbidden(library, module)]


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_library_imports_only_the_libraries_before_it(library):
    modules = sorted((REPO / library).rglob("*.py"))
    assert REPO / library / "__init__.py" in modules
    found = [found for path in modules
             for found in violations(library, str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))]
    assert found == []


def test_a_lazy_import_of_a_later_library_or_of_django_is_named():
    source = ("import importlib\nimport os\nfrom mathparse import parse\n\n\ndef load():\n"
              "    from ml.embed import load_model\n    import django.conf\n"
              "    return importlib.import_module('searchapp.models')\n")
    assert violations("corpora", "corpora/bad.py", source) == [
        "corpora/bad.py:7 imports ml.embed", "corpora/bad.py:8 imports django.conf",
        "corpora/bad.py:9 imports searchapp.models"]
    assert violations("ml", "ml/good.py", source) == ["ml/good.py:8 imports django.conf",
                                                      "ml/good.py:9 imports searchapp.models"]


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(REPO).with_suffix("").parts)
    return name.removesuffix(".__init__")


def test_the_libraries_modules_import_one_another_without_a_cycle():
    """`../shared/tools/import_cycles.py` reads `mathsearch`, `searchapp` and `ml` only: the two libraries split
    out of `ml` are checked here, with every import (lazy ones too) to the module it names or its package."""
    paths = {module_name(path): path for library in LIBRARIES for path in (REPO / library).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        for _, imported in imported_names(path.read_text(encoding="utf-8")):
            target = imported
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                graph.setdefault(module, set()).add(target)
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        pytest.fail(f"import cycle: {' -> '.join(error.args[1])}")
