"""Each measured figure lives in one place: the "Current figures" table of docs/measured.md.

What is checked:

1. The table parses: one row per figure, a unique key ``<benchmark>.<name>`` of a known benchmark,
   and a figure that is a number with a unit (x, %, ms, s, min).
2. Every figure of the table is also written in the rest of docs/measured.md (the dated section
   of the run it comes from), so the table is not edited apart from its source.
3. README.md and the other pages of docs/ quote no other figure for a benchmark. A sentence (or
   table row) that names a benchmark by one of its key phrases (``BENCHMARKS``) may state only that
   benchmark's figures from the table: each number with a unit in it, outside code and not an aim
   (after <, >, <=, >=, "aim", "within", "under"), must be one of them. The dated runs kept for the
   record stay in docs/measured.md, which the other pages link to instead of quoting.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEASURED = ROOT / "docs" / "measured.md"
PAGES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p != MEASURED)]
TABLE_HEADING = "## Current figures"

#: The key phrases (lower case) that say a sentence quotes a benchmark's results.
BENCHMARKS = {
    "cv_scoring": ("cv_scoring", "cross-validation", "plain fine-tune", "plain full fine-tune", "per step",
                   "cv accuracy"),
    "live_feedback": ("live_feedback", "round trip", "bare forward", "authors typing"),
    "classroom": ("classroom", "of pauses", "of their pauses"),
    "inference_engines": ("inference_engines", "onnx runtime", "torch float32", "torch dynamic int8"),
    "cold_start": ("cold_start", "cold start", "engine cache"),
}
UNITS = {"x": "x", "×": "x", "%": "%", "ms": "ms", "s": "s", "min": "min", "minutes": "min", "seconds": "s"}
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
# One number, or several sharing a unit ("33.6 / 28.9 ms"), not inside a word, a range ("50-600 ms")
# or an identifier ("p95"); "x" only right after the number ("4.50x", not "1,112 x 0.140 s").
# CODAH's "80%" setting (a training-set size) and 25% chance are not measurements.
FIGURE = re.compile(rf"(?<![\w.\-–/])({NUMBER}(?:\s*(?:/|vs)\s*{NUMBER})*)"
                    rf"(?:(x|×)|\s?(%|minutes|seconds|min|ms|s))(?!\w)(?![\"”]?\s+(?:setting|chance))")
AIM = re.compile(r"(?:<=?|>=?|≤|≥|\baim:?|\bwithin|\bunder|\bchance)\s*$")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
SENTENCE_END = re.compile(r"(?<=;)\s+|(?<=[.!?])\s+(?=[A-Z(\[])")
ROW = re.compile(r"^\|\s*`([a-z_]+)\.([a-z0-9_.]+)`\s*\|\s*([^|]+?)\s*\|", re.M)


def figures(text: str) -> list[tuple[float, str, str]]:
    """Each (value, unit, as written) stated in ``text``, aims and code left out."""
    text = CODE.sub(" ", text).replace("*", "")
    found = []
    for match in FIGURE.finditer(text):
        if AIM.search(text[max(0, match.start() - 12):match.start()]):
            continue
        unit = UNITS[match.group(2) or match.group(3)]
        for number in re.findall(NUMBER, match.group(1)):
            found.append((float(number.replace(",", "")), unit, f"{number} {unit}"))
    return found


def sentences(markdown: str) -> list[str]:
    """Sentences of prose and single table rows; code blocks and headings left out."""
    units, paragraph = [], []
    for line in FENCE.sub("", markdown).splitlines() + [""]:
        stripped = line.strip()
        starts_item = stripped.startswith(("|", "#", "- ", "* ")) or re.match(r"\d+\. ", stripped)
        if paragraph and (not stripped or starts_item):
            units.extend(SENTENCE_END.split(" ".join(paragraph)))
            paragraph = []
        if stripped.startswith("|"):
            units.append(stripped)
        elif stripped and not stripped.startswith("#"):
            paragraph.append(stripped)
    return units


def current_figures() -> tuple[dict[str, set[tuple[float, str]]], dict[str, str], str]:
    """The table's figures by benchmark, each key's figure as written, and the rest of measured.md."""
    text = MEASURED.read_text(encoding="utf-8")
    head, _, after = text.partition(TABLE_HEADING + "\n")
    assert after, f"docs/measured.md has no '{TABLE_HEADING}' section"
    table, _, tail = after.partition("\n## ")
    by_benchmark: dict[str, set[tuple[float, str]]] = {name: set() for name in BENCHMARKS}
    written: dict[str, str] = {}
    for benchmark, name, figure in ROW.findall(table):
        key = f"{benchmark}.{name}"
        assert benchmark in BENCHMARKS, f"{key}: unknown benchmark (known: {sorted(BENCHMARKS)})"
        assert key not in written, f"{key} appears twice"
        parsed = figures(figure)
        assert len(parsed) == 1 and FIGURE.fullmatch(figure.replace("*", "")), f"{key}: {figure!r} is not one figure"
        by_benchmark[benchmark].add(parsed[0][:2])
        written[key] = figure.replace("*", "")
    return by_benchmark, written, head + tail


def quotes_that_differ(markdown: str, table: dict[str, set[tuple[float, str]]]) -> list[str]:
    """The figures ``markdown`` states for a benchmark that the table does not hold, with their sentence."""
    wrong = []
    for sentence in sentences(markdown):
        lowered = sentence.lower()
        named = [name for name, phrases in BENCHMARKS.items() if any(p in lowered for p in phrases)]
        allowed = set().union(*(table[name] for name in named)) if named else set()
        wrong += [f"{written} ({', '.join(named)}): {sentence[:160]}"
                  for value, unit, written in (figures(sentence) if named else []) if (value, unit) not in allowed]
    return wrong


def test_the_table_parses_and_covers_every_benchmark():
    table, written, _ = current_figures()
    assert all(table.values()), f"benchmarks without a figure: {[n for n, f in table.items() if not f]}"
    assert {"cv_scoring.speedup", "live_feedback.ratio_p50", "classroom.local_pause_p95_ms"} <= set(written)


def test_each_figure_is_in_its_dated_section():
    _, written, rest = current_figures()
    missing = [f"{key} = {figure}" for key, figure in written.items()
               if not re.search(rf"(?<![\d.]){re.escape(figure.split()[0].rstrip('x%'))}(?![\d])", rest.replace("*", ""))]
    assert not missing, f"figures of the table not found in the rest of docs/measured.md: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_quote_only_the_current_figures(page: Path):
    table, _, _ = current_figures()
    wrong = quotes_that_differ(page.read_text(encoding="utf-8"), table)
    assert not wrong, (f"{page.relative_to(ROOT)} quotes figures that are not in the table of docs/measured.md "
                       f"(update the page, or the table and its section, or link instead):\n" + "\n".join(wrong))


def test_a_superseded_run_quoted_in_prose_is_caught():
    """The 2026-11-25 figures docs/index.md used to show, beside the README's current ones."""
    table, _, _ = current_figures()
    stale = ("The default cross-validation settings train 3.1x faster per step than a plain fine-tune with "
             "fold-0 accuracy 59.1% vs 56.9%; a live prediction round trip is 49 ms against a 36 ms bare "
             "forward pass; a classroom of 50 authors saw the model's answer in 100% of their pauses (p95 316 ms).")
    assert [line.split(" (")[0] for line in quotes_that_differ(stale, table)] == [
        "3.1 x", "59.1 %", "49 ms", "36 ms"]
    # Aims, code, CODAH's "80%" setting, chance and numbers without a unit are not quotes.
    assert quotes_that_differ('Cross-validation (the "80%" setting, 5 folds, `--seconds 120`): aim >= 3x, '
                              "within 3 points, under 20 min, against 25% chance (chance 25%); "
                              "1,112 x 0.140 s per step.", table) == []
