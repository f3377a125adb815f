"""Time on the paragraph: heartbeats add up, a long gap (page closed) adds nothing."""
from datetime import timedelta
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from annotation.presentation.sessions import session_payload
from annotation.services.authoring import session_discard, session_start_next
from annotation.services.session_time import (
    HEARTBEAT_GAP_MAX,
    HEARTBEAT_SECONDS,
    active_seconds_between,
    session_heartbeat,
)
from core.exceptions import AccessError

pytestmark = pytest.mark.django_db


def beat_at(session, user, when):
    with mock.patch("annotation.services.session_time.timezone.now", return_value=when):
        return session_heartbeat(session=session, user=user)


class SessionHeartbeatTests:
    def test_heartbeats_add_up_and_a_closed_page_adds_nothing(self, crowdworker, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        t0 = timezone.now()
        assert beat_at(session, crowdworker, t0).active_seconds == 0  # the page just opened
        assert beat_at(session, crowdworker, t0 + timedelta(seconds=15)).active_seconds == 15
        assert beat_at(session, crowdworker, t0 + timedelta(seconds=30)).active_seconds == 30
        # Closed overnight, opened again: the gap is not time on the paragraph.
        later = t0 + timedelta(hours=9)
        assert beat_at(session, crowdworker, later).active_seconds == 30
        assert beat_at(session, crowdworker, later + timedelta(seconds=14)).active_seconds == 44

    def test_the_page_timer_starts_from_the_time_on_the_paragraph_not_from_the_start(self, crowdworker, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        session.started_at = timezone.now() - timedelta(days=1)
        session.active_seconds = 125
        session.save(update_fields=["started_at", "active_seconds"])
        assert session_payload(session)["elapsed_seconds"] == 125

    def test_only_the_worker_and_only_while_in_progress(self, crowdworker, worker2, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        with pytest.raises(AccessError):
            session_heartbeat(session=session, user=worker2)
        session_discard(session=session, user=crowdworker, reason="hard_to_understand")
        with pytest.raises(ValidationError):
            session_heartbeat(session=session, user=crowdworker)

    def test_the_api(self, client, crowdworker, project, paragraph):
        session = session_start_next(user=crowdworker, project=project)
        client.force_login(crowdworker)
        url = reverse("annotation_api:session_heartbeat", args=[session.pk])
        response = client.post(url, content_type="application/json")
        assert response.status_code == 200
        assert response.json() == {"active_seconds": 0, "heartbeat_seconds": HEARTBEAT_SECONDS}
        session.refresh_from_db()
        assert session.last_active_at is not None


def test_active_seconds_between():
    now = timezone.now()
    assert active_seconds_between(None, now) == 0
    assert active_seconds_between(now - timedelta(seconds=20), now) == 20
    assert active_seconds_between(now - HEARTBEAT_GAP_MAX - timedelta(seconds=1), now) == 0
    assert active_seconds_between(now + timedelta(seconds=5), now) == 0  # clock went back
