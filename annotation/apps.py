from django.apps import AppConfig


class AnnotationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "annotation"
    verbose_name = "Reading-comprehension span annotation"

    def ready(self) -> None:
        # accounts asks for a crowdworker's language (the reset email) by a signal: it cannot import annotation.
        from annotation import receivers  # noqa: F401
