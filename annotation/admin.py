"""Admin pages for the annotation data; answer spans are checked against their paragraph on save."""
from django.contrib import admin

from annotation.models import (
    AnnotationSession,
    Article,
    Paragraph,
    Project,
    QuestionFlag,
    SecondPassAnswer,
    SpanAnswer,
    SpanQuestion,
)


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ("name", "language", "owner", "is_active", "qa_model", "overlap", "created_at")
    list_filter = ("language", "is_active")
    search_fields = ("name", "owner__username")
    autocomplete_fields = ("owner",)
    fieldsets = (
        (None, {"fields": ("name", "language", "owner", "is_active", "instructions")}),
        ("Authoring", {"fields": ("questions_min", "questions_max", "minutes_per_paragraph", "overlap",
                                  "second_pass_answers")}),
        ("Model in the loop", {"fields": ("qa_model", "fool_f1_threshold")}),
        ("Passages and splits", {"fields": ("pagerank_damping", "top_articles", "paragraphs_per_article",
                                            "paragraph_min_chars", "paragraph_max_chars", "train_ratio",
                                            "validation_ratio", "test_ratio", "split_seed")}),
    )


@admin.register(Article)
class ArticleAdmin(admin.ModelAdmin):
    list_display = ("title", "project", "split", "rank", "pagerank", "has_infobox")
    list_filter = ("project", "split")
    search_fields = ("title",)
    list_select_related = ("project",)


@admin.register(Paragraph)
class ParagraphAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "position", "article")
    list_filter = ("status", "article__split", "article__project")
    search_fields = ("context", "article__title")
    list_select_related = ("article",)
    raw_id_fields = ("article",)


class SpanAnswerInline(admin.TabularInline):
    model = SpanAnswer
    extra = 0
    fields = ("text", "answer_start", "kind", "position", "author")
    raw_id_fields = ("author",)


@admin.register(SpanQuestion)
class SpanQuestionAdmin(admin.ModelAdmin):
    list_display = ("qid", "question", "is_impossible", "status", "source", "author", "fooled_model")
    list_filter = ("status", "source", "is_impossible", "fooled_model", "project")
    search_fields = ("qid", "question", "author__username")
    list_select_related = ("author", "project")
    raw_id_fields = ("paragraph", "session", "author")
    readonly_fields = ("qa_model_version", "qa_model_revision", "qa_prediction_text", "qa_prediction_start",
                       "qa_prediction_f1", "fooled_model", "created_at", "updated_at")
    inlines = [SpanAnswerInline]


@admin.register(AnnotationSession)
class AnnotationSessionAdmin(admin.ModelAdmin):
    list_display = ("id", "worker", "paragraph", "kind", "status", "discard_reason", "started_at", "submitted_at")
    list_filter = ("kind", "status", "discard_reason")
    search_fields = ("worker__username",)
    list_select_related = ("worker", "paragraph__article")
    raw_id_fields = ("paragraph", "worker")


@admin.register(SecondPassAnswer)
class SecondPassAnswerAdmin(admin.ModelAdmin):
    """Read-only: a blind answer is final (human performance and extra gold answers rest on it)."""

    list_display = ("question", "worker", "is_impossible", "text", "created_at")
    list_filter = ("is_impossible",)
    search_fields = ("question__qid", "worker__username", "text")
    raw_id_fields = ("question", "session", "worker", "span")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(QuestionFlag)
class QuestionFlagAdmin(admin.ModelAdmin):
    list_display = ("question", "proposal", "after_reveal", "status", "raised_by", "resolved_by", "created_at")
    list_filter = ("status", "proposal", "after_reveal")
    search_fields = ("question__qid", "question__question", "raised_by__username", "reason")
    raw_id_fields = ("question", "raised_by", "session", "resolved_by")
    readonly_fields = ("resolved_at",)
