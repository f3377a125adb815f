"""JSON API of a round for its course's instructors: the round page, its question table, its
settings and its near-duplicates.

GET  /api/rounds/<id>/                      settings, counts, newest scoring runs and training jobs
GET  /api/rounds/<id>/questions/            the question table (?category=&fooled=&author_id=&q=)
GET  /api/rounds/<id>/settings/             dates, weights, live model, scoring settings
POST /api/rounds/<id>/settings/update/      any of those; checked together, all or nothing
GET  /api/rounds/<id>/duplicates/           near-duplicate pairs (?threshold=)
"""
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from collector import duplicates, round_settings, selectors, validation_services, worker_hardware
from collector.apis import PredictionSerializer
from collector.course_apis import RoundSummarySerializer, round_summary
from collector.models import CATEGORY_CHOICES, Round
from collector.presentation import prediction_payload, question_view, scoring_run_payload, training_job_payload
from collector.round_settings import SCORING_LIMITS
from core.apis import MAX_ID, ApiErrorsMixin, ListPagination, paginated
from mlcore.configs import BF16_SETTINGS
from modelhub.selectors import live_model_choices


class RoundDetailApi(ApiErrorsMixin, APIView):
    """GET a round as its page shows it: settings, counts, the newest scoring run of each kind and
    the newest training jobs (for their full history see the scoring and training lists)."""

    class OutputSerializer(RoundSummarySerializer):
        course = serializers.DictField()
        weight_live = serializers.FloatField()
        weight_cv = serializers.FloatField()
        answer_only_model = serializers.CharField(allow_null=True)
        quality = serializers.DictField(help_text="Validation and coach settings (POST .../quality/settings/)")
        stats = serializers.DictField(help_text="As GET /api/rounds/<id>/stats/")
        scoring_runs = serializers.ListField(child=serializers.DictField())
        training_jobs = serializers.ListField(child=serializers.DictField())

        def to_representation(self, round_: Round):
            return serializers.Serializer.to_representation(self, {
                **round_summary(round_),
                "course": {"id": round_.course_id, "name": round_.course.name},
                "weight_live": round_.weight_live, "weight_cv": round_.weight_cv,
                "answer_only_model": round_.answer_only_model.name if round_.answer_only_model else None,
                "quality": {name: getattr(round_, name) for name in validation_services.QUALITY_SETTING_FIELDS},
                "stats": selectors.round_stats(round_=round_),
                "scoring_runs": [scoring_run_payload(run) for run in selectors.scoring_runs_latest(round_=round_)],
                "training_jobs": [training_job_payload(job) for job in selectors.training_jobs_latest(round_=round_)],
            })

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        return Response(self.OutputSerializer(round_).data)


class RoundQuestionListApi(ApiErrorsMixin, APIView):
    """GET the round's questions, newest first, with the live model's answer and the credit each
    earns; filter by category, fooled or not, author and prompt text."""

    Pagination = ListPagination

    class FilterSerializer(serializers.Serializer):
        category = serializers.ChoiceField(choices=CATEGORY_CHOICES, required=False)
        fooled = serializers.BooleanField(required=False, allow_null=True, default=None)
        author_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        q = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        author = serializers.CharField()
        prompt = serializers.CharField()
        choices = serializers.ListField(child=serializers.CharField())
        correct_index = serializers.IntegerField()
        categories = serializers.ListField(child=serializers.CharField())
        status = serializers.CharField()
        source = serializers.CharField()
        created_at = serializers.DateTimeField()
        fooled_cv = serializers.FloatField(allow_null=True, help_text="Share of CV trials fooled; null until scored")
        live_credit = serializers.FloatField()
        cv_credit = serializers.FloatField()
        credit = serializers.FloatField()
        prediction = PredictionSerializer()

        def to_representation(self, question):
            view = question_view(question)
            return super().to_representation({
                "id": question.pk, "author": question.author.username, "prompt": question.prompt,
                "choices": question.choices, "correct_index": question.correct_index,
                "categories": question.categories, "status": question.status, "source": question.source,
                "created_at": question.created_at, "fooled_cv": view.fooled_cv, "live_credit": view.live_credit,
                "cv_credit": view.cv_credit, "credit": view.credit, "prediction": prediction_payload(question),
            })

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        questions = selectors.round_questions(round_=round_, category=data.get("category"), fooled=data["fooled"],
                                              author_id=data.get("author_id"), search=data["q"].strip())
        return paginated(self, request, questions, lambda page: self.OutputSerializer(page, many=True).data)


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
    """The scoring (fine-tuning) settings an instructor may change; see ``round_settings``."""

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
        scoring = round_settings.round_scoring_settings(round_=round_)
        return super().to_representation({
            **{name: getattr(round_, name) for name in ("title", "instructions", "opens_at", "closes_at",
                                                         "weight_live", "weight_cv", "base_checkpoint")},
            "live_model": round_.live_model_id,
            "scoring": scoring,
            "precision": worker_hardware.precision_note(
                setting=scoring["bf16"], reports=worker_hardware.worker_hardware_latest()).as_dict(),
            "live_model_choices": [{"id": m.pk, "name": m.name, "kind": m.kind}
                                   for m in live_model_choices()],
        })


class RoundSettingsApi(ApiErrorsMixin, APIView):
    """GET the round's settings; its instructors only."""

    OutputSerializer = RoundSettingsSerializer

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        return Response(RoundSettingsSerializer(round_).data)


class RoundSettingsUpdateApi(ApiErrorsMixin, APIView):
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
        live_model = serializers.PrimaryKeyRelatedField(queryset=live_model_choices(), required=False,
                                                        help_text="Id of a multiple-choice or zero-shot model version")
        base_checkpoint = serializers.CharField(max_length=500, required=False, allow_blank=True)
        scoring = ScoringSettingsSerializer(required=False)

    OutputSerializer = RoundSettingsSerializer

    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = round_settings.round_update(round_=round_, **serializer.validated_data)
        return Response(RoundSettingsSerializer(round_).data)


class RoundDuplicatesApi(ApiErrorsMixin, APIView):
    """GET pairs of near-duplicate questions with at least one in the round (the other may be in
    another round of the course or imported), most similar first."""

    Pagination = ListPagination

    class FilterSerializer(serializers.Serializer):
        threshold = serializers.FloatField(required=False, min_value=0.1, max_value=1.0,
                                           help_text="Smallest Jaccard similarity of the word sets "
                                                     "(default STUMPER_DUPLICATE_THRESHOLD)")

    class OutputSerializer(serializers.Serializer):
        a = serializers.DictField(help_text="{id, round_id, prompt, choices}")
        b = serializers.DictField(help_text="{id, round_id, prompt, choices}")
        similarity = serializers.FloatField()

    def get(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        pairs = duplicates.round_duplicate_pairs(round_=round_, threshold=filters.validated_data.get("threshold"))
        return paginated(self, request, pairs, lambda page: self.OutputSerializer(page, many=True).data)

