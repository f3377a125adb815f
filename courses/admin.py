from django.contrib import admin

from courses.models import Course, Enrollment


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
