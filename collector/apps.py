from django.apps import AppConfig


class CollectorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "collector"
    verbose_name = "Adversarial question collection"

    def ready(self) -> None:
        # The start address, the site's menu and the courses app's pages lead to the collector's pages through
        # core.registry: core and courses cannot import collector.
        from collector import panels
        from core.registry import register_parts

        register_parts(links=panels.LINKS)
