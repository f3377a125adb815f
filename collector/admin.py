from django.contrib import admin

from collector.models import (
    Appeal,
    CoachWarning,
    DuplicateFlag,
    Prediction,
    Question,
    ReviewDecision,
    Round,
    Validation,
)


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


class ValidationInline(admin.TabularInline):
    model = Validation
    extra = 0
    fields = ("validator", "chosen_index", "is_correct", "flags", "categories", "comment", "seconds_spent", "created_at")
    readonly_fields = fields
    can_delete = False


class ReviewDecisionInline(admin.TabularInline):
    model = ReviewDecision
    extra = 0
    fields = ("created_at", "action", "reviewer", "reason")
    readonly_fields = fields
    can_delete = False


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    list_display = ("id", "short_prompt", "author", "round", "correct_index", "status", "source", "created_at")
    list_filter = ("status", "round", "source")
    search_fields = ("prompt", "author__username")
    # Status changes go through the review page (services/reviews.py), which records them.
    readonly_fields = ("status", "review_reason", "rejection_reason", "decided_at")
    inlines = [PredictionInline, ValidationInline, ReviewDecisionInline]
    list_per_page = 50

    @admin.display(description="prompt")
    def short_prompt(self, question: Question) -> str:
        return question.prompt[:80]


@admin.register(Prediction)
class PredictionAdmin(admin.ModelAdmin):
    list_display = ("question", "kind", "status", "model_version", "predicted_index", "fooled", "attempts")
    list_filter = ("kind", "status", "fooled", "model_version")
    raw_id_fields = ("question",)


@admin.register(Validation)
class ValidationAdmin(admin.ModelAdmin):
    list_display = ("question", "validator", "chosen_index", "is_correct", "flags", "seconds_spent", "created_at")
    list_filter = ("is_correct", "question__round")
    search_fields = ("validator__username", "question__prompt")
    raw_id_fields = ("question", "validator")
    date_hierarchy = "created_at"


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(admin.ModelAdmin):
    list_display = ("question", "action", "reviewer", "short_reason", "created_at")
    list_filter = ("action", "question__round")
    search_fields = ("question__prompt", "reason", "reviewer__username")
    raw_id_fields = ("question", "reviewer")

    @admin.display(description="reason")
    def short_reason(self, decision: ReviewDecision) -> str:
        return decision.reason[:80]


@admin.register(Appeal)
class AppealAdmin(admin.ModelAdmin):
    list_display = ("question", "author", "status", "created_at", "decided_by", "decided_at")
    list_filter = ("status", "question__round")
    search_fields = ("message", "response", "author__username")
    raw_id_fields = ("question", "author", "decided_by")


@admin.register(DuplicateFlag)
class DuplicateFlagAdmin(admin.ModelAdmin):
    list_display = ("question", "similar_to", "similarity", "created_at")
    list_filter = ("question__round",)
    raw_id_fields = ("question", "similar_to")


@admin.register(CoachWarning)
class CoachWarningAdmin(admin.ModelAdmin):
    list_display = ("kind", "author", "round", "question", "present_at_submit", "first_shown_at")
    list_filter = ("kind", "present_at_submit", "round")
    search_fields = ("author__username",)
    raw_id_fields = ("author", "question")
