from django.contrib import admin

from collector.models import (
    Course,
    Enrollment,
    ModelVersion,
    Prediction,
    Question,
    Round,
)


class EnrollmentInline(admin.TabularInline):
    model = Enrollment
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Course)
class CourseAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "join_code", "created_at")
    search_fields = ("name", "join_code", "owner__username")
    filter_horizontal = ("instructors",)
    inlines = [EnrollmentInline]


@admin.register(Enrollment)
class EnrollmentAdmin(admin.ModelAdmin):
    list_display = ("user", "course", "joined_at")
    list_filter = ("course",)
    search_fields = ("user__username", "course__name")


@admin.register(ModelVersion)
class ModelVersionAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "path", "revision", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "path")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("name", "course", "opens_at", "closes_at", "live_model", "weight_live", "weight_cv")
    list_filter = ("course",)
    search_fields = ("name", "title")


class PredictionInline(admin.TabularInline):
    model = Prediction
    extra = 0
    readonly_fields = ("kind", "status", "model_version", "probs", "predicted_index", "fooled", "attempts", "last_error", "computed_at")
    can_delete = False


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    list_display = ("id", "short_prompt", "author", "round", "correct_index", "source", "created_at")
    list_filter = ("round", "source")
    search_fields = ("prompt", "author__username")
    inlines = [PredictionInline]
    list_per_page = 50

    @admin.display(description="prompt")
    def short_prompt(self, question: Question) -> str:
        return question.prompt[:80]


@admin.register(Prediction)
class PredictionAdmin(admin.ModelAdmin):
    list_display = ("question", "kind", "status", "model_version", "predicted_index", "fooled", "attempts")
    list_filter = ("kind", "status", "fooled", "model_version")
    raw_id_fields = ("question",)
