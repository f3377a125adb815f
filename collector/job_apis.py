"""JSON API of a round's long jobs, for its course's instructors: cross-validation scoring, the
next live model's training and the coach's answer-only model.

POST /api/rounds/<id>/scoring/start/              {kind, folds, trials, seed} -> 201 the queued run
GET  /api/rounds/<id>/scoring/runs/               the round's scoring runs, newest first
GET  /api/scoring/runs/<id>/                      one run: status, progress, summary, error
POST /api/rounds/<id>/training/start/             {name, make_live_round_id} -> 201 the queued job
GET  /api/rounds/<id>/training/jobs/              the round's training jobs, newest first
GET  /api/training/jobs/<id>/                     one job: status, progress, error, the model made
POST /api/rounds/<id>/answer-only-model/train/    queue the coach's answer-only model -> 202

A worker runs each job; progress is also pushed over ``ws/rounds/<round_id>/scoring/``. A start
that cannot happen now (too few questions, a run of that kind already going) is 409.
"""
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import answer_only, job_selectors, scoring, selectors, training_jobs
from collector.models import ScoringRun, TrainingJob
from collector.presentation import scoring_run_payload, training_job_payload
from core.apis import MAX_ID, ApiErrorsMixin, ListPagination, paginated


class ScoringRunSerializer(serializers.Serializer):
    """A scoring run: ``progress``/``summary`` as on the scoring websocket, ``display`` in words."""

    id = serializers.IntegerField()
    round_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ScoringRun.Kind.choices)
    status = serializers.ChoiceField(choices=ScoringRun.Status.choices)
    folds = serializers.IntegerField()
    trials = serializers.IntegerField()
    seed = serializers.IntegerField()
    base_checkpoint = serializers.CharField()
    config = serializers.DictField(help_text="The fine-tuning settings every fold used")
    questions = serializers.IntegerField()
    progress = serializers.DictField()
    summary = serializers.DictField()
    error = serializers.CharField()
    display = serializers.DictField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, run: ScoringRun):
        return super().to_representation({
            **scoring_run_payload(run), "round_id": run.round_id, "folds": run.folds, "trials": run.trials,
            "seed": run.seed, "base_checkpoint": run.base_checkpoint, "config": run.config,
            "questions": len(run.question_ids or ()), "created_at": run.created_at, "started_at": run.started_at,
            "finished_at": run.finished_at,
        })


class TrainingJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round_id = serializers.IntegerField()
    name = serializers.CharField(help_text="Name of the model version it registers")
    make_live_round_id = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=TrainingJob.Status.choices)
    progress = serializers.DictField()
    error = serializers.CharField()
    model_version = serializers.CharField(allow_null=True, help_text="The registered model, once done")
    display = serializers.DictField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, job: TrainingJob):
        return super().to_representation({
            **training_job_payload(job), "round_id": job.round_id, "make_live_round_id": job.make_live_round_id,
            "progress": job.progress or {}, "model_version": job.model_version.name if job.model_version else None,
            "created_at": job.created_at, "finished_at": job.finished_at,
        })


def _refused(message: str) -> Response:
    return Response({"detail": message}, status=status.HTTP_409_CONFLICT)


class ScoringStartApi(ApiErrorsMixin, APIView):
    """POST to queue cross-validation scoring (or the answer-only baseline) of every question in
    the round now; 409 while a run of that kind is going or with fewer questions than folds."""

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=ScoringRun.Kind.choices, default=ScoringRun.Kind.CROSS_VALIDATION)
        # The bounds of ScoringRun.folds / .trials (and of the round page's form).
        folds = serializers.IntegerField(min_value=2, max_value=20, default=5)
        trials = serializers.IntegerField(min_value=1, max_value=10, default=1)
        seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)

    OutputSerializer = ScoringRunSerializer

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            run = scoring.scoring_start(round_=round_, user=request.user, **serializer.validated_data)
        except scoring.ScoringRefused as error:
            return _refused(error.message)
        return Response(ScoringRunSerializer(run).data, status=status.HTTP_201_CREATED)


class ScoringRunListApi(ApiErrorsMixin, APIView):
    """GET the round's scoring runs, newest first."""

    Pagination = ListPagination
    OutputSerializer = ScoringRunSerializer

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        runs = job_selectors.scoring_runs_of_round(round_=round_)
        return paginated(self, request, runs, lambda page: ScoringRunSerializer(page, many=True).data)


class ScoringRunDetailApi(ApiErrorsMixin, APIView):
    """GET one scoring run: its status, progress (fold, step, time left) and, once done, its summary."""

    OutputSerializer = ScoringRunSerializer

    def get(self, request: Request, run_id: int) -> Response:
        run = job_selectors.scoring_run_for_manager(user=request.user, run_id=run_id)
        return Response(ScoringRunSerializer(run).data)


class TrainingStartApi(ApiErrorsMixin, APIView):
    """POST to queue training a new live model on every question of this round and the course's
    earlier rounds; optionally it then becomes the live model of ``make_live_round_id`` (a round of
    the same course). A name already registered or being trained is refused."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, help_text="Name of the new model version")
        make_live_round_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                                      allow_null=True, default=None)

    OutputSerializer = TrainingJobSerializer

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        live_id = serializer.validated_data["make_live_round_id"]
        live_round = None if live_id is None else selectors.round_for_manager(user=request.user, round_id=live_id)
        job = training_jobs.training_job_start(round_=round_, name=serializer.validated_data["name"],
                                               make_live_round=live_round, user=request.user)
        return Response(TrainingJobSerializer(job).data, status=status.HTTP_201_CREATED)


class TrainingJobListApi(ApiErrorsMixin, APIView):
    """GET the training jobs started from the round, newest first."""

    Pagination = ListPagination
    OutputSerializer = TrainingJobSerializer

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        jobs = job_selectors.training_jobs_of_round(round_=round_)
        return paginated(self, request, jobs, lambda page: TrainingJobSerializer(page, many=True).data)


class TrainingJobDetailApi(ApiErrorsMixin, APIView):
    """GET one training job: status, progress (epoch, step, time left), error, the model it made."""

    OutputSerializer = TrainingJobSerializer

    def get(self, request: Request, job_id: int) -> Response:
        job = job_selectors.training_job_for_manager(user=request.user, job_id=job_id)
        return Response(TrainingJobSerializer(job).data)


class AnswerOnlyModelTrainApi(ApiErrorsMixin, APIView):
    """POST to queue training the round's answer-only model (prompts blanked), which the artifact
    coach asks about drafts; needs enough usable questions. 202: a worker trains it."""

    success_status = 202

    class OutputSerializer(serializers.Serializer):
        detail = serializers.CharField()
        model_name = serializers.CharField()

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        answer_only.round_answer_only_model_schedule(round_=round_)
        return Response({"detail": "Training of the answer-only model is queued; a worker runs it.",
                         "model_name": answer_only.answer_only_model_name(round_)}, status=status.HTTP_202_ACCEPTED)
