"""The migration that makes second-pass answers final keeps existing answers and labels old flags."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

MIGRATION = "second_pass_answers_final_flags_after_reveal"  # found by name: numbers may change at merge


def _targets() -> tuple[list, list]:
    """(the annotation migration just before this one, the latest ones of every app)."""
    graph = MigrationExecutor(connection).loader.graph
    (node,) = [key for key in graph.nodes if key[0] == "annotation" and key[1].endswith(MIGRATION)]
    before = [parent.key for parent in graph.node_map[node].parents if parent.key[0] == "annotation"]
    return before, graph.leaf_nodes()


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_answers_are_kept_and_existing_flags_are_labelled_after_the_reveal(crowdworker, instructor):
    before, latest = _targets()
    apps = _migrate(before)
    Project, Article, Paragraph = (apps.get_model("annotation", name) for name in ("Project", "Article", "Paragraph"))
    Session, Question, Answer = (apps.get_model("annotation", name)
                                 for name in ("AnnotationSession", "SpanQuestion", "SecondPassAnswer"))
    project = Project.objects.create(name="old", owner_id=instructor.pk)
    article = Article.objects.create(project=project, title="Nile", split="validation")
    paragraph = Paragraph.objects.create(article=article, position=0, context="The Nile meets at Khartoum.")
    session = Session.objects.create(paragraph=paragraph, worker_id=crowdworker.pk, kind="second_pass")
    question = Question.objects.create(project=project, paragraph=paragraph, qid="q1", question="Where?",
                                       status="submitted")
    Answer.objects.create(question=question, session=session, worker_id=crowdworker.pk, text="Khartoum",
                          answer_start=18)
    apps.get_model("annotation", "QuestionFlag").objects.create(
        question=question, raised_by_id=crowdworker.pk, session=session, proposal="fix_answer",
        proposed_text="Khartoum", proposed_start=18)
    try:
        apps = _migrate(latest)
        stored = apps.get_model("annotation", "SecondPassAnswer").objects.get()
        assert (stored.text, stored.answer_start, stored.worker_id) == ("Khartoum", 18, crowdworker.pk)
        assert apps.get_model("annotation", "QuestionFlag").objects.get().after_reveal is True
    finally:
        _migrate(latest)  # the rest of the suite runs on the latest schema
