"""Evaluating a model version on a round's accepted questions / a project's test split: the numbers
(against the model's own predictions), snapshots, idempotence and every bad case."""
import os
import socket

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from collector.models import Question
from evaluation.models.leaderboards import ModelEvaluation
from evaluation.selectors import leaderboards as leaderboard_selectors
from evaluation.services import leaderboards as leaderboard_services
from mlcore.configs import MCExample
from mlcore.stats.proportions import wilson_interval
from modelhub.inference import predict_examples

pytestmark = pytest.mark.django_db


def evaluate(version, **target):
    evaluation = leaderboard_services.model_evaluation_start(model_version=version, **target)
    return leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)


class ModelEvaluationRoundTests:
    def test_accuracy_overall_and_per_category_match_the_models_answers(self, board_round, tiny_model_version,
                                                                         instructor):
        evaluation = evaluate(tiny_model_version, round_=board_round, user=instructor)
        assert evaluation.status == ModelEvaluation.Status.DONE, evaluation.error
        accepted = list(Question.objects.filter(round=board_round, status="accepted").order_by("id"))
        assert evaluation.question_ids == [q.pk for q in accepted]
        # The same tiny random model asked directly: the job must store exactly its answers.
        asked = [MCExample(prompt=q.prompt, choices=tuple(q.choices)) for q in accepted]
        picks = [p.predicted for p in predict_examples(tiny_model_version, asked)]
        hits = [pick == q.correct_index for pick, q in zip(picks, accepted)]
        result = evaluation.result
        assert [p["predicted_index"] for p in result["predictions"]] == picks
        ci = wilson_interval(sum(hits), 5)
        assert result["accuracy"] == {"k": sum(hits), "n": 5, "value": round(sum(hits) / 5, 6),
                                      "low": round(ci.low, 6), "high": round(ci.high, 6)}
        per = {row["category"]: (row["k"], row["n"]) for row in result["per_category"]}
        assert per == {"idioms": (sum(hits[:3]), 3), "negation": (sum(hits[3:]), 2)}
        assert [row["category"] for row in result["per_category"]] == ["idioms", "negation"]  # the round's order
        assert evaluation.progress["stage"] == "Done" and evaluation.progress["percent"] == 100.0

    def test_snapshot_id_follows_the_accepted_questions_and_their_content(self, board_round, tiny_model_version):
        first = evaluate(tiny_model_version, round_=board_round)
        again = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        assert again.pk == first.pk  # same model, same data: the stored entry, no new job
        question = Question.objects.filter(round=board_round, status="accepted").first()
        question.prompt = "the man was hungry . he"
        question.save()  # an edit is a new content version
        edited = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        assert edited.pk != first.pk and edited.snapshot_id != first.snapshot_id
        assert edited.question_ids == first.question_ids

    def test_a_second_start_while_one_is_queued_returns_it(self, board_round, tiny_model_version, monkeypatch):
        monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
        first = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        second = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        assert first.pk == second.pk and ModelEvaluation.objects.count() == 1

    def test_a_finished_evaluation_is_never_recomputed(self, board_round, tiny_model_version):
        evaluation = evaluate(tiny_model_version, round_=board_round)
        ModelEvaluation.objects.filter(pk=evaluation.pk).update(result={"kind": "multiple_choice", "marker": 1})
        again = leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)
        assert again.result == {"kind": "multiple_choice", "marker": 1}


class ModelEvaluationBadInputTests:
    def test_a_model_that_fails_to_load_fails_the_job_with_a_clear_message(self, board_round, broken_version):
        evaluation = evaluate(broken_version, round_=board_round)
        assert evaluation.status == ModelEvaluation.Status.FAILED
        assert "missing-weights could not be loaded from" in evaluation.error
        assert "nothing was stored" in evaluation.error
        assert evaluation.result == {} and evaluation.progress["stage"] == "Failed"
        assert leaderboard_selectors.leaderboard_entries(round_=board_round) == []

    def test_a_round_without_accepted_questions_says_so(self, round_, tiny_model_version):
        with pytest.raises(ValidationError, match="no accepted questions yet"):
            leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=round_)
        assert not ModelEvaluation.objects.exists()

    def test_a_model_of_the_wrong_kind_is_refused(self, board_round, qa_model_version, test_split_project,
                                                  tiny_model_version):
        with pytest.raises(ValidationError, match="needs a multiple-choice model"):
            leaderboard_services.model_evaluation_start(model_version=qa_model_version, round_=board_round)
        with pytest.raises(ValidationError, match="not an extractive question-answering model"):
            leaderboard_services.model_evaluation_start(model_version=tiny_model_version, project=test_split_project)
        assert not ModelEvaluation.objects.exists()

    def test_a_job_interrupted_by_a_worker_restart_runs_again_and_says_so(self, board_round, tiny_model_version,
                                                                          monkeypatch):
        monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
        evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        dead = f"{socket.gethostname()}:{2**22 + os.getpid()}"  # no such process on this machine
        ModelEvaluation.objects.filter(pk=evaluation.pk).update(
            status="running", heartbeat_at=timezone.now(),
            progress={"owner": dead, "stage": "Answering the questions", "percent": 40.0, "attempt": 1})
        assert leaderboard_services.model_evaluations_resume_interrupted() == 1
        done = leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)
        assert done.status == ModelEvaluation.Status.DONE, done.error
        assert done.progress["attempt"] == 2 and "worker restart" in done.progress["note"]
        assert done.result["accuracy"]["n"] == 5

    def test_a_job_a_live_worker_holds_is_left_alone(self, board_round, tiny_model_version, monkeypatch):
        monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
        evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        ModelEvaluation.objects.filter(pk=evaluation.pk).update(
            status="running", heartbeat_at=timezone.now(),
            progress={"owner": "another-host:123", "stage": "Answering the questions", "percent": 40.0,
                      "attempt": 1})
        held = leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)
        assert held.status == "running" and held.progress["percent"] == 40.0 and held.result == {}

    def test_repeated_interruptions_fail_the_job_with_a_clear_message(self, board_round, tiny_model_version,
                                                                      monkeypatch):
        monkeypatch.setattr(leaderboard_services, "model_evaluation_schedule", lambda **kw: None)
        evaluation = leaderboard_services.model_evaluation_start(model_version=tiny_model_version, round_=board_round)
        dead = f"{socket.gethostname()}:{2**22 + os.getpid()}"
        ModelEvaluation.objects.filter(pk=evaluation.pk).update(
            status="running", heartbeat_at=timezone.now(),
            progress={"owner": dead, "attempt": leaderboard_services.MAX_ATTEMPTS})
        failed = leaderboard_services.model_evaluation_run(evaluation_id=evaluation.pk)
        assert failed.status == ModelEvaluation.Status.FAILED and failed.result == {}
        assert f"interrupted by a worker restart {leaderboard_services.MAX_ATTEMPTS} times" in failed.error


class ModelEvaluationProjectTests:
    def test_em_f1_on_the_test_split_only(self, test_split_project, qa_model_version):
        from mlcore.models.qa import QAExample, load_qa_model
        from mlcore.stats.squad_metrics import score_question
        from modelhub.inference import qa_spec_for

        evaluation = evaluate(qa_model_version, project=test_split_project)
        assert evaluation.status == ModelEvaluation.Status.DONE, evaluation.error
        records = leaderboard_selectors.span_questions(question_ids=evaluation.question_ids)
        assert [r.qid for r in records] == ["q0", "q1", "q2"]  # no draft, no train question
        texts = [p.text for p in load_qa_model(qa_spec_for(qa_model_version)).predict(
            [QAExample(r.question, r.context) for r in records])]
        scores = [score_question(list(r.answers), t) for r, t in zip(records, texts)]
        result = evaluation.result
        assert result["overall"]["exact"]["k"] == sum(em for em, _ in scores)
        assert result["overall"]["f1"] == pytest.approx(100 * sum(f1 for _, f1 in scores) / 3, abs=1e-5)
        assert (result["has_ans"]["n"], result["no_ans"]["n"]) == (2, 1)
        assert result["no_ans"]["exact"]["k"] == scores[2][0]
        assert [p["prediction"] for p in result["predictions"]] == texts

    def test_a_project_without_test_questions_says_so(self, instructor, qa_model_version):
        from annotation.tests.factories import make_project

        project = make_project(instructor, name="empty-board")
        with pytest.raises(ValidationError, match="no submitted questions on test-split articles"):
            leaderboard_services.model_evaluation_start(model_version=qa_model_version, project=project)
