from django.urls import path

from collector.consumers import AuthorConsumer, ScoringProgressConsumer

websocket_urlpatterns = [
    path("ws/author/<int:round_id>/", AuthorConsumer.as_asgi()),
    path("ws/rounds/<int:round_id>/scoring/", ScoringProgressConsumer.as_asgi()),
]
