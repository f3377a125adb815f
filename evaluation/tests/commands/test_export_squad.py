"""``manage.py export_squad``: a project's questions as SQuAD-2.0 JSON, optionally with an
evaluation report's weights."""
import io
import json

import pytest
from django.core.management import CommandError, call_command

from annotation.tests.factories import SQUAD, make_project
from evaluation.selectors.exports import evaluation_run_weights

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_import_then_export_round_trip(instructor, tmp_path):
    project = make_project(instructor)
    source = tmp_path / "s.json"
    source.write_text(json.dumps(SQUAD), encoding="utf-8")
    run("import_squad", str(source), "--project", project.name, "--split", "validation")
    target = tmp_path / "out.json"

    assert "Wrote 2 questions" in run("export_squad", "--project", project.name, "--split", "validation", str(target))
    assert json.loads(target.read_text(encoding="utf-8"))["data"] == SQUAD["data"]


def test_unknown_project_is_a_command_error(tmp_path):
    with pytest.raises(CommandError, match="There is no annotation project called 'nope'."):
        run("export_squad", "--project", "nope", str(tmp_path / "x.json"))
    assert not (tmp_path / "x.json").exists()


class ExportSquadWeightsTests:
    def test_weights_from_a_report_give_every_qa_a_weight(self, weighed_project, tmp_path):
        project, report = weighed_project
        target = tmp_path / "weighted.json"

        out = run("export_squad", "--project", project.name, "--weights-from", str(report.pk), str(target))

        assert out.strip() == (f"Wrote 12 questions in 2 articles to {target}; 8 with a weight from evaluation "
                               f"report {report.pk}")
        qas = [qa for a in json.loads(target.read_text(encoding="utf-8"))["data"] for p in a["paragraphs"]
               for qa in p["qas"]]
        weights = {qid: w for (_, qid), w in evaluation_run_weights(run_id=report.pk, project=project).items()}
        assert {qa["id"]: qa["weight"] for qa in qas} == {qa["id"]: weights.get(qa["id"]) for qa in qas}
        plain = json.loads(run("export_squad", "--project", project.name, "-"))
        assert all("weight" not in qa for a in plain["data"] for p in a["paragraphs"] for qa in p["qas"])
