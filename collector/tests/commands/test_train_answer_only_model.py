"""``manage.py train_answer_only_model``: the coach's model, trained on the tiny BERT."""
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from collector.models import Round
from collector.services.questions import question_submit
from collector.tests.factories import question_data

pytestmark = pytest.mark.django_db


def test_trains_and_attaches_the_model(plain_round, student, tiny_model_dir, fake_model, settings, tmp_path):
    settings.STUMPER_MODEL_DIR = tmp_path
    Round.objects.filter(pk=plain_round.pk).update(
        base_checkpoint=str(tiny_model_dir),
        scoring_config={"epochs": 1, "batch_size": 4, "max_length": 32, "freeze_layers": 1, "threads": 1},
    )
    out = StringIO()
    with pytest.raises(CommandError, match="at least 10"):
        call_command("train_answer_only_model", "--round", plain_round.name, stdout=out)
    for i in range(10):
        question_submit(user=student, round_id=plain_round.pk, **question_data(prompt=f"Number {i}. He"))
    call_command("train_answer_only_model", "--round", plain_round.name, stdout=out)
    assert "Registered cmd-round-answer-only" in out.getvalue()
    assert Round.objects.get(pk=plain_round.pk).answer_only_model.name == "cmd-round-answer-only"


def test_unknown_round(db):
    with pytest.raises(CommandError, match="No round is named"):
        call_command("train_answer_only_model", "--round", "nope", stdout=StringIO())
