"""JSON API of the model registry, for instructors: the models they may use, and sharing their course's.

GET  /api/models/                       the models the signed-in instructor may see and serve
                                        (public, shared, their courses'), newest first; ?kind=
POST /api/models/<id>/share/            {shared: bool}: share the course's model with every instructor,
                                        or take it back; its course's instructors only
"""
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request

from core.apis import ActionApi, ListApi
from core.exceptions import AccessError
from modelhub.models import ModelVersion
from modelhub.selectors import model_version_for_user, models_usable_by
from modelhub.services import model_version_share


def _instructor_only(*, user) -> None:
    # Students and crowdworkers choose no models; the message is the courses pages' own.
    if not user.is_instructor:
        raise AccessError("Only instructors can see the model registry.")


class UsableModelField(serializers.PrimaryKeyRelatedField):
    """A model version's id, among those the requesting user may use (``models_usable_by``, of
    ``kinds``): another course's model is "does not exist", as a missing one is. The serializer needs
    ``context={"request": ...}`` (``core.apis.ActionApi`` gives it)."""

    def __init__(self, *, kinds=None, **kwargs) -> None:
        self.kinds = kinds
        # ``queryset`` only tells the schema the id's type; ``get_queryset`` is what is checked.
        super().__init__(queryset=ModelVersion.objects.all(), **kwargs)

    def get_queryset(self) -> QuerySet[ModelVersion]:
        request = self.context.get("request")
        return models_usable_by(user=getattr(request, "user", None), kinds=self.kinds)


class ModelVersionSerializer(serializers.Serializer):
    """A registered model as the registry lists it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=ModelVersion.Kind.choices)
    revision = serializers.CharField()
    description = serializers.CharField()
    metrics = serializers.DictField()
    course = serializers.DictField(allow_null=True, help_text="{id, name} of the course it was trained for; "
                                                             "null: public (packaged or registered by the operator)")
    shared = serializers.BooleanField(help_text="Shared by its course with every instructor")
    created_at = serializers.DateTimeField()

    def to_representation(self, version: ModelVersion):
        course = {"id": version.course_id, "name": version.course.name} if version.course_id else None
        return super().to_representation({
            **{name: getattr(version, name) for name in ("id", "name", "kind", "revision", "description", "metrics",
                                                        "shared", "created_at")},
            "course": course,
        })


class ModelVersionListApi(ListApi):
    """GET the models the signed-in instructor may see and serve in their rounds, newest first."""

    class FilterSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(choices=ModelVersion.Kind.choices, required=False)

    OutputSerializer = ModelVersionSerializer

    def items(self, request: Request) -> QuerySet[ModelVersion]:
        _instructor_only(user=request.user)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        kind = filters.validated_data.get("kind")
        return models_usable_by(user=request.user, kinds=None if kind is None else [kind])


class ModelVersionShareApi(ActionApi):
    """POST ``{shared: true}`` to let every instructor see and serve the course's model, ``false`` to
    take it back (rounds already serving it keep it); its course's instructors only."""

    success_status = 200

    class InputSerializer(serializers.Serializer):
        shared = serializers.BooleanField()

    OutputSerializer = ModelVersionSerializer

    @staticmethod
    def lookup(*, user, model_id: int) -> ModelVersion:
        _instructor_only(user=user)
        return model_version_for_user(user=user, model_id=model_id)

    def perform(self, version: ModelVersion, data: dict, user) -> ModelVersion:
        return model_version_share(model_id=version.pk, user=user, shared=data["shared"])
