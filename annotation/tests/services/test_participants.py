"""A participant's data on request: the export holds all they wrote, deletion removes exactly that."""
import json

import pytest

from annotation.models import (
    AnnotationSession,
    Paragraph,
    ParticipantDeletion,
    QuestionFlag,
    SecondPassAnswer,
    SpanAnswer,
    SpanQuestion,
)
from annotation.selectors.exports import project_squad_dict
from annotation.selectors.participants import participant_export, participants_of_project
from annotation.services.participants import participant_delete
from annotation.tests.factories import paragraph_questions
from annotation.tests.participants_scenario import two_workers

pytestmark = pytest.mark.django_db


@pytest.fixture
def scenario(project, crowdworker, worker2):
    return two_workers(project, crowdworker, worker2)


def _rows_of(user) -> dict:
    return {"sessions": AnnotationSession.objects.filter(worker=user).count(),
            "questions": SpanQuestion.objects.filter(author=user).count(),
            "answers": SpanAnswer.objects.filter(author=user).count(),
            "second_pass": SecondPassAnswer.objects.filter(worker=user).count(),
            "flags": QuestionFlag.objects.filter(raised_by=user).count()}


class ParticipantExportTests:
    def test_the_export_holds_everything_the_worker_wrote_and_nothing_of_others(self, scenario, crowdworker, worker2):
        data = participant_export(project=scenario.project, worker=crowdworker)
        json.dumps(data)  # JSON-ready as it is
        mine = paragraph_questions(scenario.mine)
        theirs = paragraph_questions(scenario.theirs)
        assert data["participant"] == "worker" and data["project"] == scenario.project.name
        assert sorted(s["kind"] for s in data["sessions"]) == ["authoring", "second_pass"]
        assert all(s["started_at"] and "active_seconds" in s for s in data["sessions"])
        assert [q["qid"] for q in data["questions"]] == [q.qid for q in mine]
        assert [q["question"] for q in data["questions"]] == [q.question for q in mine]
        # Their 2 original spans, second-pass spans on worker2's 2 answerable questions (an unanswerable
        # question gets no span) and the accepted correction.
        assert sorted((a["qid"], a["kind"]) for a in data["answers"]) == sorted(
            [(q.qid, "original") for q in mine[:2]] + [(q.qid, "second_pass") for q in theirs[:2]]
            + [(theirs[0].qid, "correction")])
        assert sorted(s["qid"] for s in data["second_pass_answers"]) == sorted(q.qid for q in theirs)
        assert [(f["qid"], f["proposal"], f["status"]) for f in data["flags"]] == [
            (theirs[0].qid, "fix_answer", "accepted")]
        assert "not in the text" not in json.dumps(data)  # worker2's flag reason is not theirs

    def test_participants_are_listed_with_their_counts(self, scenario, crowdworker, worker2):
        listed = {p.username: p for p in participants_of_project(project=scenario.project)}
        assert set(listed) == {"worker", "worker2"}
        assert (listed["worker"].sessions, listed["worker"].questions, listed["worker"].second_pass_answers,
                listed["worker"].flags) == (2, 3, 3, 1)
        assert (listed["worker2"].second_pass_answers, listed["worker2"].flags) == (1, 1)


class ParticipantDeleteTests:
    def test_deletion_removes_exactly_that_workers_data_and_logs_counts(self, scenario, crowdworker, worker2, owner):
        theirs = paragraph_questions(scenario.theirs)
        before = _rows_of(worker2)
        deletion = participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        assert _rows_of(crowdworker) == dict.fromkeys(before, 0)
        # worker2 loses only what sat on crowdworker's questions: 1 second-pass answer (+ its span) and 1 flag.
        assert _rows_of(worker2) == {**before, "answers": before["answers"] - 1, "second_pass": 0, "flags": 0}
        assert deletion.counts == {
            "questions": 3, "sessions": 2, "second_pass_answers": 3, "answers": 3, "flags": 1,
            "others_second_pass_answers": 1, "others_flags": 1, "others_answers": 1, "withdrawn_questions": 1}
        # worker2's question whose only answer was crowdworker's accepted correction is withdrawn.
        assert SpanQuestion.objects.get(pk=theirs[0].pk).status == SpanQuestion.Status.REMOVED
        assert [SpanQuestion.objects.get(pk=q.pk).status for q in theirs[1:]] == ["submitted", "submitted"]
        # The paragraph crowdworker's submission closed needs questions again.
        assert Paragraph.objects.get(pk=scenario.mine.pk).status == Paragraph.Status.OPEN
        assert ParticipantDeletion.objects.get().requested_by == owner

    def test_the_log_row_holds_no_personal_data(self, scenario, crowdworker, owner):
        deletion = participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        # Only the project, who asked, when and counts of rows: no field can hold the participant.
        assert {f.name for f in ParticipantDeletion._meta.get_fields()} == {
            "id", "project", "requested_by", "counts", "created_at"}
        assert all(isinstance(n, int) for n in deletion.counts.values())
        assert deletion.requested_by_id != crowdworker.pk

    def test_deletion_is_idempotent(self, scenario, crowdworker, worker2, owner):
        participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        after = (_rows_of(worker2), project_squad_dict(project=scenario.project))
        again = participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        assert set(again.counts.values()) == {0}
        assert (_rows_of(worker2), project_squad_dict(project=scenario.project)) == after
        assert ParticipantDeletion.objects.count() == 2

    def test_the_squad_export_leaves_the_deleted_work_out(self, scenario, crowdworker, owner):
        mine = {q.qid for q in paragraph_questions(scenario.mine)}
        exported = {qa["id"] for a in project_squad_dict(project=scenario.project)["data"] for p in a["paragraphs"]
                    for qa in p["qas"]}
        assert mine <= exported
        participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        data = project_squad_dict(project=scenario.project)
        qas = [qa for a in data["data"] for p in a["paragraphs"] for qa in p["qas"]]
        assert not mine & {qa["id"] for qa in qas} and len(qas) == 2  # worker2's, minus the withdrawn one
        assert all(qa["answers"] for qa in qas if not qa["is_impossible"])
        assert all(a["text"] != "Mediterranean Sea" for qa in qas for a in qa["answers"])  # no second-pass span left

    def test_another_project_is_untouched(self, scenario, crowdworker, owner):
        from annotation.tests.factories import make_project, submitted_paragraph

        other = make_project(owner, name="amazon")
        submitted_paragraph(other, crowdworker)
        participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=owner)
        assert SpanQuestion.objects.filter(project=other, author=crowdworker).count() == 3
        assert AnnotationSession.objects.filter(worker=crowdworker).count() == 1
