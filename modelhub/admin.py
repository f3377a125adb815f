from django.contrib import admin

from modelhub.models import ModelVersion


@admin.register(ModelVersion)
class ModelVersionAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "path", "revision", "created_at")
    list_filter = ("kind",)
    search_fields = ("name", "path")
