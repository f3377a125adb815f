"""LTI records in the admin, read-mostly; the tool's keys are not shown (rotate them with lti_rotate_keys)."""
from django.contrib import admin
from django.db import models

from lti.models import ContextLink, GradeSync, LtiIdentity, Platform, ResourceLink
from lti.selectors import platform_may_manage


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    """As the settings page and the API: a staff member who is not a superuser sees and changes only the
    registrations they made; a new one is theirs. The model's ``clean`` applies the URL rules here too."""

    list_display = ("name", "issuer", "client_id", "created_by", "created_at")
    search_fields = ("name", "issuer", "client_id")
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("created_by")
        return queryset if request.user.is_superuser else queryset.filter(created_by=request.user)

    def get_readonly_fields(self, request, obj=None):
        # Only a superuser hands a registration to someone else; issuer and client id name its users.
        owner = () if request.user.is_superuser else ("created_by",)
        return (*owner, "issuer", "client_id") if obj is not None else owner

    def save_model(self, request, obj, form, change):
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (obj is None or platform_may_manage(request.user, obj))

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and (obj is None or platform_may_manage(request.user, obj))


class OwnPlatformsOnly:
    """The records of the registrations a staff member made (all for a superuser), as ``PlatformAdmin``."""

    platform_path = "platform"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.platform_path}__created_by": request.user})


@admin.register(LtiIdentity)
class LtiIdentityAdmin(OwnPlatformsOnly, admin.ModelAdmin):
    list_display = ("user", "platform", "subject", "created_at")
    search_fields = ("subject", "user__username")
    readonly_fields = ("platform", "subject", "user")


@admin.register(ContextLink)
class ContextLinkAdmin(OwnPlatformsOnly, admin.ModelAdmin):
    list_display = ("title", "context_id", "platform", "course", "roster_synced_at")


@admin.register(ResourceLink)
class ResourceLinkAdmin(OwnPlatformsOnly, admin.ModelAdmin):
    platform_path = "context__platform"
    list_display = ("title", "resource_link_id", "context", "round", "project", "score_maximum")


@admin.register(GradeSync)
class GradeSyncAdmin(OwnPlatformsOnly, admin.ModelAdmin):
    platform_path = "resource_link__context__platform"
    list_display = ("user", "resource_link", "status", "score_given", "attempts", "updated_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in GradeSync._meta.fields]
