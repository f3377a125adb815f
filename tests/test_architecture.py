"""The house plan holds: no module import cycle, no app importing another app's private names, no
Python file over 400 lines.

The layers themselves are checked by ``lint-imports`` (``.importlinter``), which the test command
runs before pytest. These tests build the same import graph with grimp (installed with
import-linter); grimp sees every import, function-level ones included, so a cycle hidden behind an
import inside a function still counts. See docs/architecture.md.
"""
import ast
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("mlcore", "core", "accounts", "courses", "modelhub", "collector", "annotation", "evaluation", "lti", "inbox", "config")

# Cycles that exist today and are being taken apart (issue 15). Remove an entry when it is fixed;
# a cycle not listed here fails the test.
KNOWN_CYCLES: set[frozenset[str]] = set()


def _present_packages() -> list[str]:
    return [name for name in PACKAGES if (ROOT / name / "__init__.py").exists()]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*_present_packages(), include_external_packages=False, cache_dir=None)


def strongly_connected(nodes: list[str], edges: dict[str, list[str]]) -> list[frozenset[str]]:
    """Tarjan's algorithm (iterative): the groups of two or more modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(frozenset(group))
    return groups


def test_strongly_connected_finds_a_cycle_and_ignores_a_chain():
    edges = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"], "e": []}
    assert strongly_connected(list(edges), edges) == [frozenset({"a", "b", "c"})]


def test_no_module_import_cycle(graph: grimp.ImportGraph):
    modules = sorted(graph.modules)
    edges = {name: sorted(graph.find_modules_directly_imported_by(name)) for name in modules}
    new = [sorted(group) for group in strongly_connected(modules, edges) if group not in KNOWN_CYCLES]
    assert not new, f"modules import each other (directly or through others): {new}"


def _private_imports(path: Path) -> Iterator[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield node.module, alias.name


def test_no_app_imports_another_apps_private_names():
    offences = []
    for package in _present_packages():
        for path in (ROOT / package).rglob("*.py"):
            for module, name in _private_imports(path):
                if module.split(".")[0] != package:
                    offences.append(f"{path.relative_to(ROOT)}: from {module} import {name}")
    assert not offences, "\n".join(offences)


MAX_LINES = 400  # STYLE.md: a module that grows past this becomes a package of files by concern
NOT_OURS = {".venv", "node_modules", "var", "site", "staticfiles", "media", ".git"}


def _our_python_files() -> Iterator[Path]:
    for top in ROOT.iterdir():
        if top.name in NOT_OURS or top.name.startswith("."):
            continue
        yield from ([top] if top.suffix == ".py" else top.rglob("*.py") if top.is_dir() else [])


def test_no_python_file_over_400_lines():
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in _our_python_files()}
    assert len(sizes) > 300, "the walk found too few files to mean anything"
    too_long = sorted(f"{path.relative_to(ROOT)}: {lines} lines" for path, lines in sizes.items() if lines > MAX_LINES)
    assert not too_long, "\n".join(too_long)
