"""Every environment variable the settings read is documented in docker/env.example and in the
table of docs/configuration.md.

The variables are found by parsing config/settings/*.py for ``env(...)``/``env.<cast>(...)`` calls
with a literal name (django-environ), so a new setting fails here until it is documented in both.
"""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = sorted((ROOT / "config" / "settings").glob("*.py"))


def variables_read_by_settings() -> dict[str, str]:
    """``{variable: settings file}`` for every ``env("NAME", ...)`` or ``env.<cast>("NAME", ...)`` call."""
    found = {}
    for path in SETTINGS:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            is_env = (isinstance(func, ast.Name) and func.id == "env") or (
                isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "env")
            name = node.args[0]
            if is_env and isinstance(name, ast.Constant) and isinstance(name.value, str):
                found.setdefault(name.value, path.name)
    return found


def variables_in_env_example() -> set[str]:
    """``KEY=`` lines of docker/env.example, active or commented out (``# KEY=default``)."""
    text = (ROOT / "docker" / "env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def variables_in_configuration_table() -> set[str]:
    """Backticked names in the first column of the table in docs/configuration.md."""
    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    names = set()
    for line in text.splitlines():
        if line.startswith("| `"):
            names.update(re.findall(r"`([A-Z][A-Z0-9_]*)`", line.split("|")[1]))
    return names


def test_the_parser_finds_the_settings_variables():
    found = variables_read_by_settings()
    # One of each kind of call: plain cast, list, db URL, and a variable only production.py reads.
    assert {"SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "SECURE_HSTS_SECONDS", "STUMPER_AMBIGUITY_QUESTIONS"} <= set(found)


def test_every_variable_the_settings_read_is_in_env_example():
    missing = {name: where for name, where in variables_read_by_settings().items()
               if name not in variables_in_env_example()}
    assert not missing, f"Document these in docker/env.example (a commented '# NAME=default' line with a comment): {missing}"


def test_every_variable_the_settings_read_is_in_the_configuration_table():
    missing = {name: where for name, where in variables_read_by_settings().items()
               if name not in variables_in_configuration_table()}
    assert not missing, f"Add these to the table in docs/configuration.md: {missing}"
