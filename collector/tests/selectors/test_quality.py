"""``round_quality_report`` and ``validation_answers`` (the evaluation app's hook)."""
import pytest
from django.db.models import F

from collector.models import Round, Validation
from collector.selectors.quality import round_quality_report
from collector.selectors.validation import validation_answers
from collector.services.questions import question_submit
from collector.tests.factories import question_data, validate
from mlcore.stats.agreement import cohen_kappa, fleiss_kappa, rating_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def validated_round(peer_round, student, classmates, fake_model):
    """Six questions, each answered by bob and carol (validations_required = 2)."""
    Round.objects.filter(pk=peer_round.pk).update(validations_required=2)
    bob, carol, _ = classmates
    picks = {  # question -> (bob's pick, carol's pick); the key is 0 everywhere
        0: (0, 0), 1: (0, 0), 2: (1, 0), 3: (0, 2), 4: (3, 3), 5: (0, 0),
    }
    questions = []
    for i, (b, c) in picks.items():
        q = question_submit(user=student, round_id=peer_round.pk, **question_data(
            prompt=f"Unrelated prompt number {i} about topic {i * 7}. He",
            choices=[f"did thing {i}a.", f"did thing {i}b.", f"did thing {i}c.", f"did thing {i}d."],
            categories=["negation"] if i % 2 else ["idioms"]))
        validate(q, bob, b, categories=["negation"] if i % 2 else ["idioms"])
        validate(q, carol, c, categories=["negation"])
        questions.append(q)
    Validation.objects.filter(validator=bob).update(seconds_spent=30)
    Validation.objects.filter(validator=carol).update(seconds_spent=F("seconds_spent") + 50)
    return peer_round, questions, picks


def test_validation_answers_follow_the_contract(validated_round, classmates):
    round_, questions, picks = validated_round
    answers = validation_answers(round_=round_)
    assert len(answers) == 12
    first = answers[0]
    assert (first.question_id, first.validator_id, first.chosen_index, first.correct_index) == (
        questions[0].pk, classmates[0].pk, 0, 0)
    assert first.is_correct and first.categories == ("idioms",) and first.question_status == "accepted"
    assert validation_answers(question_ids=[questions[2].pk])[0].chosen_index == 1


def test_report_numbers_equal_the_pure_functions(validated_round, classmates):
    round_, questions, picks = validated_round
    report = round_quality_report(round_=round_)
    correct = [p == 0 for pair in picks.values() for p in pair]
    assert report["human_accuracy"]["n"] == 12
    assert report["human_accuracy"]["accuracy"] == pytest.approx(sum(correct) / 12, abs=1e-4)
    negation = next(row for row in report["human_accuracy"]["per_category"] if row["category"] == "negation")
    assert negation["n"] == 6 and negation["correct"] == 5  # questions 1, 3, 5: bob 0, 0, 0 and carol 0, 2, 0
    kappa = cohen_kappa([b for b, _ in picks.values()], [c for _, c in picks.values()], labels=[0, 1, 2, 3])
    assert report["answer_agreement"]["mean"] == pytest.approx(kappa.statistic, abs=1e-4)
    assert report["answer_agreement"]["pairs"][0]["n"] == 6
    # Categories: author, bob, carol per question and category, present or absent.
    rows = []
    for i in picks:
        author = {"negation"} if i % 2 else {"idioms"}
        for category in ("idioms", "negation", "other"):
            rows.append(["yes" if category in labels else "no" for labels in (author, author, {"negation"})])
    expected = fleiss_kappa(rating_counts(rows, ("yes", "no"))).statistic
    assert report["category_agreement"]["kappa"] == pytest.approx(expected, abs=1e-4)
    assert report["category_agreement"]["items"] == 18 and report["category_agreement"]["raters"] == 3
    workload = {row["validator"]: row for row in report["validators"]}
    assert workload["bob"]["validations"] == 6 and workload["bob"]["median_seconds"] == 30
    assert workload["carol"]["median_seconds"] >= 50
    assert sum(report["status"].values()) == 6


def test_an_empty_round_reports_nothing_without_failing(peer_round):
    report = round_quality_report(round_=peer_round)
    assert report["validations"] == 0 and report["human_accuracy"]["accuracy"] is None
    assert report["answer_agreement"]["mean"] is None and report["category_agreement"]["kappa"] is None
    assert [row["shown"] for row in report["coach"]] == [0, 0, 0, 0]
