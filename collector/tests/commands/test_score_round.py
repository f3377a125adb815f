"""``score_round``: start a run as the web does; ``--wait`` follows it (progress on stderr, summary on stdout) and
exits non-zero when it fails. The tests run Celery eagerly: the run's task runs when ``scoring_start`` commits."""
import json
from io import StringIO
from unittest import mock

import pytest
from django.core.management import CommandError, call_command

from collector.management.commands import score_round
from collector.models import Question, ScoringRun
from collector.services.scoring import scoring_run, scoring_start
from collector.services.scoring_folds import scoring_fold_run
from collector.tests.factories import finished_scoring_run, toy_scoring_round
from core.management import follow
from core.tests.late_worker import LateWorker
from mlcore.models.cv_runner import FoldRunner

TINY_SCORING = {"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1}


@pytest.fixture
def toy_round(open_round, student, tiny_model_dir):
    return toy_scoring_round(open_round, student, tiny_model_dir, TINY_SCORING, questions=12, seed=4,
                             categories=[["idioms"], ["negation"], ["other"]])


@pytest.fixture(autouse=True)
def fast_polling(monkeypatch):
    monkeypatch.setattr(follow, "POLL_SECONDS", 0.05)


def score(*args) -> str:
    return score_with_progress(*args)[0]


def score_with_progress(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("score_round", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.django_db
def test_without_wait_the_run_is_queued(toy_round):
    with mock.patch("collector.services.scoring.scoring_schedule"):
        output = score("--round", toy_round.name, "--folds", "3")
    run = ScoringRun.objects.get()
    assert output.strip() == f"Queued scoring run {run.pk} of round {toy_round.name}; a worker will run it"
    assert (run.status, run.folds, run.kind) == ("queued", 3, "cross_validation")
    with mock.patch("collector.services.scoring.scoring_schedule"), pytest.raises(CommandError, match="already in progress"):
        score("--round", toy_round.name)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--round", "nope"], "No round is named 'nope'"),
        (["--round", "round-1", "--folds", "1"], "must be between 2 and 20, got 1"),
        (["--round", "round-1", "--folds", "five"], "not a whole number"),
        (["--round", "round-1", "--trials", "11"], "must be between 1 and 10"),
    ],
)
def test_argument_mistakes(toy_round, args, message):
    with pytest.raises(CommandError, match=message):
        score(*args)
    assert not ScoringRun.objects.exists()


@pytest.mark.django_db
def test_too_few_questions_and_bad_settings(open_round, toy_round):
    with pytest.raises(CommandError, match="needs at least 15"):
        score("--round", toy_round.name, "--folds", "15")
    toy_round.scoring_config = {"learning_rate": -1}
    toy_round.save()
    with pytest.raises(CommandError, match="scoring_config: The round's scoring settings are invalid"):
        score("--round", toy_round.name)


@pytest.mark.django_db(transaction=True)
def test_wait_follows_the_job_with_progress_and_summary(toy_round):
    with mock.patch("collector.management.commands.score_round.scoring_start", wraps=scoring_start) as start:
        output, progress = score_with_progress("--round", toy_round.name, "--folds", "3", "--trials", "2", "--wait")
    start.assert_called_once()  # started by the web's own start function, its task run by (eager) Celery
    run = ScoringRun.objects.get()
    assert run.status == ScoringRun.Status.DONE, run.error
    lines = output.splitlines()
    assert lines[0] == f"Scoring run {run.pk} of round {toy_round.name}: cross-validation, 12 questions, 3 folds x 2 trial(s)"
    assert " done: accuracy " not in output and "[#" not in output  # progress goes to stderr
    progress_lines = progress.splitlines()
    done = [line for line in progress_lines if " done: accuracy " in line]
    assert [line.split(" done")[0].strip() for line in done] == [
        f"trial {t}/2 fold {f}/3" for t in (1, 2) for f in (1, 2, 3)
    ]
    assert all("on 4 questions (trained on 8," in line for line in done)
    assert "[########################] 100.0% Finished all 6 folds." in progress_lines
    assert any(line.startswith("CV accuracy (pooled) ") and " of 12 questions × 2 trials. Mean per-fold accuracy (CODAH) "
               in line and "(std over 2 trials)." in line for line in lines)
    assert "Questions per fold: 4  4  4" in lines
    assert "Warning: Few questions per fold: the smallest holds 4 (fewer than 20), so one question moves a fold's " \
           "accuracy by 25 points; read these accuracies as rough." in lines
    assert sum(line.startswith("Per-fold accuracy, trial ") for line in lines) == 2
    assert any(line.startswith("Fooled the cross-validated models: ") for line in lines)


@pytest.mark.django_db(transaction=True)
def test_wait_answer_only_reports_the_binomial_test(toy_round):
    output = score("--round", toy_round.name, "--folds", "3", "--answer-only", "--wait")
    assert ScoringRun.objects.get().kind == "answer_only"
    assert "vs 25% chance (one-sided binomial test p = " in output


@pytest.mark.django_db(transaction=True)
def test_wait_without_eager_celery_follows_the_worker_and_runs_nothing_itself(toy_round, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    worker = LateWorker(scoring_run, keyword="run_id")

    def send(name: str, run_id: int, *fold: int) -> None:
        if name == "collector.train_scoring_fold":  # the run's folds: the same worker trains them
            scoring_fold_run(run_id=run_id, trial=fold[0], fold=fold[1])
        elif name == "collector.scoring_run":
            worker.start(run_id)

    with mock.patch("collector.services.scoring.task_enqueue", side_effect=send), \
            mock.patch("collector.services.scoring_folds.task_enqueue", side_effect=send):
        output, progress = score_with_progress("--round", toy_round.name, "--folds", "3", "--wait")
    worker.join()
    assert worker.ran_in == ["worker"]  # the command only started and followed the job
    assert ScoringRun.objects.get().status == ScoringRun.Status.DONE
    assert progress.splitlines()[0] == "[........................]   0.0% Waiting for a worker to start it."
    assert "fold 3/3 done: accuracy" in progress and output.count("CV accuracy (pooled) ") == 1


@pytest.mark.django_db(transaction=True)
def test_wait_exits_non_zero_with_the_error_when_the_run_fails(toy_round):
    with mock.patch.object(FoldRunner, "run_fold", side_effect=RuntimeError("out of memory")), \
            pytest.raises(CommandError, match=r"Scoring run \d+ failed: RuntimeError: out of memory"):
        score("--round", toy_round.name, "--folds", "3", "--wait")
    assert ScoringRun.objects.get().status == ScoringRun.Status.FAILED


def test_progress_line_rewrites_itself_on_a_terminal():
    class Terminal(StringIO):
        def isatty(self):
            return True

    from django.core.management.base import OutputWrapper

    out = Terminal()
    line = follow.ProgressLine(OutputWrapper(out))
    run = ScoringRun(status="running", folds=5, trials=1, progress={
        "stage": "training", "trial": 0, "fold": 0, "step": 5, "total_steps": 10, "done_folds": 0,
        "total_folds": 5, "eta_seconds": 70, "loss": 1.3})
    score_round.progress_show(run, line)
    run.progress = {**run.progress, "fold": 1, "done_folds": 1, "step": 1}
    score_round.progress_show(run, line)
    line.finish()
    text = out.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n")
    assert "\r[##......................]  10.0% Fold 1 of 5 · step 5/10 · loss 1.300 · about 1:10 left" in text
    assert "Fold 2 of 5 · step 1/10" in text


@pytest.mark.django_db
def test_round_stats_json_has_the_cross_validation_numbers(round_, student):
    questions = [Question.objects.create(round=round_, author=student, prompt=f"P{i}. He", choices=list("abcd"),
                                         correct_index=0) for i in range(4)]
    before = StringIO()
    call_command("round_stats", "--round", round_.name, "--json", stdout=before)
    stats = json.loads(before.getvalue())
    assert (stats["scored_cv"], stats["fooled_cv"], stats["cv_accuracy_pooled"], stats["cv_warning"]) == (0, 0.0, None, "")
    assert "answer_only_accuracy" not in stats
    finished_scoring_run(round_, {q.pk: [i == 0] for i, q in enumerate(questions)})
    finished_scoring_run(round_, {q.pk: [i < 2] for i, q in enumerate(questions)}, kind="answer_only")
    out = StringIO()
    call_command("round_stats", "--round", round_.name, "--json", stdout=out)
    stats = json.loads(out.getvalue())
    assert (stats["scored_cv"], stats["fooled_cv"], stats["cv_accuracy_pooled"]) == (4, 3.0, 0.25)
    # Folds {q0, q2} and {q1, q3}: (1/2 + 0/2) / 2, CODAH's mean over folds.
    assert (stats["cv_accuracy_mean"], stats["cv_smallest_fold"]) == (0.25, 2)
    assert stats["cv_warning"].startswith("Few questions per fold: the smallest holds 2 (fewer than 20)")
    assert stats["answer_only_accuracy"] == 0.5
    table = StringIO()
    call_command("round_stats", "--round", round_.name, stdout=table)
    lines = table.getvalue().splitlines()
    assert "CV accuracy (pooled)            25.0%" in lines and "Answer-only accuracy            50.0%" in lines
    assert "Mean per-fold accuracy (CODAH)  25.0%" in lines
    assert lines[-1] == f"Warning: {stats['cv_warning']}"
