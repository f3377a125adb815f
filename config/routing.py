"""All websocket routes; each app lists its own in routing.py."""
from collector.routing import websocket_urlpatterns as collector_routes

websocket_urlpatterns = [*collector_routes]
