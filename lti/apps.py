from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = "LTI 1.3 (use from an LMS)"

    def ready(self) -> None:
        # Grade passback listens to the signals of collector (credit) and annotation (a worker's progress),
        # and collector's grade files name a round's students and column as the LMS does (core.registry);
        # neither app can import lti.
        from core.registry import register_gradebook
        from lti import receivers  # noqa: F401
        from lti.selectors import round_gradebook

        register_gradebook(round_gradebook)
