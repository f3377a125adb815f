"""A release that cannot be made says what is missing and leaves no file behind."""
from unittest import mock

import pytest

from collector.models import Question, ScoringRun
from evaluation.selectors.releases import ReleaseError
from evaluation.services.releases import release_export, release_options_clean

pytestmark = pytest.mark.django_db


def _fails(tmp_path, match, *, round_=None, project=None, **options):
    out = tmp_path / "release"
    with pytest.raises(ReleaseError, match=match):
        release_export(out_dir=out, options=release_options_clean(**options), round_=round_, project=project)
    assert list(tmp_path.iterdir()) == [], "nothing may be written when a release fails"


def test_an_empty_round_says_there_is_nothing_to_release(tmp_path, round_):
    _fails(tmp_path, "Round r1 has no questions yet", round_=round_)


def test_an_unvalidated_round_says_what_is_missing(tmp_path, round_, student, fake_model):
    from collector.services import question_submit
    from collector.tests.factories import question_data

    question_submit(user=student, round_id=round_.pk, **question_data())
    _fails(tmp_path, r"no accepted questions yet \(1 awaiting validation\).*2 validator\(s\).*--status all",
           round_=round_)


def test_a_round_with_only_rejected_questions_has_nothing_to_release(tmp_path, release_round):
    Question.objects.filter(round=release_round).update(status=Question.Status.REJECTED)
    _fails(tmp_path, "only rejected questions", round_=release_round, status="all")


def test_an_unknown_license_is_refused_with_close_hub_ids():
    with pytest.raises(ReleaseError, match=r"Unknown license 'cc-by-sa'.*Did you mean"):
        release_options_clean(license="cc-by-sa")


@pytest.mark.parametrize("options, match", [
    ({"status": "rejected"}, "Unknown status"), ({"split_by": "random"}, "Unknown split method"),
    ({"fields": "predictions,colour"}, r"Unknown field\(s\) colour"),
])
def test_unknown_options_are_refused(options, match):
    with pytest.raises(ReleaseError, match=match):
        release_options_clean(**options)


def test_folds_and_fooled_cv_need_a_finished_scoring_run(tmp_path, release_round):
    ScoringRun.objects.filter(round=release_round, kind="cross_validation").update(status=ScoringRun.Status.FAILED)
    _fails(tmp_path, "no finished cross-validation scoring run", round_=release_round, split_by="folds")
    _fails(tmp_path, "fooled_cv needs a finished cross-validation", round_=release_round, fields="fooled_cv")


def test_weights_need_a_finished_evaluation_report(tmp_path, release_round):
    _fails(tmp_path, "weights field needs a finished evaluation report", round_=release_round, fields="weights")


def test_a_non_empty_output_folder_is_left_alone(tmp_path, release_round):
    out = tmp_path / "release"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ReleaseError, match="already exists"):
        release_export(out_dir=out, options=release_options_clean(), round_=release_round)
    assert [p.name for p in out.iterdir()] == ["notes.txt"] and len(list(tmp_path.iterdir())) == 1


def test_a_failure_while_writing_leaves_nothing_half_written(tmp_path, release_round):
    import datasets

    real = datasets.Dataset.to_parquet
    calls = []

    def fail_on_second_split(self, path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, path, *args, **kwargs)

    with mock.patch.object(datasets.Dataset, "to_parquet", fail_on_second_split), pytest.raises(
            ReleaseError, match="Cannot write .*No space left on device; nothing was written"):
        release_export(out_dir=tmp_path / "release", options=release_options_clean(), round_=release_round)
    assert len(calls) == 2 and list(tmp_path.iterdir()) == []
