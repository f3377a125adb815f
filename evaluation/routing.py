"""Websocket routes of the evaluation app."""
from django.urls import path

from evaluation.consumers import EvaluationProgressConsumer

websocket_urlpatterns = [
    path("ws/evaluation/runs/<int:run_id>/", EvaluationProgressConsumer.as_asgi()),
]
