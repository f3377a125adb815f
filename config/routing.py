"""All websocket routes; each app lists its own in routing.py."""
from annotation.routing import websocket_urlpatterns as annotation_routes
from collector.routing import websocket_urlpatterns as collector_routes
from evaluation.routing import websocket_urlpatterns as evaluation_routes

websocket_urlpatterns = [*collector_routes, *annotation_routes, *evaluation_routes]
