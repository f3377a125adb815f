from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "evaluation"
    verbose_name = "Bias benchmarks and reports"

    def ready(self) -> None:
        # The round page and the project dashboard link to their report and draw the export and release
        # forms (core.registry); collector and annotation cannot import evaluation.
        from core.registry import register_parts
        from evaluation import panels

        register_parts(panels=panels.PANELS, links=panels.LINKS)
