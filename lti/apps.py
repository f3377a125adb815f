from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = "LTI 1.3 (use from an LMS)"

    def ready(self) -> None:
        # Grade passback listens to the signals of collector (credit) and annotation (a worker's progress);
        # neither can import lti.
        from lti import receivers  # noqa: F401
