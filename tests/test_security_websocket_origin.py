"""The site's websocket router checks the handshake's whole origin (core/websocket_origin.py):
the same host on another port is refused before any consumer runs."""
import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application

PATH = "/ws/rounds/1/scoring/"


async def _handshake(origin: bytes) -> tuple[bool, object]:
    communicator = WebsocketCommunicator(application, PATH, headers=[(b"origin", origin), (b"host", b"localhost:8000")])
    connected, code = await communicator.connect(timeout=10)
    await communicator.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
async def test_another_port_on_the_same_host_is_refused():
    assert await _handshake(b"http://localhost:9999") == (False, 1000)  # closed before it opened (403)


@pytest.mark.django_db(transaction=True)
async def test_the_pages_own_origin_reaches_the_consumer():
    connected, _ = await _handshake(b"http://localhost:8000")
    assert connected  # the consumer then refuses the anonymous user itself, with 4403
