"""Websocket routes of the annotation app."""
from django.urls import path

from annotation.consumers import QAAssistConsumer

websocket_urlpatterns = [
    path("ws/annotation/sessions/<int:session_id>/qa/", QAAssistConsumer.as_asgi()),
]
