from django.apps import AppConfig


class ModelhubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "modelhub"
    verbose_name = "Model registry and inference"
