from django.apps import AppConfig


class InboxConfig(AppConfig):
    """The instructor's start page: what waits for them across courses and projects (no models)."""

    name = "inbox"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The start address and the site's menu lead here (core.registry): core cannot import inbox.
        from core.registry import register_parts
        from inbox import panels

        register_parts(links=panels.LINKS)
