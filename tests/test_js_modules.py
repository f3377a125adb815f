"""The pages' JavaScript modules: files under 400 lines (as the Python, whether or not ESLint runs),
relative imports that resolve in the development and the production static set-up, and unit tests
that are never served.

A page loads one entry module (``<script type="module">``); the browser resolves its relative
imports against the entry's URL. Under ``collectstatic`` the entry is served under a content-hashed
name in the same folder, so each import must be found next to it, under its plain name.
"""
import json
import re
from pathlib import Path

from tests.test_security_production import collected_environment, python

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
MAX_LINES = 400  # STYLE.md §14, the Python's limit (tests/test_architecture.py)
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""", re.M)


def _our_js() -> list[Path]:
    return sorted([*JS.rglob("*.js"), *(ROOT / "tests" / "js").rglob("*.js")])


def _relative_imports(path: Path) -> list[str]:
    found = [a or b for a, b in IMPORT.findall(path.read_text(encoding="utf-8"))]
    return [spec for spec in found if spec.startswith(".")]


def test_no_javascript_file_over_400_lines():
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in _our_js()}
    assert len(sizes) > 20, "the walk found too few files to mean anything"
    too_long = sorted(f"{path.relative_to(ROOT)}: {lines} lines" for path, lines in sizes.items() if lines > MAX_LINES)
    assert not too_long, "\n".join(too_long)


def test_the_import_pattern_finds_the_imports_of_a_page():
    imports = _relative_imports(JS / "annotation.js")
    assert "./lib/api.js" in imports and "./annotate/question_list.js" in imports


def test_every_relative_import_of_a_module_resolves_to_a_file_of_static_js():
    unresolved = []
    for path in JS.rglob("*.js"):
        for spec in _relative_imports(path):
            target = (path.parent / spec).resolve()
            if not target.is_file() or JS.resolve() not in target.parents:
                unresolved.append(f"{path.relative_to(ROOT)}: {spec}")
    assert not unresolved, "\n".join(unresolved)


def test_the_javascript_unit_tests_are_not_served():
    assert list((ROOT / "tests" / "js").glob("*.test.js")), "the unit tests moved: update scripts/test.sh"
    assert not list((ROOT / "static").rglob("*.test.js"))


def test_the_modules_of_the_pages_resolve_from_the_hashed_entry_in_production(tmp_path):
    """Every module the annotation and authoring pages import, transitively, is served with status 200
    at the URL the browser computes from the hashed entry's URL."""
    env = collected_environment(tmp_path)
    code = """
import django, json, re, posixpath
django.setup()
from django.templatetags.static import static
from django.test import Client
client = Client()
pattern = re.compile(r'''^\\s*(?:import|export)\\b[^"';]*?\\bfrom\\s*["'](\\.[^"']+)["']''', re.M)
seen, statuses, entries = set(), {}, []
for entry in ("js/annotation.js", "js/annotation_review.js", "js/author.js"):
    url = static(entry)
    entries.append(url)
    todo = [url]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, secure=True, HTTP_HOST="localhost")
        statuses[url] = response.status_code
        if response.status_code == 200:
            body = b"".join(response.streaming_content if response.streaming else [response.content]).decode()
            todo += [posixpath.normpath(posixpath.join(posixpath.dirname(url), spec)) for spec in pattern.findall(body)]
print(json.dumps({"entries": entries, "statuses": statuses}))
"""
    result = python(env, code)
    assert result.returncode == 0, result.stderr
    served = json.loads(result.stdout.strip().splitlines()[-1])
    assert served["entries"][0].startswith("/static/js/annotation.") and served["entries"][0] != "/static/js/annotation.js"
    assert "/static/js/annotate/question_list.js" in served["statuses"]
    assert "/static/js/paragraph/offsets.js" in served["statuses"]
    missing = {url: status for url, status in served["statuses"].items() if status != 200}
    assert not missing, missing
