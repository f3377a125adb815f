"""JSON API of a round's training jobs (the next live model), for its course's instructors.

POST /api/rounds/<id>/training/start/             {name, make_live_round_id} -> 201 the queued job
GET  /api/rounds/<id>/training/jobs/              the round's training jobs, newest first
GET  /api/training/jobs/<id>/                     one job: status, progress, error, the model made

A worker runs each job; progress is also pushed over ``ws/rounds/<round_id>/scoring/``.
"""
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request

from accounts.models import User
from collector.models import Round, TrainingJob
from collector.presentation.training import training_job_payload
from collector.selectors.rounds import round_for_manager
from collector.selectors.training import training_job_for_manager, training_jobs_of_round
from collector.services.training import training_job_start
from core.apis import MAX_ID, ActionApi, DetailApi, JobSerializer, ListApi


class TrainingJobSerializer(JobSerializer):
    """A training job: ``progress`` as its worker reports it (epoch, step, time left), ``display`` in
    words as on the round page and its websocket."""

    job_model = TrainingJob

    round_id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TrainingJob.Kind.choices,
                                   help_text="next_model (the round page's button) or answer_only (the coach's model)")
    name = serializers.CharField(help_text="Name of the model version it registers")
    make_live_round_id = serializers.IntegerField(allow_null=True)
    model_version = serializers.CharField(allow_null=True, help_text="The registered model, once done")

    def payload(self, job: TrainingJob) -> dict:
        return {
            **training_job_payload(job), "round_id": job.round_id, "kind": job.kind,
            "make_live_round_id": job.make_live_round_id,
            "model_version": job.model_version.name if job.model_version else None,
        }


class TrainingStartApi(ActionApi):
    """POST to queue training a new live model on every question of this round and the course's
    earlier rounds; optionally it then becomes the live model of ``make_live_round_id`` (a round of
    the same course). A name already registered or being trained is refused."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, help_text="Name of the new model version")
        make_live_round_id = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                                      allow_null=True, default=None)

    OutputSerializer = TrainingJobSerializer
    lookup = staticmethod(round_for_manager)

    def perform(self, round_: Round, data: dict, user: User) -> TrainingJob:
        live_id = data["make_live_round_id"]
        live_round = None if live_id is None else round_for_manager(user=user, round_id=live_id)
        return training_job_start(round_=round_, name=data["name"], make_live_round=live_round, user=user)


class TrainingJobListApi(ListApi):
    """GET the training jobs started from the round, newest first."""

    OutputSerializer = TrainingJobSerializer

    def items(self, request: Request, round_id: int) -> QuerySet[TrainingJob]:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        return training_jobs_of_round(round_=round_)


class TrainingJobDetailApi(DetailApi):
    """GET one training job: status, progress (epoch, step, time left), error, the model it made."""

    OutputSerializer = TrainingJobSerializer
    lookup = staticmethod(training_job_for_manager)
