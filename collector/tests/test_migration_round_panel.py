"""The migration giving every existing round the panel of one shown model, its live model."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# modelhub too: the historical ModelVersion must match the table (its options column is modelhub/0003's).
BEFORE = [("collector", "0015_scoring_fold_claims"), ("modelhub", "0002_modelversion_course_and_shared")]
AFTER = [("collector", "0016_round_panel_and_submission_verdicts"),
         ("modelhub", "0003_modelversion_options_and_language_model_kinds")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_each_round_gets_one_shown_member_its_live_model_and_nothing_else_changes(course):
    apps = _migrate(BEFORE)
    Round, ModelVersion = apps.get_model("collector", "Round"), apps.get_model("modelhub", "ModelVersion")
    live = ModelVersion.objects.create(name="m-live", kind="multiple_choice", path="/m")
    with_model = Round.objects.create(course_id=course.pk, name="with", live_model_id=live.pk, weight_live=2.5)
    without = Round.objects.create(course_id=course.pk, name="without")
    try:
        apps = _migrate(AFTER)
        Round, Member = apps.get_model("collector", "Round"), apps.get_model("collector", "RoundPanelMember")
        rows = list(Member.objects.values_list("round_id", "model_version_id", "position", "role", "weight"))
        assert rows == [(with_model.pk, live.pk, 0, "shown", 1)]  # a round on the default model keeps none
        migrated = Round.objects.get(pk=with_model.pk)
        assert (migrated.live_model_id, migrated.weight_live, migrated.credit_rule, migrated.credit_k) == (
            live.pk, 2.5, "any", 1)
        assert Round.objects.get(pk=without.pk).live_model_id is None
        apps = _migrate(BEFORE)  # and back
        assert apps.get_model("collector", "Round").objects.count() == 2
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
