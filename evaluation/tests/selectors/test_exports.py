"""The weights of a finished report for dataset exports (which reports qualify, what each refusal says)
and the exports that carry them: CODAH TSV / JSON lines of a round, SQuAD JSON of a project."""
import numpy as np
import pytest
from django.core.exceptions import ValidationError

from annotation.models import SpanQuestion
from annotation.selectors.exports import project_squad_dict
from collector.selectors.exports import round_examples, round_export_codah_tsv, round_export_records
from collector.services.questions import question_submit
from collector.services.rounds import round_create
from collector.tests.factories import question_data
from evaluation.models import EvaluationRun
from evaluation.selectors.exports import evaluation_run_weights, evaluation_runs_with_weights
from evaluation.services import reports as report_services
from evaluation.tests.factories import artifact_questions, finished_report, span_project
from mlcore.data.codah import format_codah_tsv

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_run(artifact_round, instructor):
    return finished_report(instructor, round_=artifact_round)


@pytest.fixture
def nile(instructor):
    return span_project(instructor)


def stored_rows(run):
    return run.result["lexical"]["tables"]["weights"]["rows"]


def refusal(code, **kwargs) -> str:
    with pytest.raises(ValidationError) as caught:
        evaluation_run_weights(**kwargs)
    assert caught.value.code == code
    return caught.value.messages[0]


class EvaluationRunWeightsTests:
    def test_a_round_report_weighs_every_completion(self, round_run, artifact_round):
        weights = evaluation_run_weights(run_id=round_run.pk, round_=artifact_round)

        question_ids = list(artifact_round.questions.order_by("id").values_list("pk", flat=True))
        assert list(weights) == [(qid, choice) for qid in question_ids for choice in range(4)]
        assert weights == {(row[0], row[1]): row[3] for row in stored_rows(round_run)}
        assert np.mean(list(weights.values())) == pytest.approx(1.0, abs=1e-5)

    def test_a_project_report_weighs_the_train_questions(self, nile, instructor, no_probes):
        run = finished_report(instructor, project=nile)

        weights = evaluation_run_weights(run_id=run.pk, project=nile)

        train = nile.questions.filter(paragraph__article__split="train", status="submitted").order_by("id")
        assert list(weights) == [(q.pk, q.qid) for q in train]
        assert len(weights) == 8 and all(w > 0 for w in weights.values())

    def test_a_report_of_another_target_is_refused_like_a_missing_one(self, round_run, course, nile):
        other = round_create(course=course, name="other-round")
        message = refusal("not_found", run_id=round_run.pk, round_=other)
        assert message == f"Evaluation report {round_run.pk} is not a report of round other-round."
        assert refusal("not_found", run_id=round_run.pk, project=nile) == (
            f"Evaluation report {round_run.pk} is not a report of project nile-eval.")
        assert refusal("not_found", run_id=round_run.pk + 1000, round_=round_run.round).startswith(
            f"Evaluation report {round_run.pk + 1000} is not a report of round")

    def test_an_unfinished_report_has_no_weights(self, artifact_round, instructor):
        queued = report_services.evaluation_start_round(round_=artifact_round, user=instructor)  # no worker ran it
        assert refusal("not_finished", run_id=queued.pk, round_=artifact_round) == (
            f"Evaluation report {queued.pk} has not finished (it is queued); only a finished report has weights.")
        EvaluationRun.objects.filter(pk=queued.pk).update(status=EvaluationRun.Status.FAILED)
        assert "(it is failed)" in refusal("not_finished", run_id=queued.pk, round_=artifact_round)

    def test_a_report_without_a_weights_table_says_why(self, round_, instructor):
        run = finished_report(instructor, round_=round_)  # the round has no questions yet
        assert run.status == EvaluationRun.Status.DONE
        assert refusal("no_weights", run_id=run.pk, round_=round_) == (
            f"Evaluation report {run.pk} has no weights table (The round has no questions yet.).")

    def test_weights_in_an_unknown_layout_are_refused(self, round_run, artifact_round):
        result = round_run.result
        result["lexical"]["tables"]["weights"]["columns"] = ["question_id", "label", "weight"]
        EvaluationRun.objects.filter(pk=round_run.pk).update(result=result)
        assert "unknown layout" in refusal("bad_layout", run_id=round_run.pk, round_=artifact_round)

    def test_exactly_one_target(self, round_run, artifact_round, nile):
        with pytest.raises(TypeError):
            evaluation_run_weights(run_id=round_run.pk)
        with pytest.raises(TypeError):
            evaluation_run_weights(run_id=round_run.pk, round_=artifact_round, project=nile)


class EvaluationRunsWithWeightsTests:
    def test_only_finished_reports_of_the_target_with_weights_newest_first(self, round_run, artifact_round, course,
                                                                            instructor):
        second = finished_report(instructor, round_=artifact_round)
        report_services.evaluation_start_round(round_=artifact_round, user=instructor)  # queued, no weights yet
        empty_round = round_create(course=course, name="empty-round")
        finished_report(instructor, round_=empty_round)  # finished, but nothing to weigh

        assert list(evaluation_runs_with_weights(round_=artifact_round)) == [second, round_run]
        assert not evaluation_runs_with_weights(round_=empty_round).exists()


@pytest.fixture
def weighed_round(round_, student, instructor, fake_model):
    """Twelve questions and a finished report of them; returns the round, the report and its weights."""
    artifact_questions(student, round_)
    run = finished_report(instructor, round_=round_)
    return round_, run, evaluation_run_weights(run_id=run.pk, round_=round_)


def test_the_default_tsv_is_the_seven_column_file(weighed_round):
    round_, _, _ = weighed_round
    text = round_export_codah_tsv(round_=round_)

    assert text == format_codah_tsv(round_examples(round_=round_))
    assert text.splitlines()[0] == ("i\tQuestion 1 about idioms. They\tgladly helps friend 1.\tnever eats apple 1.\t"
                                    "never sings song 1.\tnever reads book 1.\t0")


def test_weights_add_one_column_per_choice_in_choice_order(weighed_round):
    round_, _, weights = weighed_round
    plain = round_export_codah_tsv(round_=round_).splitlines()

    weighted = round_export_codah_tsv(round_=round_, weights=weights).splitlines()

    ids = list(round_.questions.order_by("created_at", "id").values_list("pk", flat=True))
    assert len(weighted) == len(plain) == 12
    for qid, line, plain_line in zip(ids, weighted, plain):
        fields = line.split("\t")
        assert len(fields) == 11 and "\t".join(fields[:7]) == plain_line
        assert [float(w) for w in fields[7:]] == [weights[(qid, c)] for c in range(4)]
    # Reweighting moved weight between completions: they are not all 1.
    assert len({line.split("\t")[8] for line in weighted}) > 1


def test_questions_written_after_the_report_get_empty_weights(weighed_round, student):
    round_, _, weights = weighed_round
    later = question_submit(user=student, round_id=round_.pk, **question_data())

    last = round_export_codah_tsv(round_=round_, weights=weights).splitlines()[-1]

    assert last.startswith("o\t" + later.prompt) and last.split("\t")[7:] == ["", "", "", ""]


def test_jsonl_records_carry_weights_only_when_asked(weighed_round, student):
    round_, _, weights = weighed_round
    later = question_submit(user=student, round_id=round_.pk, **question_data())

    plain = round_export_records(round_=round_)
    weighted = round_export_records(round_=round_, weights=weights)

    assert all("weights" not in record for record in plain)
    assert [{k: v for k, v in record.items() if k != "weights"} for record in weighted] == plain
    first = weighted[0]
    assert first["weights"] == [weights[(first["id"], c)] for c in range(4)]
    assert weighted[-1]["id"] == later.pk and weighted[-1]["weights"] == [None, None, None, None]


def qas(data: dict) -> list[dict]:
    return [qa for article in data["data"] for paragraph in article["paragraphs"] for qa in paragraph["qas"]]


def test_without_weights_no_qa_has_a_weight_field(weighed_project):
    project, _ = weighed_project
    data = project_squad_dict(project=project)
    assert len(qas(data)) == 12
    assert all(set(qa) == {"question", "id", "answers", "is_impossible"} for qa in qas(data))


def test_weights_go_to_the_train_questions_and_null_elsewhere(weighed_project):
    project, run = weighed_project
    weights = evaluation_run_weights(run_id=run.pk, project=project)
    plain = project_squad_dict(project=project)

    data = project_squad_dict(project=project, weights=weights)

    # Only the "weight" key is added, last, to the same qas in the same order.
    assert [{k: v for k, v in qa.items() if k != "weight"} for qa in qas(data)] == qas(plain)
    assert all(list(qa)[-1] == "weight" for qa in qas(data))
    pk_of = dict(SpanQuestion.objects.filter(project=project).values_list("qid", "pk"))
    by_qid = {qa["id"]: qa["weight"] for qa in qas(data)}
    assert by_qid == {qid: weights.get((pk_of[qid], qid)) for qid in by_qid}
    assert [by_qid[f"q{i}"] is None for i in range(12)] == [False] * 8 + [True] * 4  # validation is not weighed
    # Unanswerable train questions all say "first", so reweighting gives them other weights than the rest.
    assert by_qid["q0"] != by_qid["q4"]


def test_one_split_with_weights(weighed_project):
    project, run = weighed_project
    weights = evaluation_run_weights(run_id=run.pk, project=project)

    data = project_squad_dict(project=project, split="train", weights=weights)

    assert sorted(qa["weight"] for qa in qas(data)) == sorted(weights.values())
