"""Websocket routes of the evaluation app."""
from django.urls import path

from evaluation.consumers import EvaluationProgressConsumer, ModelEvaluationProgressConsumer

websocket_urlpatterns = [
    path("ws/evaluation/runs/<int:run_id>/", EvaluationProgressConsumer.as_asgi()),
    path("ws/evaluation/model-evaluations/<int:evaluation_id>/", ModelEvaluationProgressConsumer.as_asgi()),
]
