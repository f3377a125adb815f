from collector.tests.web_fixtures import (  # noqa: F401 - fixtures
    broken_model,
    closed_round,
    course,
    crowdworker,
    fake_model,
    instructor,
    other_instructor,
    outsider,
    round_,
    staff,
    student,
)
