from django.apps import AppConfig


class InboxConfig(AppConfig):
    """The instructor's start page: what waits for them across courses and projects (no models)."""

    name = "inbox"
    default_auto_field = "django.db.models.BigAutoField"
