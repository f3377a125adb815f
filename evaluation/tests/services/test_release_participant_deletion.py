"""A participant's deleted work is out of the project's release, and the authors left are pseudonyms."""
import pytest

from accounts.tests.factories import make_user
from annotation.services.participants import participant_delete
from annotation.tests.factories import make_project, paragraph_questions
from annotation.tests.participants_scenario import two_workers
from evaluation.services.releases import release_export, release_options_clean
from evaluation.tests.factories import load_release

pytestmark = pytest.mark.django_db


def _rows(tmp_path, project, name: str) -> list[dict]:
    out = tmp_path / name
    release_export(out_dir=out, options=release_options_clean(status="all", fields="agreement"), project=project)
    loaded = load_release(out)
    return [row for split in loaded for row in loaded[split]]


def test_the_release_leaves_deleted_work_out_and_pseudonymises_workers(tmp_path, instructor, crowdworker):
    worker2 = make_user("worker2", role="crowdworker")
    scenario = two_workers(make_project(instructor), crowdworker, worker2)
    mine = {q.qid for q in paragraph_questions(scenario.mine)}
    theirs = {q.qid: q for q in paragraph_questions(scenario.theirs)}
    names = {crowdworker.username, worker2.username, str(crowdworker.pk), str(worker2.pk)}

    before = _rows(tmp_path, scenario.project, "before")
    assert {r["id"] for r in before} == mine | set(theirs)
    authors = {r["id"]: r["author"] for r in before}
    assert all(a.startswith("author-") and a not in names for a in authors.values())
    assert len({authors[q] for q in mine}) == 1 and len(set(authors.values())) == 2
    assert all(r["second_pass_answers"] == 1 for r in before if r["id"] in theirs)

    participant_delete(project=scenario.project, worker_id=crowdworker.pk, user=instructor)
    after = _rows(tmp_path, scenario.project, "after")
    first = paragraph_questions(scenario.theirs)[0].qid  # its only answer was the deleted worker's correction
    assert {r["id"] for r in after} == set(theirs) - {first}
    # One author left, still a pseudonym (numbered within the release, so the number may change), and none
    # of the deleted worker's spans.
    assert len({r["author"] for r in after}) == 1
    assert all(r["author"].startswith("author-") and r["author"] not in names for r in after)
    assert all(r["second_pass_answers"] == 0 for r in after)
    for row in after:
        assert row["answers"]["text"] == [a.text for a in theirs[row["id"]].answers.all()]
        assert "Mediterranean Sea" not in row["answers"]["text"]
