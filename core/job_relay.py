"""Job pushes from another process to the web process's sockets on the in-memory channel layer.

The in-memory layer lives inside one process: a separate Celery worker's ``group_send`` reaches
no socket of the web server (the embedded setup of ``scripts/start.sh``). There, with
``STUMPER_JOB_PUSH_URL`` set to the web server's own address of ``job_push_relay``, every process
that does not serve the sockets (a worker, a management command) POSTs its pushes there, and the
web process does the ``group_send`` in-process. It is still the one mechanism of ``core.jobs``:
the same message to the same groups, only carried over loopback HTTP instead of Redis.

The body is signed with an HMAC derived from ``SECRET_KEY`` (``relay_signature``); the view refuses
with 403 any request that is not from a loopback address or whose signature (compared in constant
time) or send time is wrong, and with 400 any body that is too large, too deep or not a push. A
push carries no data (sockets re-read the job), so a replayed one only makes sockets read again.
"""
import ipaddress
import json
import time
import urllib.request
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from mlcore.data.bounded_json import load_json

SIGNATURE_HEADER = "X-Stumper-Job-Signature"
MAX_BODY_BYTES = 4096
MAX_GROUPS = 16
MAX_AGE_SECONDS = 300  # a push older (or further in the future) than this is refused
TIMEOUT_SECONDS = 5.0
_SALT = "core.job_relay"
_GROUP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-")
_serves_sockets = False  # set by the web process (config.asgi): its pushes stay in-process


def relay_serves_sockets() -> None:
    """Mark this process as the web server whose sockets the pushes are for (``config.asgi``)."""
    global _serves_sockets
    _serves_sockets = True


def relay_configured() -> bool:
    """Whether ``STUMPER_JOB_PUSH_URL`` carries the pushes (the in-memory layer, the URL set)."""
    return bool(settings.STUMPER_JOB_PUSH_URL) and isinstance(get_channel_layer(), InMemoryChannelLayer)


def relay_needed() -> bool:
    """Whether this process sends its pushes to the web process rather than to its own layer."""
    return not _serves_sockets and relay_configured()


def relay_signature(body: bytes) -> str:
    """The HMAC-SHA256 of ``body`` under a key derived from ``SECRET_KEY``, as hex."""
    return salted_hmac(_SALT, body, algorithm="sha256").hexdigest()


def relay_body(groups: list[str], message: dict, *, sent: float | None = None) -> bytes:
    """The signed part of a relayed push: the groups, the message and when it was sent."""
    return json.dumps({"groups": groups, "message": message, "sent": time.time() if sent is None else sent},
                      separators=(",", ":")).encode()


def relay_send(groups: list[str], message: dict) -> None:
    """POST the push to ``STUMPER_JOB_PUSH_URL``; raises when the web server does not take it."""
    body = relay_body(groups, message)
    request = urllib.request.Request(settings.STUMPER_JOB_PUSH_URL, data=body, method="POST", headers={
        "Content-Type": "application/json", SIGNATURE_HEADER: relay_signature(body)})
    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:  # the configured URL, http(s)
        response.read()


def is_loopback(address: str) -> bool:
    """Whether ``address`` (a request's ``REMOTE_ADDR``) is this machine's loopback."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def relay_authentic(body: bytes, signature: str) -> bool:
    """Whether ``signature`` is ``relay_signature(body)`` (in constant time)."""
    return constant_time_compare(relay_signature(body), signature)


def relay_parse(body: bytes) -> tuple[list[str], dict[str, Any]]:
    """The groups and the ``job.update`` message of a signed body; ValueError when it is not one
    or was sent more than ``MAX_AGE_SECONDS`` ago."""
    try:
        data = load_json(body.decode(), max_depth=3, max_chars=MAX_BODY_BYTES)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a push: {error}") from None
    if not isinstance(data, dict) or set(data) != {"groups", "message", "sent"}:
        raise ValueError("not a push: it needs groups, message and sent")
    groups, message, sent = data["groups"], data["message"], data["sent"]
    if not isinstance(sent, int | float) or abs(time.time() - sent) > MAX_AGE_SECONDS:
        raise ValueError("not a push: too old or from the future")
    if not isinstance(groups, list) or not 0 < len(groups) <= MAX_GROUPS or not all(map(_is_group, groups)):
        raise ValueError("not a push: groups must be job groups")
    if not isinstance(message, dict) or message.get("type") != "job.update" or set(message) != {
            "type", "job", "id", "status"}:
        raise ValueError("not a push: the message must be a job.update")
    if not (isinstance(message["job"], str) and len(message["job"]) <= 100 and isinstance(message["id"], int)
            and isinstance(message["status"], str) and len(message["status"]) <= 32):
        raise ValueError("not a push: job, id or status of the wrong kind")
    return groups, message


def _is_group(name: Any) -> bool:
    return (isinstance(name, str) and name.startswith(("job.", "jobs.")) and len(name) < 100
            and set(name) <= _GROUP_CHARS)
