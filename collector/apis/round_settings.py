"""JSON API of a round's settings, for its course's instructors.

GET  /api/rounds/<id>/settings/             dates, weights, live model, scoring settings
POST /api/rounds/<id>/settings/update/      any of those; checked together, all or nothing
POST /api/rounds/<id>/quality/settings/     {validations_required, peer_validation, coach_*, ...}
"""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from collector.models import PeerValidation, Round
from collector.presentation.hardware import precision_note
from collector.selectors.hardware import worker_hardware_latest
from collector.selectors.rounds import round_for_manager
from collector.services.round_settings import (
    QUALITY_SETTING_FIELDS,
    SCORING_LIMITS,
    round_quality_settings_update,
    round_scoring_settings,
    round_update,
)
from core.apis import ActionApi, ApiErrorsMixin, DetailApi
from mlcore.configs import BF16_SETTINGS
from modelhub.apis import UsableModelField
from modelhub.selectors import LIVE_MODEL_KINDS, live_model_choices


class Bf16SettingField(serializers.ChoiceField):
    """``auto``, ``on`` or ``off``; the booleans of the old setting are still accepted as on/off."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("help_text", "auto: bfloat16 only where the worker's CPU computes it natively "
                                       "(see precision); on: always; off: float32. true/false mean on/off.")
        super().__init__(choices=BF16_SETTINGS, **kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or data in ("true", "True", "false", "False"):
            data = "on" if data in (True, "true", "True") else "off"
        return super().to_internal_value(data)


class ScoringSettingsSerializer(serializers.Serializer):
    """The scoring (fine-tuning) settings an instructor may change; see ``services/round_settings.py``."""

    epochs = serializers.IntegerField(required=False, min_value=SCORING_LIMITS["epochs"][0],
                                      max_value=SCORING_LIMITS["epochs"][1])
    learning_rate = serializers.FloatField(required=False, min_value=SCORING_LIMITS["learning_rate"][0],
                                           max_value=SCORING_LIMITS["learning_rate"][1])
    batch_size = serializers.IntegerField(required=False, min_value=SCORING_LIMITS["batch_size"][0],
                                          max_value=SCORING_LIMITS["batch_size"][1])
    max_length = serializers.IntegerField(required=False, min_value=SCORING_LIMITS["max_length"][0],
                                          max_value=SCORING_LIMITS["max_length"][1])
    freeze_layers = serializers.IntegerField(required=False, min_value=SCORING_LIMITS["freeze_layers"][0],
                                             max_value=SCORING_LIMITS["freeze_layers"][1])
    bf16 = Bf16SettingField(required=False)
    threads = serializers.IntegerField(required=False, min_value=SCORING_LIMITS["threads"][0],
                                       max_value=SCORING_LIMITS["threads"][1],
                                       help_text="0: every CPU the worker may use")


class PrecisionNoteSerializer(serializers.Serializer):
    """What the bf16 setting resolves to on the workers that reported their hardware."""

    text = serializers.CharField(help_text="e.g. 'auto → float32 (AVX2, no native bfloat16) on worker w1.'")
    warning = serializers.CharField(help_text="Set when bfloat16 is forced on where a worker emulates it")


class RoundSettingsSerializer(serializers.Serializer):
    """A round's settings as its settings page shows them, with the models it may serve."""

    title = serializers.CharField()
    instructions = serializers.CharField()
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    weight_live = serializers.FloatField()
    weight_cv = serializers.FloatField()
    live_model = serializers.IntegerField(allow_null=True)
    base_checkpoint = serializers.CharField()
    scoring = ScoringSettingsSerializer()
    precision = PrecisionNoteSerializer()
    live_model_choices = serializers.ListField(child=serializers.DictField())

    def to_representation(self, round_: Round):
        scoring = round_scoring_settings(round_=round_)
        user = self.context["request"].user  # the choices are the models this user may serve
        return super().to_representation({
            **{name: getattr(round_, name) for name in ("title", "instructions", "opens_at", "closes_at",
                                                         "weight_live", "weight_cv", "base_checkpoint")},
            "live_model": round_.live_model_id,
            "scoring": scoring,
            "precision": precision_note(
                setting=scoring["bf16"], reports=worker_hardware_latest()).as_dict(),
            "live_model_choices": [{"id": m.pk, "name": m.name, "kind": m.kind}
                                   for m in live_model_choices(user=user, course_id=round_.course_id)],
        })


class RoundSettingsApi(DetailApi):
    """GET the round's settings; its instructors only."""

    OutputSerializer = RoundSettingsSerializer
    lookup = staticmethod(round_for_manager)


class RoundSettingsUpdateApi(ActionApi):
    """POST the settings to change (any subset; scoring settings too); they are checked together
    and saved all or nothing. New scoring settings apply to the next scoring run."""

    success_status = 200

    class InputSerializer(serializers.Serializer):
        title = serializers.CharField(max_length=200, required=False, allow_blank=True)
        instructions = serializers.CharField(required=False, allow_blank=True)
        opens_at = serializers.DateTimeField(required=False, allow_null=True)
        closes_at = serializers.DateTimeField(required=False, allow_null=True)
        weight_live = serializers.FloatField(required=False, min_value=0.0)
        weight_cv = serializers.FloatField(required=False, min_value=0.0)
        live_model = UsableModelField(kinds=LIVE_MODEL_KINDS, required=False,
                                      help_text="Id of a multiple-choice or zero-shot model version this user may "
                                                "use (GET /api/models/)")
        base_checkpoint = serializers.CharField(max_length=500, required=False, allow_blank=True)
        scoring = ScoringSettingsSerializer(required=False)

    OutputSerializer = RoundSettingsSerializer
    lookup = staticmethod(round_for_manager)

    def perform(self, round_: Round, data: dict, user: User) -> Round:
        return round_update(round_=round_, user=user, **data)


class RoundQualitySettingsUpdateApi(ApiErrorsMixin, APIView):
    """POST the round's validation and coach settings to change (any subset; the others stay).
    Lowering ``validations_required`` accepts pending questions that now have enough agreement."""

    success_status = 200
    FIELDS = QUALITY_SETTING_FIELDS

    class InputSerializer(serializers.Serializer):
        validations_required = serializers.IntegerField(required=False, min_value=1, max_value=10)
        peer_validation = serializers.ChoiceField(choices=PeerValidation.choices, required=False)
        credit_requires_acceptance = serializers.BooleanField(required=False)
        coach_answer_only = serializers.BooleanField(required=False)
        coach_words = serializers.BooleanField(required=False)
        coach_length = serializers.BooleanField(required=False)
        coach_duplicates = serializers.BooleanField(required=False)

    class OutputSerializer(InputSerializer):
        pass

    def post(self, request: Request, round_id: int) -> Response:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        current = {name: getattr(round_, name) for name in self.FIELDS}
        round_ = round_quality_settings_update(round_=round_,
                                                                   **{**current, **serializer.validated_data})
        return Response({name: getattr(round_, name) for name in self.FIELDS})
