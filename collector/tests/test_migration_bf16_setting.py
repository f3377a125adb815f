"""The migration turning the boolean bf16 scoring setting into auto | on | off."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("collector", "0006_worker_hardware")]
AFTER = [("collector", "0007_bf16_setting_auto_on_off")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_false_stays_off_true_becomes_auto_and_finished_runs_keep_their_record(course):
    apps = _migrate(BEFORE)
    Round = apps.get_model("collector", "Round")
    ScoringRun = apps.get_model("collector", "ScoringRun")
    rounds = [Round.objects.create(course_id=course.pk, name=f"m{i}", scoring_config=config)
              for i, config in enumerate([{"bf16": False, "epochs": 3}, {"bf16": True}, {"epochs": 2}])]
    queued = ScoringRun.objects.create(round_id=rounds[0].pk, config={"bf16": True, "epochs": 4}, status="queued")
    done = ScoringRun.objects.create(round_id=rounds[0].pk, config={"bf16": True, "epochs": 4}, status="done")
    try:
        apps = _migrate(AFTER)
        Round, ScoringRun = apps.get_model("collector", "Round"), apps.get_model("collector", "ScoringRun")
        assert [Round.objects.get(pk=r.pk).scoring_config for r in rounds] == [
            {"bf16": "off", "epochs": 3}, {"bf16": "auto"}, {"epochs": 2}]
        assert ScoringRun.objects.get(pk=queued.pk).config == {"bf16": "auto", "epochs": 4}
        assert ScoringRun.objects.get(pk=done.pk).config == {"bf16": True, "epochs": 4}
        apps = _migrate(BEFORE)  # and back
        Round = apps.get_model("collector", "Round")
        assert [Round.objects.get(pk=r.pk).scoring_config for r in rounds] == [
            {"bf16": False, "epochs": 3}, {"bf16": True}, {"epochs": 2}]
    finally:
        _migrate(_latest())


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()  # every app: going back unapplied the migrations that depend on collector
