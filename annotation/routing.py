"""Websocket routes of the annotation app."""
from django.urls import path

from annotation.consumers import QAAssistConsumer, QATrainingProgressConsumer

websocket_urlpatterns = [
    path("ws/annotation/sessions/<int:session_id>/qa/", QAAssistConsumer.as_asgi()),
    path("ws/annotation/projects/<int:project_id>/training/<int:job_id>/", QATrainingProgressConsumer.as_asgi()),
]
