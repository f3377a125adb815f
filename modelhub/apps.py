from django.apps import AppConfig


class ModelhubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "modelhub"
    verbose_name = "Model registry and inference"

    def ready(self) -> None:
        from core.metrics import register_collector
        from modelhub.metrics import inference_queue_metrics

        register_collector(inference_queue_metrics)
