"""JSON API to cancel and resume a scoring run, for its course's instructors.

POST /api/scoring/runs/<id>/cancel/   stop a queued or running run (finished folds are kept) -> 200 the run
POST /api/scoring/runs/<id>/resume/   queue a cancelled or failed run again (missing folds only) -> 200 the run

A run that cannot be cancelled or resumed now (already ended; another run of its kind active) is 409.
"""
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import job_selectors, scoring, scoring_control
from collector.apis import ApiErrorsMixin
from collector.job_apis import ScoringRunSerializer


class ScoringRunCancelApi(ApiErrorsMixin, APIView):
    """POST to cancel the run; the worker stops within about a second, before its next step or fold."""

    OutputSerializer = ScoringRunSerializer

    def post(self, request: Request, run_id: int) -> Response:
        run = job_selectors.scoring_run_for_manager(user=request.user, run_id=run_id)
        try:
            run = scoring_control.scoring_cancel(run_id=run.pk, user=request.user)
        except scoring.ScoringRefused as error:
            return Response({"detail": error.message}, status=status.HTTP_409_CONFLICT)
        return Response(ScoringRunSerializer(run).data)


class ScoringRunResumeApi(ApiErrorsMixin, APIView):
    """POST to queue a cancelled or failed run again; only the folds it has not finished are trained."""

    OutputSerializer = ScoringRunSerializer

    def post(self, request: Request, run_id: int) -> Response:
        run = job_selectors.scoring_run_for_manager(user=request.user, run_id=run_id)
        try:
            run = scoring_control.scoring_resume(run_id=run.pk, user=request.user)
        except scoring.ScoringRefused as error:
            return Response({"detail": error.message}, status=status.HTTP_409_CONFLICT)
        return Response(ScoringRunSerializer(run).data)
