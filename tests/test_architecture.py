"""The house plan holds: no module import cycle, no app importing another app's private names, no
Python file over 400 lines, and the layers hold in templates and URL names too.

The layers themselves are checked by ``lint-imports`` (``.importlinter``), which the test command
runs before pytest. These tests build the same import graph with grimp (installed with
import-linter); grimp sees every import, function-level ones included, so a cycle hidden behind an
import inside a function still counts. See docs/architecture.md.
"""
import ast
import configparser
import re
from collections.abc import Iterable, Iterator
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


# Layers where import-linter cannot see them (STYLE.md rule 11): a template names only templates, tag
# libraries and URL names of its own app or of a layer below, a Python module only URL names of those, and
# every URL name lives in the namespace of the app that serves it. A lower page shows a higher app's part
# through core.registry (docs/architecture.md). Entries "path: [kind] name -> owner" would be allowed; keep it empty.
LAYER_EXCEPTIONS: set[str] = set()
TEMPLATE_TAG = re.compile(r"{%\s*(load|url|include|extends)\s+(.*?)\s*%}", re.S)
QUOTED = re.compile(r"""^(['"])(.+?)\1""")


def layer_ranks() -> dict[str, int]:
    """Each app's layer in ``.importlinter`` (0 the lowest); apps of one layer are independent of each other."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    lines = [line.strip() for line in config["importlinter:contract:layers"]["layers"].splitlines() if line.strip()]
    return {name.strip().strip("()"): rank for rank, line in enumerate(reversed(lines)) for name in line.split("|")}


RANKS = layer_ranks()


def may_name(source: str, target: str | None) -> bool:
    """``source`` may name ``target``'s templates and URLs: its own, or a lower layer's (None: not ours)."""
    return target is None or target == source or RANKS[target] < RANKS[source]


def owner_of_module(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in RANKS else None


def url_names() -> dict[str, tuple[str | None, str | None]]:
    """Every URL name -> (the app serving it, the app whose URL module declares its namespace)."""
    from django.urls import URLResolver, get_resolver

    names = {}

    def walk(patterns, namespaces: tuple[str, ...], declared_by: str | None) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                module = getattr(pattern.urlconf_module, "__name__", None)
                inner = (*namespaces, pattern.namespace) if pattern.namespace else namespaces
                walk(pattern.url_patterns, inner, owner_of_module(module) if pattern.namespace and module else declared_by)
            elif pattern.name:
                view = pattern.callback
                view = getattr(view, "view_class", None) or getattr(view, "cls", None) or view
                names[":".join((*namespaces, pattern.name))] = (owner_of_module(view.__module__), declared_by)

    walk(get_resolver().url_patterns, (), None)
    return names


def template_owner(name: str) -> str | None:
    """The app whose ``templates/`` holds ``name``; the project's ``templates/`` (the page frame, shared
    includes) is core's; None: a library's."""
    for app in RANKS:
        if (ROOT / app / "templates" / name).exists():
            return app
    return "core" if (ROOT / "templates" / name).exists() else None


def template_references(text: str) -> Iterator[tuple[str, str]]:
    """``(kind, name)`` of each ``{% load %}`` library and literal ``{% url %}``, ``{% include %}`` and
    ``{% extends %}`` target in a template."""
    for kind, argument in TEMPLATE_TAG.findall(text):
        if kind == "load":
            words = argument.split()
            yield from ((kind, word) for word in (words[-1:] if "from" in words else words))  # names from lib
        elif quoted := QUOTED.match(argument):
            yield kind, quoted.group(2)


def test_template_references_are_found():
    text = """{% extends "base.html" %}{% load static core_registry %}{% url 'a:b' x as y %}
    {% include "x/_y.html" with a=b %}{% include template_name %}{% load one from lib %}"""
    assert list(template_references(text)) == [
        ("extends", "base.html"), ("load", "static"), ("load", "core_registry"), ("url", "a:b"),
        ("include", "x/_y.html"), ("load", "lib")]


def our_templates() -> Iterator[tuple[str, Path]]:
    for app in RANKS:
        yield from ((app, path) for path in sorted((ROOT / app / "templates").rglob("*.html")))
    yield from (("core", path) for path in sorted((ROOT / "templates").rglob("*.html")))


@pytest.mark.django_db
def test_templates_name_only_their_layer_or_below():
    from django.template import engines

    libraries = engines["django"].engine.libraries
    names = url_names()
    offences, seen = [], 0
    for app, path in our_templates():
        seen += 1
        for kind, target in template_references(path.read_text(encoding="utf-8")):
            if kind == "load":
                owner = owner_of_module(libraries[target]) if target in libraries else None
            elif kind == "url":
                assert target in names, f"{path.relative_to(ROOT)}: no URL is named {target}"
                owner = names[target][0]
            else:
                owner = template_owner(target)
            offence = f"{path.relative_to(ROOT)}: {kind} {target} -> {owner}"
            if not may_name(app, owner) and offence not in LAYER_EXCEPTIONS:
                offences.append(offence)
    assert seen > 60, "the walk found too few templates to mean anything"
    assert not offences, "\n".join(offences)


def python_url_targets(tree: ast.AST, names: Iterable[str]) -> Iterator[tuple[int, str]]:
    """``(line, name)`` of each URL name in a module: the first argument of ``reverse``, ``reverse_lazy`` and
    ``redirect``, and any string that is exactly a namespaced name (``Link``, ``pattern_name``, settings)."""
    namespaced = {name for name in names if ":" in name}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in namespaced:
            yield node.lineno, node.value
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            target = node.args[0].value
            if function in ("reverse", "reverse_lazy", "redirect") and target in names and target not in namespaced:
                yield node.lineno, target  # a namespaced one is found above


def test_python_url_targets_are_found():
    tree = ast.parse('reverse("home")\nredirect("a:b", 1)\nLink("x", "a:c")\n"""a:b is in a docstring"""\nf("home")')
    assert sorted(python_url_targets(tree, ["home", "a:b", "a:c"])) == [(1, "home"), (2, "a:b"), (3, "a:c")]


@pytest.mark.django_db
def test_python_names_only_urls_of_its_layer_or_below():
    names = url_names()
    offences = []
    for app in _present_packages():
        for path in sorted((ROOT / app).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for line, name in python_url_targets(tree, names):
                offence = f"{path.relative_to(ROOT)}: {name} -> {names[name][0]}"
                if not may_name(app, names[name][0]) and offence not in LAYER_EXCEPTIONS:
                    offences.append(f"{offence} (line {line})")
    assert not offences, "\n".join(offences)


@pytest.mark.django_db
def test_every_url_name_is_in_the_namespace_of_the_app_that_serves_it():
    names = url_names()
    assert len(names) > 150, "the walk found too few URL names to mean anything"
    strays = [f"{name} is served by {served_by}, in {declared_by}'s namespace"
              for name, (served_by, declared_by) in names.items()
              if ":" in name and served_by and declared_by and served_by != declared_by]
    assert not strays, "\n".join(strays)
