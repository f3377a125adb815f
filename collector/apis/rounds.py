"""JSON API of rounds: a course with its rounds, creating a round, the rounds open to write in, and a
round as its instructors see it (the course itself, its students and the list: courses/apis.py).

GET  /api/courses/<id>/                     a course with its rounds; its instructors
POST /api/courses/<id>/rounds/create/       {name, title, dates, weights, categories, live_model}
GET  /api/rounds/open/                      rounds the user may write questions in now
GET  /api/rounds/<id>/                      settings, counts, newest scoring runs and training jobs
GET  /api/rounds/<id>/questions/            the question table (?category=&fooled=&author_id=&q=)
GET  /api/rounds/<id>/stats/                counts and the latest scoring results
"""
from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from collector.apis.questions import QuestionSerializer
from collector.models import CATEGORY_CHOICES, Question, Round
from collector.presentation.questions import QuestionView
from collector.presentation.scoring import scoring_run_payload
from collector.presentation.training import training_job_payload
from collector.selectors.questions import round_questions
from collector.selectors.rounds import course_rounds, round_for_manager, round_stats, rounds_open_for_author
from collector.selectors.scoring import scoring_runs_latest
from collector.selectors.training import training_jobs_latest
from collector.services.round_settings import QUALITY_SETTING_FIELDS
from collector.services.rounds import round_create
from core.apis import MAX_ID, ActionApi, ApiErrorsMixin, DetailApi, ListApi
from courses.apis import CourseSerializer, course_summary
from courses.models import Course
from courses.selectors import course_detail_for_manager, course_for_manager
from modelhub.apis import UsableModelField
from modelhub.selectors import LIVE_MODEL_KINDS


class RoundSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    course_id = serializers.IntegerField()
    name = serializers.CharField()
    title = serializers.CharField()
    instructions = serializers.CharField()
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    is_open = serializers.BooleanField()
    categories = serializers.ListField(child=serializers.CharField())
    live_model = serializers.CharField(allow_null=True)
    num_questions = serializers.IntegerField(allow_null=True, help_text="Only in a course's list of rounds")

    def to_representation(self, round_: Round):
        return super().to_representation(round_summary(round_))


def round_summary(round_: Round) -> dict:
    return {
        "id": round_.pk, "course_id": round_.course_id, "name": round_.name, "title": round_.title,
        "instructions": round_.instructions, "opens_at": round_.opens_at, "closes_at": round_.closes_at,
        "is_open": round_.is_open(), "categories": list(round_.categories),
        "live_model": round_.live_model.name if round_.live_model else None,
        "num_questions": getattr(round_, "num_questions", None),
    }


class CourseDetailApi(DetailApi):
    """GET a course with its rounds (newest first); its instructors only."""

    lookup = staticmethod(course_detail_for_manager)

    class OutputSerializer(CourseSerializer):
        rounds = RoundSummarySerializer(many=True)

        def to_representation(self, course: Course):
            rounds = course_rounds(course=course)
            return serializers.Serializer.to_representation(self, {**course_summary(course), "rounds": rounds})


class RoundCreateApi(ActionApi):
    """POST a new round of the course; its instructors only. Without ``live_model`` the round
    starts with the default model (version 0)."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100, help_text="A short id without spaces, e.g. fall25-round1")
        title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        instructions = serializers.CharField(required=False, allow_blank=True, default="")
        opens_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        closes_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
        weight_live = serializers.FloatField(min_value=0.0, required=False, default=1.0)
        weight_cv = serializers.FloatField(min_value=0.0, required=False, default=1.0)
        categories = serializers.ListField(child=serializers.ChoiceField(choices=CATEGORY_CHOICES), required=False,
                                           allow_empty=False, max_length=len(CATEGORY_CHOICES),
                                           help_text="Categories authors may tag questions with (default: all)")
        live_model = UsableModelField(
            kinds=LIVE_MODEL_KINDS, required=False, allow_null=True, default=None,
            help_text="Id of a multiple-choice or zero-shot model version this user may use (GET /api/models/)",
        )

    OutputSerializer = RoundSummarySerializer
    lookup = staticmethod(course_for_manager)

    def perform(self, course: Course, data: dict, user: User) -> Round:
        return round_create(course=course, user=user, **data)


class RoundOpenListApi(ListApi):
    """GET the rounds the signed-in user may write questions in now (their dashboard's list)."""

    OutputSerializer = RoundSummarySerializer

    def items(self, request: Request) -> list[Round]:
        return rounds_open_for_author(user=request.user)


class RoundDetailApi(DetailApi):
    """GET a round as its page shows it: settings, counts, the newest scoring run of each kind and
    the newest training jobs (for their full history see the scoring and training lists)."""

    lookup = staticmethod(round_for_manager)

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
                "quality": {name: getattr(round_, name) for name in QUALITY_SETTING_FIELDS},
                "stats": round_stats(round_=round_),
                "scoring_runs": [scoring_run_payload(run) for run in scoring_runs_latest(round_=round_)],
                "training_jobs": [training_job_payload(job) for job in training_jobs_latest(round_=round_)],
            })


class RoundQuestionListApi(ListApi):
    """GET the round's questions, newest first, with the live model's answer and the credit each
    earns; filter by category, fooled or not, author and prompt text."""

    class FilterSerializer(serializers.Serializer):
        category = serializers.ChoiceField(choices=CATEGORY_CHOICES, required=False)
        fooled = serializers.BooleanField(required=False, allow_null=True, default=None)
        author_id = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
        q = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)

    class OutputSerializer(QuestionSerializer):
        author = serializers.CharField()
        status = serializers.CharField()
        source = serializers.CharField()
        fooled_cv = serializers.FloatField(allow_null=True, help_text="Share of CV trials fooled; null until scored")
        live_credit = serializers.FloatField()
        cv_credit = serializers.FloatField()

        def payload(self, question: Question, view: QuestionView) -> dict:
            return {"author": question.author.username, "status": question.status, "source": question.source,
                    "fooled_cv": view.fooled_cv, "live_credit": view.live_credit, "cv_credit": view.cv_credit}

    def items(self, request: Request, round_id: int) -> QuerySet[Question]:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        data = filters.validated_data
        return round_questions(round_=round_, category=data.get("category"), fooled=data["fooled"],
                               author_id=data.get("author_id"), search=data["q"].strip())


class RoundStatsApi(ApiErrorsMixin, APIView):
    """GET a round's counts (questions, authors, categories, fooling rate) and its latest scoring
    results (the two CV accuracies as named in ``collector/presentation/cv_accuracy.py``); course managers only."""

    class OutputSerializer(serializers.Serializer):
        round = serializers.CharField()
        questions = serializers.IntegerField()
        authors = serializers.IntegerField()
        categories = serializers.DictField(child=serializers.IntegerField())
        fooled_live = serializers.IntegerField()
        predicted_live = serializers.IntegerField()
        pending_live = serializers.IntegerField()
        fooling_rate_live = serializers.FloatField(allow_null=True)
        scored_cv = serializers.IntegerField(help_text="Questions with an out-of-fold prediction")
        fooled_cv = serializers.FloatField(help_text="Sum over questions of the share of CV trials fooled")
        cv_accuracy_pooled = serializers.FloatField(
            allow_null=True, help_text="CV accuracy (pooled): correct out-of-fold predictions / (questions x trials)")
        cv_accuracy_mean = serializers.FloatField(
            allow_null=True, help_text="Mean per-fold accuracy (CODAH): unweighted mean over folds, then over trials")
        cv_accuracy_std = serializers.FloatField(allow_null=True, help_text="Sample std of the above over trials")
        cv_smallest_fold = serializers.IntegerField(allow_null=True, help_text="Questions in the smallest fold")
        cv_warning = serializers.CharField(allow_blank=True, help_text="Set when folds are too small to mean much")
        answer_only_accuracy = serializers.FloatField(required=False, allow_null=True)

    def get(self, request: Request, round_id: int) -> Response:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        return Response(self.OutputSerializer(round_stats(round_=round_)).data)
