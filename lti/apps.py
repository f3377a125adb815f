from django.apps import AppConfig


class LtiConfig(AppConfig):
    name = "lti"
    verbose_name = "LTI 1.3 (use from an LMS)"

    def ready(self) -> None:
        # Grade passback listens to the signals of collector (credit) and annotation (a worker's progress),
        # collector's grade files name a round's students and column as the LMS does, and the round, project
        # and course pages show the LMS panels (core.registry); neither app can import lti.
        from core.registry import register_gradebook, register_parts
        from lti import panels, receivers  # noqa: F401
        from lti.selectors import round_gradebook

        register_gradebook(round_gradebook)
        register_parts(panels=panels.PANELS)
