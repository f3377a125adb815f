"""Test helpers for every app's tests (a test imports factories from its own app or below)."""
from typing import Any

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator


async def socket_connect(routes: list, path: str, user: Any, **scope: Any) -> WebsocketCommunicator:
    """A websocket open on ``path`` through ``routes`` (an app's ``websocket_urlpatterns``) as ``user``, with
    ``scope`` added (``cookies=...``, as Channels' CookieMiddleware sets them); fails the test unless it connected.

    A consumer that refuses (``refuse(AccessError)``) connects first, then sends the error and closes."""
    communicator = WebsocketCommunicator(URLRouter(routes), path)
    communicator.scope.update(user=user, **scope)
    connected, _ = await communicator.connect()
    assert connected
    return communicator
