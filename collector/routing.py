from django.urls import path

from collector.consumers import AuthorConsumer

websocket_urlpatterns = [
    path("ws/author/<int:round_id>/", AuthorConsumer.as_asgi()),
]
