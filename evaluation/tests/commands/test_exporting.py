"""``management/exporting.py``: what ``export_codah`` and ``export_squad`` both do with an unusable
evaluation report and with a file they cannot write."""
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.management import CommandError, call_command

from annotation.tests.factories import make_project
from collector.services.rounds import round_create
from evaluation.models import EvaluationRun
from evaluation.services import reports as report_services

pytestmark = pytest.mark.django_db


@dataclass
class WeighedExport:
    """One export command and what it exports: a round or project with a finished report."""

    command: str
    kind: str  # "round" or "project", as the option and the refusal name it
    name: str
    report: EvaluationRun
    other: str  # the name of another round or project, which the report is not of
    start_report: Callable[[], EvaluationRun]  # a report of ``name`` that has not finished


@pytest.fixture(params=["export_codah", "export_squad"])
def export(request, course, instructor) -> WeighedExport:
    if request.param == "export_codah":
        round_, report = request.getfixturevalue("weighed_round")
        other = round_create(course=course, name="other-round")
        return WeighedExport("export_codah", "round", round_.name, report, other.name,
                             lambda: report_services.evaluation_start_round(round_=round_))
    project, report = request.getfixturevalue("weighed_project")
    other = make_project(instructor, name="other")
    return WeighedExport("export_squad", "project", project.name, report, other.name,
                         lambda: report_services.evaluation_start_project(project=project))


def test_a_report_of_another_target_or_unfinished_is_refused_and_nothing_written(export, tmp_path):
    path = tmp_path / "x.out"
    refusal = f"Evaluation report {export.report.pk} is not a report of {export.kind} {export.other}"
    with pytest.raises(CommandError, match=refusal):
        call_command(export.command, f"--{export.kind}", export.other, "--weights-from", str(export.report.pk), str(path))
    queued = export.start_report()
    with pytest.raises(CommandError, match=f"Evaluation report {queued.pk} has not finished"):
        call_command(export.command, f"--{export.kind}", export.name, "--weights-from", str(queued.pk), "-")
    assert not path.exists()


def test_a_file_that_cannot_be_written_is_a_command_error_and_leaves_nothing(export, tmp_path):
    folder = tmp_path / "out"
    with pytest.raises(CommandError, match=f"Cannot write {folder / 'missing' / 'x.out'}: No such file"):
        call_command(export.command, f"--{export.kind}", export.name, str(folder / "missing" / "x.out"))
    folder.mkdir()
    (folder / "x.out").mkdir()  # a folder where the file should go: the rename fails after the write
    with pytest.raises(CommandError, match="Cannot write"):
        call_command(export.command, f"--{export.kind}", export.name, str(folder / "x.out"))
    assert [p.name for p in folder.iterdir()] == ["x.out"]  # no partial file left beside it
