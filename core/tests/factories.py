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


def assert_settings_refused(user: Any, instance: Any, *, read_url: str, update_url: str, body: dict) -> None:
    """``user`` may neither read nor change ``instance``'s settings over the API: both answer 403 and
    its row is stored unchanged."""
    from rest_framework.test import APIClient

    def stored() -> dict:
        return type(instance)._default_manager.filter(pk=instance.pk).values().get()

    before = stored()
    client = APIClient()
    client.force_authenticate(user)
    assert client.get(read_url).status_code == 403
    assert client.post(update_url, body, format="json").status_code == 403
    assert stored() == before
