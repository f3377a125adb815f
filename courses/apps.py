from django.apps import AppConfig


class CoursesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "courses"
    verbose_name = "Courses and enrolment"

    def ready(self) -> None:
        # The site's menu and the sign-in page (core's and accounts') show the course links (core.registry).
        from core.registry import register_parts
        from courses import panels

        register_parts(panels=panels.PANELS, links=panels.LINKS)
