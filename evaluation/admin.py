import json

from django.contrib import admin
from django.utils.html import format_html

from evaluation.models import AmbiguityDataset, EvaluationRun


@admin.register(EvaluationRun)
class EvaluationRunAdmin(admin.ModelAdmin):
    """Read-only: runs are created and computed by the evaluation services; old ones may be deleted."""

    list_display = ("id", "target", "round", "status", "model_version", "short_digest", "created_by", "created_at",
                    "finished_at")
    list_filter = ("status", "target", "round__course")
    search_fields = ("round__name", "round__title", "created_by__username", "snapshot_digest")
    date_hierarchy = "created_at"
    list_select_related = ("round", "model_version", "created_by")
    list_per_page = 50
    fields = ("target", "round", "status", "error", "config", "model_version", "model_revision", "snapshot_digest",
              "snapshot_summary", "progress", "sections", "created_by", "created_at", "started_at", "finished_at",
              "heartbeat_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="data digest")
    def short_digest(self, run: EvaluationRun) -> str:
        return run.snapshot_digest[:12]

    @admin.display(description="snapshot")
    def snapshot_summary(self, run: EvaluationRun) -> str:
        snapshot = run.snapshot or {}
        return (f"{len(snapshot.get('question_ids', []))} question(s); cross-validation run "
                f"{snapshot.get('cv_run_id') or '—'}; answer-only run {snapshot.get('answer_only_run_id') or '—'}; "
                f"taken {snapshot.get('taken_at', '—')}")

    @admin.display(description="sections")
    def sections(self, run: EvaluationRun) -> str:
        names = ", ".join(sorted(run.result or {})) or "—"
        size = len(json.dumps(run.result or {}))
        return format_html("{} <span class='help'>({} bytes of JSON)</span>", names, size)


@admin.register(AmbiguityDataset)
class AmbiguityDatasetAdmin(admin.ModelAdmin):
    """Read-only: uploads are validated and stored by evaluation/services/ambiguity_datasets.py; they may be deleted."""

    list_display = ("id", "project", "kind", "name", "items", "script", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "project__name", "sha256")
    list_select_related = ("project", "created_by")
    fields = ("project", "kind", "name", "items", "script", "sha256", "created_by", "created_at", "content")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
