"""LTI records in the admin, read-mostly; the tool's keys are not shown (rotate them with lti_rotate_keys)."""
from django.contrib import admin

from lti.models import ContextLink, GradeSync, LtiIdentity, Platform, ResourceLink


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ("name", "issuer", "client_id", "created_at")
    search_fields = ("name", "issuer", "client_id")


@admin.register(LtiIdentity)
class LtiIdentityAdmin(admin.ModelAdmin):
    list_display = ("user", "platform", "subject", "created_at")
    search_fields = ("subject", "user__username")
    readonly_fields = ("platform", "subject", "user")


@admin.register(ContextLink)
class ContextLinkAdmin(admin.ModelAdmin):
    list_display = ("title", "context_id", "platform", "course", "roster_synced_at")


@admin.register(ResourceLink)
class ResourceLinkAdmin(admin.ModelAdmin):
    list_display = ("title", "resource_link_id", "context", "round", "project", "score_maximum")


@admin.register(GradeSync)
class GradeSyncAdmin(admin.ModelAdmin):
    list_display = ("user", "resource_link", "status", "score_given", "attempts", "updated_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in GradeSync._meta.fields]
