"""Every ``Examples`` section of mlcore runs, and shows what the code really returns.

The numpydoc examples are doctests. Each module's run here with :mod:`doctest` (``ELLIPSIS`` on,
as in pytest's doctest runner), so an example whose output changed, or one that does not even
parse, fails the suite; and an example the doctest finder cannot see (a docstring on something
that is not a plain function or class, e.g. a compiled one) fails too, instead of never running.
``# doctest: +SKIP`` is only for an example that needs a model or data the repository does not
have, with the reason on the same line.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import textwrap
import types
from pathlib import Path

import pytest

import mlcore

PACKAGE = Path(mlcore.__file__).parent


def module_names() -> list[str]:
    """Every module of the mlcore package except its tests."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if "tests" not in parts:
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def run_examples(module: types.ModuleType) -> tuple[int, str]:
    """Run the docstring examples of ``module``: (examples tried, report of the failures or "")."""
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module):  # raises ValueError on an example that does not parse
        runner.run(test, out=report.append)
    return runner.tries, "".join(report)


def names_with_examples(source: str, module_name: str) -> set[str]:
    """Qualified names of the module, classes and functions of ``source`` whose docstring has ``>>>``."""
    tree = ast.parse(source)
    found = {module_name} if ">>>" in (ast.get_docstring(tree, clean=False) or "") else set()
    todo: list[tuple[ast.AST, str]] = [(tree, module_name)]
    while todo:
        node, prefix = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}.{child.name}"
                if ">>>" in (ast.get_docstring(child, clean=False) or ""):
                    found.add(name)
                todo.append((child, name))
    return found


MODULES = module_names()


@pytest.mark.parametrize("name", MODULES)
def test_examples_show_what_the_code_returns(name):
    _, report = run_examples(importlib.import_module(name))
    if report:
        pytest.fail(report, pytrace=False)


@pytest.mark.parametrize("name", MODULES)
def test_every_example_is_one_doctest_runs(name):
    module = importlib.import_module(name)
    written = names_with_examples(Path(module.__file__).read_text(encoding="utf-8"), name)
    run = {test.name for test in doctest.DocTestFinder().find(module) if test.examples}
    assert written <= run, f"examples doctest never runs: {sorted(written - run)}"


def test_the_package_has_examples_to_run():
    assert len(MODULES) > 50 and "mlcore.bias.ambiguity_data" in MODULES and "mlcore.tests" not in " ".join(MODULES)
    tried = sum(run_examples(importlib.import_module(name))[0] for name in ("mlcore.stats.agreement", "mlcore.threads"))
    assert tried > 5


def _module(source: str) -> types.ModuleType:
    module = types.ModuleType("broken_examples")
    exec(textwrap.dedent(source), module.__dict__)
    return module


def test_a_wrong_output_is_reported():
    module = _module('''
        def double(x):
            """
            >>> double(2)
            5
            """
            return 2 * x
    ''')
    tried, report = run_examples(module)
    assert tried == 1 and "Expected:\n    5\nGot:\n    4" in report


def test_an_example_that_does_not_parse_fails():
    # A \n escape in a docstring that is not raw is a real line break: the call splits over two lines.
    module = _module('''
        def parse(text):
            """
            >>> parse('{"id": 7}\\n{"id": 8}')
            2
            """
            return len(text.splitlines())
    ''')
    with pytest.raises(ValueError, match="inconsistent leading whitespace"):
        run_examples(module)


def test_an_example_doctest_cannot_see_is_found():
    # A wrapper object (as numba's compiled functions are) is neither a function nor a class.
    source = textwrap.dedent('''
        class Compiled:
            def __init__(self, function):
                self.function, self.__doc__ = function, function.__doc__

            def __call__(self, *args):
                return self.function(*args)

        def plain():
            """
            >>> plain()
            1
            """
            return 1

        @Compiled
        def fast():
            """
            >>> fast()
            2
            """
            return 2
    ''')
    module = _module(source)
    written = names_with_examples(source, module.__name__)
    run = {test.name for test in doctest.DocTestFinder().find(module) if test.examples}
    assert written == {"broken_examples.plain", "broken_examples.fast"}
    assert written - run == {"broken_examples.fast"}
