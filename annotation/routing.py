"""Websocket routes of the annotation app."""

websocket_urlpatterns: list = []
