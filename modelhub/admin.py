from django.contrib import admin

from modelhub.models import ModelVersion


@admin.register(ModelVersion)
class ModelVersionAdmin(admin.ModelAdmin):
    # Staff see every model; ``course`` and ``shared`` say who else may (modelhub.selectors.models_usable_by).
    list_display = ("name", "kind", "course", "shared", "path", "revision", "created_at")
    list_filter = ("kind", "shared")
    list_select_related = ("course",)
    search_fields = ("name", "path", "course__name")
