"""Fault: the same submission arrives twice at the same moment (a double click, a client retry).

Both requests carry the form's client token; they race in two threads with their own database
connections. Exactly one question (and one live prediction) is stored and both answers name it.
"""
import threading
import uuid

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from collector.models import Prediction, Question

pytestmark = pytest.mark.django_db(transaction=True)


def _race(submit, copies: int = 2) -> list:
    barrier, results = threading.Barrier(copies), [None] * copies

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = submit()
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_the_same_api_submission_twice_at_once_is_stored_once(student, open_round):
    token = str(uuid.uuid4())
    body = {"round_id": open_round.pk, "prompt": "The cat saw the cucumber. It", "correct_index": 0,
            "choices": ["jumped in fright.", "cooked dinner.", "wrote a poem.", "paid taxes."], "client_token": token}

    def submit():
        api = APIClient()
        api.force_authenticate(student)
        return api.post(reverse("api:question_submit"), body, format="json")

    first, second = _race(submit)
    assert first.status_code == second.status_code == 201, (first.data, second.data)
    assert first.data["id"] == second.data["id"]
    assert Question.objects.filter(author=student).count() == 1
    assert Prediction.objects.filter(question__author=student, kind=Prediction.Kind.LIVE).count() == 1


def test_the_same_form_posted_twice_at_once_is_stored_once(student, open_round):
    form = {"prompt": "The baby laughed at the dog. It", "choice_0": "wagged its tail.", "choice_1": "filed a report.",
            "choice_2": "drove a truck.", "choice_3": "read the news.", "answer": "0", "client_token": str(uuid.uuid4())}

    def submit():
        from django.test import Client

        client = Client()
        client.force_login(student)
        return client.post(reverse("collector:round_write", args=[open_round.pk]), form)

    responses = _race(submit)
    assert [r.status_code for r in responses] == [302, 302]
    assert Question.objects.filter(author=student).count() == 1
