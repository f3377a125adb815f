"""The JSON socket base: strict JSON, dispatch on type, ping, and the 4403 refusal."""
import pytest
from channels.testing import WebsocketCommunicator

from core.exceptions import AccessError
from core.sockets import ClientError, JsonSocketConsumer

# Channels closes stale database connections around each message (close_old_connections), which
# touches the connection an earlier test in this process may have opened: allow it.
pytestmark = pytest.mark.django_db


class EchoConsumer(JsonSocketConsumer):
    handlers = {"echo": "on_echo"}
    max_message_bytes = 100

    async def connect(self) -> None:
        await self.accept()
        if self.scope["path"].endswith("/refused/"):
            await self.refuse(AccessError("Not yours."))

    async def on_echo(self, content: dict) -> None:
        if not isinstance(content.get("text"), str):
            raise ClientError('"text" must be a string.')
        await self.send_json({"type": "echo", "text": content["text"]})


async def _connect(path: str = "/ws/echo/") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(EchoConsumer.as_asgi(), path)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def test_messages_are_dispatched_on_their_type_and_mistakes_are_answered():
    communicator = await _connect()
    await communicator.send_json_to({"type": "echo", "text": "hi"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "echo", "text": "hi"}
    await communicator.send_json_to({"type": "ping"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "pong"}
    for sent, message in [
        ("{nope", "Message is not valid JSON."),
        ('{"type": "echo"}', '"text" must be a string.'),
        ('{"type": ["echo"]}', "Unknown message type ['echo']; expected \"echo\" or \"ping\"."),
        ("[1, 2]", 'Send a JSON object with a "type" field.'),
        ('{"type": "echo", "text": "' + "x" * 200 + '"}', "Message too large (at most 100 characters)."),
    ]:
        await communicator.send_to(text_data=sent)
        assert await communicator.receive_json_from(timeout=5) == {"type": "error", "message": message}
    await communicator.send_to(bytes_data=b"\x00")
    assert (await communicator.receive_json_from(timeout=5))["message"] == "Send JSON text messages, not binary data."
    await communicator.disconnect()


async def test_a_refused_connection_hears_why_then_closes_with_4403():
    communicator = await _connect("/ws/echo/refused/")
    assert await communicator.receive_json_from(timeout=5) == {"type": "error", "message": "Not yours."}
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    await communicator.disconnect()


async def test_messages_beyond_the_json_limits_are_answered_in_the_language_and_the_socket_stays_open():
    from django.test import override_settings

    communicator = await _connect()
    await communicator.send_to(text_data="[" * 80)
    assert (await communicator.receive_json_from(timeout=5))["message"] == (
        "Message is not valid JSON: it is nested deeper than 64 levels.")
    with override_settings(LANGUAGE_CODE="fa"):
        await communicator.send_to(text_data='{"type": "echo", "n": NaN}')
        assert (await communicator.receive_json_from(timeout=5))["message"] == (
            "پیام، JSON معتبر نیست: NaN عددی در JSON نیست.")
    await communicator.send_json_to({"type": "echo", "text": "still open"})
    assert (await communicator.receive_json_from(timeout=5))["text"] == "still open"
    await communicator.disconnect()


async def test_the_router_refuses_a_path_no_route_matches_at_the_handshake(caplog):
    from django.urls import path

    from core.sockets import SocketRouter

    router = SocketRouter([path("ws/echo/<int:n>/", EchoConsumer.as_asgi())])
    refused = WebsocketCommunicator(router, "/ws/echo/x/")
    connected, _ = await refused.connect(timeout=5)
    assert not connected  # closed before accepting: the client sees 403
    assert [r.getMessage() for r in caplog.records] == ["Websocket refused: no route for '/ws/echo/x/'"]
    routed = WebsocketCommunicator(router, "/ws/echo/7/")
    assert (await routed.connect(timeout=5))[0]
    await routed.disconnect()
