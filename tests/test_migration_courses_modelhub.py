"""A database made before courses and modelhub existed migrates forward and keeps every row.

Course, Enrollment and ModelVersion moved out of the collector app with their tables
(``SeparateDatabaseAndState`` + ``db_table``): nothing is copied, ids stay, every foreign key that
pointed at them still does, and their content types follow them. Runs on SQLite and, in the
test command's second pass, on PostgreSQL.
"""
import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from annotation.models import Project
from collector.models import Prediction, Round
from courses.models import Course as NewCourse
from evaluation.models import EvaluationRun
from modelhub.models import ModelVersion as NewModelVersion

# Found by name: the numbers may change at merge.
MOVES = {"collector": "house_courses_and_models_in_their_apps", "annotation": "house_modelversion_in_modelhub",
         "evaluation": "house_modelversion_in_modelhub"}


def _targets() -> tuple[list, list]:
    """(the schema before the move, the latest migration of every app)."""
    graph = MigrationExecutor(connection).loader.graph
    before = [("courses", None), ("modelhub", None)]
    for app, suffix in MOVES.items():
        (node,) = [key for key in graph.nodes if key[0] == app and key[1].endswith(suffix)]
        before += [parent.key for parent in graph.node_map[node].parents if parent.key[0] == app]
    return before, graph.leaf_nodes()


def _migrate(targets: list) -> None:
    MigrationExecutor(connection).migrate(targets)


def _old_apps(before: list):
    loader = MigrationExecutor(connection).loader
    return loader.project_state([key for key in before if key[1] is not None]).apps


@pytest.mark.django_db(transaction=True)
def test_courses_enrolments_and_model_versions_keep_their_rows_ids_and_links(instructor, student):
    before, latest = _targets()
    _migrate(before)
    old = _old_apps(before)
    Course, Enrollment, ModelVersion = (old.get_model("collector", n) for n in ("Course", "Enrollment", "ModelVersion"))
    base = ModelVersion.objects.create(name="v0", kind="zero_shot_embedding", path="packaged:all-MiniLM-L6-v2")
    tuned = ModelVersion.objects.create(name="v1", kind="multiple_choice", path="/models/v1", revision="abc", base=base)
    qa = ModelVersion.objects.create(name="qa1", kind="question_answering", path="/models/qa1")
    course = Course.objects.create(name="Old course", join_code="OLDCODE2", owner_id=instructor.pk)
    course.instructors.add(instructor.pk)
    Enrollment.objects.create(course=course, user_id=student.pk)
    round_ = old.get_model("collector", "Round").objects.create(course=course, name="old-round", live_model=tuned)
    question = old.get_model("collector", "Question").objects.create(
        round=round_, author_id=student.pk, prompt="The cat", choices=["a", "b", "c", "d"], correct_index=0)
    old.get_model("collector", "Prediction").objects.create(question=question, model_version=tuned)
    project = old.get_model("annotation", "Project").objects.create(name="old-project", owner_id=instructor.pk,
                                                                    qa_model=qa)
    run = old.get_model("evaluation", "EvaluationRun").objects.create(target="round", round=round_,
                                                                      model_version=tuned)
    course_type = ContentType.objects.get_or_create(app_label="collector", model="course")[0].pk
    try:
        _migrate(latest)
        moved = NewCourse.objects.get(pk=course.pk)
        assert (moved.name, moved.join_code, moved.owner_id) == ("Old course", "OLDCODE2", instructor.pk)
        assert list(moved.instructors.values_list("pk", flat=True)) == [instructor.pk]
        assert list(moved.students.values_list("pk", flat=True)) == [student.pk]
        assert moved in student.enrolled_courses.all()
        assert Round.objects.get(pk=round_.pk).course == moved
        assert NewModelVersion.objects.get(pk=tuned.pk).base_id == base.pk
        assert Round.objects.get(pk=round_.pk).live_model.revision == "abc"
        assert Prediction.objects.get(question_id=question.pk).model_version_id == tuned.pk
        assert Project.objects.get(pk=project.pk).qa_model.name == "qa1"
        assert EvaluationRun.objects.get(pk=run.pk).model_version_id == tuned.pk
        # Admin history and permissions stay attached: the content type moved, its id kept.
        assert ContentType.objects.get(app_label="courses", model="course").pk == course_type
        assert not ContentType.objects.filter(app_label="collector", model="course").exists()
    finally:
        _migrate(latest)
