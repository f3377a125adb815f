from django.apps import AppConfig


class AnnotationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "annotation"
    verbose_name = "Reading-comprehension span annotation"

    def ready(self) -> None:
        # accounts asks for a crowdworker's language (the reset email) by a signal: it cannot import annotation.
        # The start address and the site's menu lead to the worker's tasks and the projects (core.registry).
        from annotation import panels, receivers  # noqa: F401
        from core.registry import register_parts

        register_parts(links=panels.LINKS)
