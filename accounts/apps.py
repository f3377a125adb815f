from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        # The site's menu (templates/base.html, core's) shows the account links (core.registry).
        from accounts import panels
        from core.registry import register_parts

        register_parts(panels=panels.PANELS, links=panels.LINKS)
