"""Password hashing off the request thread (``accounts.passwords``, the async views); the project's
hasher list is tested in tests/test_password_hashers.py."""
import asyncio
import time

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher, make_password
from django.test import override_settings

from accounts.services import user_create
from accounts.tests.factories import PASSWORD

HASH_SECONDS = 1.0


class SlowHasher(MD5PasswordHasher):
    """MD5 that takes a second to verify, as a costly hash does on a busy machine (sleeping frees the GIL, as argon2 does)."""

    algorithm = "slow_md5"

    def verify(self, password: str, encoded: str) -> bool:
        time.sleep(HASH_SECONDS)
        return super().verify(password, encoded)


SLOW = ["accounts.tests.test_passwords.SlowHasher"]


async def _asgi(app, method: str, path: str, *, body: bytes = b"", cookie: str = "") -> tuple[float, int, list]:
    """One request through Django's ASGI handler as daphne sends it: seconds, status, headers."""
    from asgiref.testing import ApplicationCommunicator

    headers = [(b"host", b"testserver"), (b"content-type", b"application/x-www-form-urlencoded"),
               (b"content-length", str(len(body)).encode())]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "headers": headers,
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}
    start = time.perf_counter()
    communicator = ApplicationCommunicator(app, scope)
    await communicator.send_input({"type": "http.request", "body": body, "more_body": False})
    response = await communicator.receive_output(timeout=30)
    while (await communicator.receive_output(timeout=30)).get("more_body"):
        pass
    return time.perf_counter() - start, response["status"], response["headers"]


@pytest.mark.django_db(transaction=True)
@override_settings(PASSWORD_HASHERS=SLOW)
async def test_slow_hashes_run_side_by_side_and_block_no_other_request() -> None:
    from urllib.parse import urlencode

    from asgiref.sync import sync_to_async
    from django.core.asgi import get_asgi_application

    app = get_asgi_application()
    for i in range(4):
        await sync_to_async(user_create)(username=f"student{i}", password=PASSWORD)
    # The sign-in page once first: its CSRF cookie, and the first request of a process imports every view.
    _, status, headers = await _asgi(app, "GET", "/accounts/login/")
    assert status == 200
    csrf = next(v.decode().split(";")[0].split("=", 1)[1] for k, v in headers if k.lower() == b"set-cookie"
                and v.startswith(b"csrftoken="))
    assert (await _asgi(app, "GET", "/healthz/"))[1] == 200

    def form(i: int) -> bytes:
        return urlencode({"username": f"student{i}", "password": PASSWORD, "csrfmiddlewaretoken": csrf}).encode()

    sign_ins = [asyncio.ensure_future(_asgi(app, "POST", "/accounts/login/", body=form(i), cookie=f"csrftoken={csrf}"))
                for i in range(4)]
    await asyncio.sleep(0.3)  # the hashes are running now
    health_seconds, health_status, _ = await _asgi(app, "GET", "/healthz/")
    results = await asyncio.gather(*sign_ins)
    assert health_status == 200
    assert health_seconds < HASH_SECONDS / 2  # a synchronous view went on while the hashes ran
    assert [status for _, status, _ in results] == [302] * 4  # all signed in
    # Four one-second hashes took about one second together, not four in a row.
    assert max(seconds for seconds, _, _ in results) < 2.5 * HASH_SECONDS
    assert all(seconds >= HASH_SECONDS for seconds, _, _ in results)


def test_the_pool_hashes_in_a_forked_child_of_a_process_that_used_it() -> None:
    """A live-server test process or a pre-forking server forks after the pool has run: the child
    must get threads of its own, not wait forever on the parent's (which it does not have)."""
    import os

    from accounts import passwords

    async def hash_once() -> bool:
        encoded = make_password(PASSWORD)
        async with passwords.prepare(password=PASSWORD, encoded=encoded):
            return passwords.prepared(PASSWORD, encoded).is_correct

    assert asyncio.run(hash_once())  # the parent's pool has started its threads
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child, which reports through its exit code
        try:
            ok = asyncio.run(asyncio.wait_for(hash_once(), timeout=20))
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
