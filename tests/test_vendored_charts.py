"""The vendored chart libraries are the versions pinned in package.json and package-lock.json."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARIES = {"vega": "vega.min.js", "vega-lite": "vega-lite.min.js", "vega-embed": "vega-embed.min.js"}


def test_vendored_files_match_the_lock_file():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    vendored = json.loads((ROOT / "static/vendor/VERSIONS.json").read_text())
    for name, build in LIBRARIES.items():
        assert pinned[name] == locked[f"node_modules/{name}"]["version"] == vendored[name], name  # exact pins
        assert (ROOT / "static/vendor" / name / "LICENSE").read_text().strip()
        text = (ROOT / "static/vendor" / name / build).read_text()
        assert "sourceMappingURL" not in text and "http://" not in text[:200]


def test_pages_load_the_libraries_from_the_app():
    scripts = (ROOT / "templates/includes/chart_scripts.html").read_text()
    assert scripts.count("{% static 'vendor/") == 3 and "https://" not in scripts


def test_the_charts_run_vegas_csp_safe_expression_interpreter():
    # The Content-Security-Policy has no 'unsafe-eval': charts.js asks vega-embed for the
    # interpreter (ast: true), which the vendored vega-embed build carries (tests/test_e2e_csp.py draws them).
    locked = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    assert "vega-interpreter" in locked["node_modules/vega-embed"]["dependencies"]
    assert "expressionInterpreter" in (ROOT / "static/vendor/vega-embed/vega-embed.min.js").read_text()
    assert "\n  ast: true,\n" in (ROOT / "static/js/charts.js").read_text()
