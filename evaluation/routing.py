"""Websocket routes of the evaluation app."""

websocket_urlpatterns: list = []
