from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import User


@admin.register(User)
class StumperUserAdmin(UserAdmin):
    list_display = ("username", "email", "role", "is_staff", "date_joined")
    list_filter = ("role", "is_staff", "is_superuser", "is_active")
    fieldsets = (*UserAdmin.fieldsets, ("Stumper", {"fields": ("role", "sis_user_id", "section")}))
    add_fieldsets = (*UserAdmin.add_fieldsets, ("Stumper", {"fields": ("role",)}))
