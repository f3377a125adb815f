"""JSON API of a round's cross-validation scoring, for its course's instructors.

POST /api/rounds/<id>/scoring/start/              {kind, folds, trials, seed} -> 201 the queued run
GET  /api/rounds/<id>/scoring/runs/               the round's scoring runs, newest first
GET  /api/scoring/runs/<id>/                      one run: status, progress, summary, error
POST /api/scoring/runs/<id>/cancel/               stop a queued or running run (finished folds are kept) -> 200 the run
POST /api/scoring/runs/<id>/resume/               queue a cancelled or failed run again (missing folds only) -> 200 the run

A worker runs each run; progress is also pushed over ``ws/rounds/<round_id>/scoring/``. A start,
cancel or resume that cannot happen now (too few questions, a run of that kind already going,
already ended) is 409.
"""
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from collector.models import Round, ScoringRun
from collector.presentation.scoring import scoring_run_payload
from collector.selectors.rounds import round_for_manager
from collector.selectors.scoring import scoring_run_for_manager, scoring_runs_of_round
from collector.services.scoring import ScoringRefused, scoring_cancel, scoring_resume, scoring_start
from core.apis import ActionApi, ApiErrorsMixin, Conflict, DetailApi, JobSerializer, ListApi


class ScoringRunSerializer(JobSerializer):
    """A scoring run: ``progress``/``summary`` as on the scoring websocket, ``display`` in words."""

    job_model = ScoringRun

    round_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ScoringRun.Kind.choices)
    folds = serializers.IntegerField()
    trials = serializers.IntegerField()
    seed = serializers.IntegerField()
    base_checkpoint = serializers.CharField()
    config = serializers.DictField(help_text="The fine-tuning settings every fold used")
    questions = serializers.IntegerField()
    summary = serializers.DictField()
    started_at = serializers.DateTimeField(allow_null=True)

    def payload(self, run: ScoringRun) -> dict:
        return {
            **scoring_run_payload(run), "round_id": run.round_id, "folds": run.folds, "trials": run.trials,
            "seed": run.seed, "base_checkpoint": run.base_checkpoint, "config": run.config,
            "questions": len(run.question_ids or ()), "started_at": run.started_at,
        }


class ScoringStartApi(ActionApi):
    """POST to queue cross-validation scoring (or the answer-only baseline) of every question in
    the round now; 409 while a run of that kind is going or with fewer questions than folds."""

    class InputSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=ScoringRun.Kind.choices, default=ScoringRun.Kind.CROSS_VALIDATION)
        # The bounds of ScoringRun.folds / .trials (and of the round page's form).
        folds = serializers.IntegerField(min_value=2, max_value=20, default=5)
        trials = serializers.IntegerField(min_value=1, max_value=10, default=1)
        seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)

    OutputSerializer = ScoringRunSerializer
    lookup = staticmethod(round_for_manager)

    def perform(self, round_: Round, data: dict, user: User) -> ScoringRun:
        try:
            return scoring_start(round_=round_, user=user, **data)
        except ScoringRefused as error:
            raise Conflict(error.message) from None


class ScoringRunListApi(ListApi):
    """GET the round's scoring runs, newest first."""

    OutputSerializer = ScoringRunSerializer

    def items(self, request: Request, round_id: int) -> QuerySet[ScoringRun]:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        return scoring_runs_of_round(round_=round_)


class ScoringRunDetailApi(DetailApi):
    """GET one scoring run: its status, progress (fold, step, time left) and, once done, its summary."""

    OutputSerializer = ScoringRunSerializer
    lookup = staticmethod(scoring_run_for_manager)


class _ScoringRunControlApi(ApiErrorsMixin, APIView):
    """Cancel or resume (``control``) a run: 200 with the run, 409 when it cannot be done now."""

    OutputSerializer = ScoringRunSerializer
    control = staticmethod(scoring_cancel)

    def post(self, request: Request, run_id: int) -> Response:
        run = scoring_run_for_manager(user=request.user, run_id=run_id)
        try:
            run = self.control(run_id=run.pk, user=request.user)
        except ScoringRefused as error:
            raise Conflict(error.message) from None
        return Response(ScoringRunSerializer(run).data)


class ScoringRunCancelApi(_ScoringRunControlApi):
    """POST to cancel the run; the worker stops within about a second, before its next step or fold."""

    control = staticmethod(scoring_cancel)


class ScoringRunResumeApi(_ScoringRunControlApi):
    """POST to queue a cancelled or failed run again; only the folds it has not finished are trained."""

    control = staticmethod(scoring_resume)
