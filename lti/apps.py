from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = "LTI 1.3 (use from an LMS)"

    def ready(self) -> None:
        # Grade passback listens to the collector's "credit changed" signal (collector cannot import lti).
        from lti import receivers  # noqa: F401
