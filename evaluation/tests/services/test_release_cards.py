"""Every figure a dataset card states, rebuilt from the release's Parquet files with the real ``datasets``
library: row counts per split, categories (uncategorised rows included), authors, where the rows come
from, the statuses included, validation, fooling rates, models, dates, license and ``source_datasets``.

Three kinds of release: an imported CODAH round (``../shared/data/codah``), a round written and
validated in Stumper (alone and with imported rows beside it), imported SQuAD 2.0 / PQuAD projects.
"""
import json
import re
from collections import Counter
from datetime import datetime
from io import StringIO

import datasets
import pytest
from django.core.management import call_command
from django.urls import reverse
from huggingface_hub import DatasetCard

from annotation.services.imports import squad_import
from annotation.tests.factories import make_project
from collector.models import Round
from collector.services.imports import codah_import
from collector.services.rounds import round_create
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_export, release_options_clean
from mlcore.configs import CATEGORIES
from mlcore.tests.shared_data import shared_data

pytestmark = pytest.mark.django_db

MC_FIELDS = "predictions,fooled_live,agreement"
# datasets/utils/resources/size_categories.json, the buckets below 100K items.
BUCKETS = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"))


def _release(tmp_path, **target_and_options):
    target = {k: target_and_options.pop(k) for k in ("round_", "project") if k in target_and_options}
    out = tmp_path / "release"
    release_export(out_dir=out, options=release_options_clean(**target_and_options), **target)
    card = DatasetCard.load(out / "README.md")
    # The card's own configs name the files: load them as a Parquet dataset, nothing else read.
    files = {f["split"]: str(out / f["path"]) for f in card.data.configs[0]["data_files"]}
    loaded = datasets.load_dataset("parquet", data_files=files, cache_dir=str(tmp_path / "hf-cache"))
    return card, loaded


def _line(text: str, pattern: str) -> re.Match:
    found = re.search(pattern, text, re.MULTILINE)
    assert found, f"the card has no line matching {pattern!r}"
    return found


def _card_counts(text: str) -> tuple[list[str], dict[str, dict[str, int]]]:
    """The Counts table: split names and, per row label, the non-zero count of each split."""
    section = text.split("## Counts", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    splits = [c.strip() for c in lines[0].strip("|").split("|")][1:-1]
    table = {}
    for line in lines[2:]:
        label, *cells, total = [c.strip() for c in line.strip("|").split("|")]
        values = dict(zip(splits, map(int, cells)))
        assert int(total) == sum(values.values()), line
        table[label] = {s: v for s, v in values.items() if v}
    return splits, table


def _row_counts(loaded, kind: str) -> dict[str, dict[str, int]]:
    table: dict[str, Counter] = {"questions": Counter()}
    for split in loaded:
        for row in loaded[split]:
            table["questions"][split] += 1
            if kind == "mc":
                names = loaded[split].features["categories"].feature.names
                labels = [names[i] for i in row["categories"]] or ["(uncategorised)"]
            else:
                labels = ["answerable" if row["answers"]["text"] else "unanswerable"]
            for label in labels:
                table.setdefault(label, Counter())[split] += 1
    return {label: dict(counts) for label, counts in table.items()}


def _rate(text: str, label: str) -> tuple[float, int] | None:
    found = _line(text, rf"^- {re.escape(label)}: (?:([\d.e+-]+) of (\d+) |not available)")
    return None if found[1] is None else (float(found[1]), int(found[2]))


def check_card(card, loaded, kind: str) -> dict:
    """Compare every figure of ``card`` with the rows of ``loaded``; return the rows' figures."""
    text = card.text
    rows = [row for split in loaded for row in loaded[split]]
    n = len(rows)
    # Splits and counts per split, category (uncategorised rows too) or answerability.
    splits, table = _card_counts(text)
    assert splits == list(loaded) == [f["split"] for f in card.data.configs[0]["data_files"]]
    assert table == _row_counts(loaded, kind)
    assert card.data.size_categories == [next(name for bound, name in BUCKETS if n < bound)]
    # Origin and authors: an imported row has no author (and, in a round, the source dataset as its source).
    summary = _line(text, r"^(\d+) .+ in .+: (.+)\.$")
    assert int(summary[1]) == n
    imported_match = re.search(r"(\d+) imported from `([^`]+)`", summary[2])
    written_match = re.search(r"(\d+) written with Stumper", summary[2])
    imported = int(imported_match[1]) if imported_match else 0
    assert (int(written_match[1]) if written_match else 0) == n - imported
    authors = {row["author"] for row in rows} - {None}
    unattributed = sum(row["author"] is None for row in rows)
    if kind == "mc" and imported:
        assert sum(row["source"] == imported_match[2] and row["author"] is None for row in rows) == imported
    stated = _line(text, r"^- Authors: (.+)\.$")[1]
    if stated == "not recorded":
        assert not authors and unattributed == n
    else:
        found = re.fullmatch(r"(\d+) \((pseudonymised|user names)\)(?:; not recorded for (\d+) questions)?", stated)
        assert found and (int(found[1]), int(found[3] or 0)) == (len(authors), unattributed)
        assert all(a.startswith("author-") for a in authors) == (found[2] == "pseudonymised")
    assert unattributed >= imported and "written by" not in text
    # License and source datasets, in the YAML and in the body.
    license_line = _line(text, r"^- License: `([^`]+)`\. Source datasets: (.+)\.$")
    assert license_line[1] == card.data.license
    assert re.findall(r"`([^`]+)`", license_line[2]) == card.data.source_datasets
    expected_sources = (["original"] if not imported else [imported_match[2]] if imported == n
                        else ["original", f"extended|{imported_match[2]}"])
    assert card.data.source_datasets == expected_sources
    # What the filter took, and the statuses of what it took.
    included = _line(text, r"^- Included: (.+)\.$")[1]
    statuses = Counter(row["status"] for row in rows) if kind == "mc" else Counter(submitted=n)
    stated_statuses = _line(text, r"Question status of the released items: (.+)\. Left out: .+\.$")[1]
    assert dict(part.split(": ") for part in stated_statuses.split(", ")) == {k: str(v) for k, v in statuses.items()}
    if included.startswith("questions with status accepted only"):
        assert set(statuses) == {"accepted"}
        assert (f"({imported} of them imported, accepted at import" in included) == bool(imported)
    elif kind == "span":
        assert included.startswith("submitted questions without an open flag") or included.startswith("every submitted")
    else:
        assert included.startswith("every question not rejected") and set(statuses) <= {"accepted", "pending", "review"}
    assert "accepted after validation" not in text
    # Validation: blind answers on the released rows (a round), second-pass answers (a project).
    answers = sum(row["validations" if kind == "mc" else "second_pass_answers"] for row in rows)
    validation = text.split("## Validation", 1)[1].split("\n## ", 1)[0]
    if not answers:
        assert "Not measured" in validation
    elif kind == "mc":
        agreeing = sum(row["validators_agreeing"] for row in rows)
        accuracy = _line(validation, r"\): ([\d.]+)% \((\d+) of (\d+) answers")
        assert (float(accuracy[1]), int(accuracy[2]), int(accuracy[3])) == (round(100 * agreeing / answers, 1),
                                                                           agreeing, answers)
        validated = _line(validation, r"(\d+) of the (\d+) released questions have blind validation answers")
        assert (int(validated[1]), int(validated[2])) == (sum(row["validations"] > 0 for row in rows), n)
    # Fooling rates and the models that answered.
    fooled = [row["fooled_live"] for row in rows if row["fooled_live"] is not None]
    assert _rate(text, "Fooled the live model at submission") == ((float(sum(fooled)), len(fooled)) if fooled else None)
    if kind == "mc":
        cv = [row["fooled_cv"] for row in rows if "fooled_cv" in row and row["fooled_cv"] is not None]
        stated_cv = _rate(text, "Fooled the model in cross-validation (mean share of trials wrong, CODAH §3)")
        assert (stated_cv is None) == (not cv)
        if cv:
            assert stated_cv[1] == len(cv) and f"{stated_cv[0]:.4g}" == f"{sum(cv):.4g}"
    model, revision = ("live_model", "live_model_revision") if kind == "mc" else ("model", "model_revision")
    used = Counter((row[model], row[revision] or "-") for row in rows if row[model] is not None)
    collection = text.split("## Collection method", 1)[1].split("\n## ", 1)[0]
    stated_models = {(m[1], m[2]): int(m[3]) for m in re.finditer(r"^\| (.+?) \| (\S+) \| (\d+) \|", collection, re.M)}
    assert stated_models == dict(used)
    # When the rows were written or imported.
    created = sorted(datetime.fromisoformat(row["created_at"]) for row in rows)
    verb = "written" if not imported else "imported" if imported == n else "written or imported"
    assert (f"Questions were {verb} between {created[0]:%Y-%m-%d %H:%M} and {created[-1]:%Y-%m-%d %H:%M} (UTC)."
            in text)
    return {"rows": n, "imported": imported, "authors": len(authors), "counts": table, "statuses": dict(statuses)}


def _import_codah(round_, path, *extra):
    call_command("import_codah", str(path), "--round", round_.name, "--allow-duplicate-choices", *extra,
                 stdout=StringIO())


def test_an_imported_codah_round_says_where_it_comes_from_and_keeps_the_uncategorised_rows(tmp_path, course):
    """The issue's case: CODAH's 2,776 rows are 2,080 ``other`` + 10 uncategorised, ODC-By, from codah,
    with no authors and no validation in Stumper."""
    codah = round_create(course=course, name="codah", categories=list(CATEGORIES))
    _import_codah(codah, shared_data("codah", "full_data.tsv"))
    codah.refresh_from_db()
    card, loaded = _release(tmp_path, round_=codah, fields=MC_FIELDS)
    figures = check_card(card, loaded, "mc")
    totals = {label: sum(per_split.values()) for label, per_split in figures["counts"].items()}
    assert totals == {"questions": 2776, "idioms": 244, "reference": 133, "polysemy": 108, "negation": 115,
                      "quantitative": 86, "other": 2080, "(uncategorised)": 10}
    assert (figures["imported"], figures["authors"]) == (2776, 0)
    assert card.data.license == "odc-by" and card.data.source_datasets == ["codah"]
    assert len(loaded) == 3  # imported rows have no author to keep together: 80/10/10 of the questions
    assert "Not measured" in card.text and "Model in the loop" not in card.text


def test_imported_rows_without_a_recorded_source_need_one_given(tmp_path, course):
    rows = "i\tHe kicked the bucket. He\tdied.\tlives.\tdances.\tsings.\t0\n\tShe smiled. She\tfrowned.\tgrinned.\twept.\tslept.\t1\n"
    quiz = round_create(course=course, name="quiz", categories=list(CATEGORIES))
    codah_import(round_=quiz, text=rows, author=course.owner)  # no source recorded
    for options, message in [({}, "source dataset was not recorded at import"),
                             ({"source_dataset": "my-lab/quiz"}, "whose license was not recorded at import")]:
        with pytest.raises(ReleaseError, match=message):
            release_export(out_dir=tmp_path / "refused", options=release_options_clean(**options), round_=quiz)
    assert list(tmp_path.iterdir()) == []
    card, loaded = _release(tmp_path, round_=quiz, fields=MC_FIELDS, source_dataset="my-lab/quiz", license="cc-by-4.0")
    totals = {label: sum(per_split.values()) for label, per_split in check_card(card, loaded, "mc")["counts"].items()}
    assert totals == {"questions": 2, "idioms": 1, "(uncategorised)": 1}
    assert (card.data.license, card.data.source_datasets) == ("cc-by-4.0", ["my-lab/quiz"])


@pytest.mark.parametrize("with_imported", [False, True], ids=["written", "written-and-imported"])
@pytest.mark.parametrize("status", ["accepted", "all"])
def test_a_round_written_and_validated_in_stumper(tmp_path, release_round, status, with_imported):
    if with_imported:  # two CODAH rows beside the 16 accepted questions written in the round
        codah_import(round_=release_round, text="o\tIt rained, so Omar\tsang.\tslept.\topened his umbrella.\tran.\t2\n"
                     "\tKelly ratted me out. She\tsqueaked.\ttold on me.\tate cheese.\tflew.\t1\n",
                     author=release_round.course.owner, source_dataset="codah")
    card, loaded = _release(tmp_path, round_=release_round, status=status, fields=MC_FIELDS + ",fooled_cv")
    figures = check_card(card, loaded, "mc")
    # Accepted: alice, bob and cy; dee's questions are in review; eve's rejected or under appeal.
    assert figures["authors"] == (3 if status == "accepted" else 4) and figures["imported"] == (2 if with_imported else 0)
    assert figures["rows"] == (16 if status == "accepted" else 18) + figures["imported"]
    assert card.data.license == ("odc-by" if with_imported else "cc-by-sa-4.0")
    assert card.data.source_datasets == (["original", "extended|codah"] if with_imported else ["original"])


SQUAD_FILES = {"pquad": ("pquad", "Validation.json", "fa"), "squad_v2": ("squad2-subset", "dev-subset-v2.0.json", "en")}


@pytest.mark.parametrize("source", ["pquad", "squad_v2"])
def test_an_imported_squad_project_has_no_authors_and_its_source_license(tmp_path, instructor, source):
    folder, name, language = SQUAD_FILES[source]
    data = json.loads(shared_data(folder, name).read_text(encoding="utf-8"))
    data["data"] = data["data"][:2]  # two articles: enough answerable and unanswerable questions
    path = tmp_path / "part.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    project = make_project(instructor, name=f"imported-{source}", language=language)
    call_command("import_squad", str(path), "--project", project.name, "--split", "validation",
                 "--source-dataset", source, stdout=StringIO())
    project.refresh_from_db()
    (tmp_path / "out").mkdir()
    card, loaded = _release(tmp_path / "out", project=project, fields="predictions,fooled_live,agreement")
    figures = check_card(card, loaded, "span")
    questions = sum(len(p["qas"]) for a in data["data"] for p in a["paragraphs"])
    unanswerable = sum(q.get("is_impossible", not q["answers"]) for a in data["data"] for p in a["paragraphs"]
                       for q in p["qas"])
    assert figures["counts"] == {"questions": {"validation": questions}, "answerable": {"validation": questions - unanswerable},
                                 "unanswerable": {"validation": unanswerable}}
    assert (figures["rows"], figures["imported"], figures["authors"]) == (questions, questions, 0)
    assert (card.data.license, card.data.source_datasets, card.data.language) == ("cc-by-sa-4.0", [source], [language])
    assert "Authors: not recorded" in card.text and "Not measured" in card.text


def test_the_release_form_offers_the_recorded_source_or_asks_for_it(client, instructor, course):
    recorded = round_create(course=course, name="recorded", categories=list(CATEGORIES))
    unrecorded = round_create(course=course, name="unrecorded", categories=list(CATEGORIES))
    written = round_create(course=course, name="written", categories=list(CATEGORIES))
    rows = "o\tIt rained, so Omar\tsang.\tslept.\topened his umbrella.\tran.\t2\n"
    codah_import(round_=recorded, text=rows, author=instructor, source_dataset="codah")
    codah_import(round_=unrecorded, text=rows, author=instructor)
    client.force_login(instructor)

    def form(round_: Round) -> str:
        page = client.get(reverse("collector:round_detail", args=[round_.pk])).content.decode()
        return page.split('id="release-heading"', 1)[1].split("</form>", 1)[0]

    assert 'name="source_dataset" id="release-source-round" value="codah" required' in form(recorded)
    assert 'name="license" id="release-license-round" value="odc-by" required' in form(recorded)
    assert "from codah under odc-by (recorded at import)" in form(recorded)
    asking = form(unrecorded)
    assert 'name="source_dataset" id="release-source-round" value="" required' in asking
    assert 'name="license" id="release-license-round" value="" required' in asking
    assert "the import did not record where it comes from" in asking
    assert "source_dataset" not in form(written) and 'value="cc-by-sa-4.0"' in form(written)
    project = make_project(instructor, name="squad-part")
    squad_import(project=project, split="test", data={"version": "v2.0", "data": [{"title": "Nile", "paragraphs": [
        {"context": "The Nile flows north.", "qas": [{"id": "q1", "question": "Where?", "answers": []}]}]}]})
    dashboard = client.get(reverse("annotation:project_dashboard", args=[project.pk])).content.decode()
    assert 'name="source_dataset" id="release-source-project" value="" required' in dashboard
    assert "1 question was imported, and the import did not record where it comes from" in dashboard
