"""Password hashing off the request thread, for the async sign-in and sign-up views.

Under daphne every synchronous view of a process runs in one thread (asgiref's
``thread_sensitive=True``), so 50 students signing in at once queued behind each other's hashes
in that thread, and every other page of the process waited with them. The async views in
``accounts.views`` therefore look up the stored hash (a quick query, in the usual thread), let
``prepare`` verify the password and compute any new hash in a small pool of its own (argon2 and
hashlib release the GIL, so the hashes run side by side), and only then run Django's own view,
whose ``User.check_password`` / ``set_password`` take the prepared result instead of hashing
again (``prepared``). Hash upgrades (an old PBKDF2 hash verified by a sign-in is replaced by an
Argon2 one) work as in Django.
"""
import contextlib
import contextvars
import os
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.contrib.auth import password_validation
from django.contrib.auth.hashers import is_password_usable, make_password, verify_password
from django.utils.translation import ngettext

from core.i18n import digits

# Hashing is CPU work: a few threads keep both cores busy without letting a crowd of sign-ins take
# all the memory Argon2 asks for (about 100 MB per hash at Django's default cost).
PASSWORD_THREADS = 4
_pool = ThreadPoolExecutor(max_workers=PASSWORD_THREADS, thread_name_prefix="password")


def _new_pool_after_fork() -> None:
    # A forked child (a live-server test process, a pre-forking server) inherits the pool object
    # but none of its threads: work handed to it would wait forever.
    global _pool
    _pool = ThreadPoolExecutor(max_workers=PASSWORD_THREADS, thread_name_prefix="password")


os.register_at_fork(after_in_child=_new_pool_after_fork)


@dataclass(frozen=True)
class PreparedPassword:
    """What hashing ``password`` found: is it the one ``encoded`` holds, and its new hash if one is due."""

    password: str
    encoded: str
    is_correct: bool
    new_hash: str  # make_password(password) when stored anew (upgrade, new account, unknown user); else ""


_prepared: contextvars.ContextVar[PreparedPassword | None] = contextvars.ContextVar("prepared_password", default=None)


def _hash(password: str, encoded: str) -> PreparedPassword:
    if encoded and is_password_usable(encoded):
        is_correct, must_update = verify_password(password, encoded)
        new_hash = make_password(password) if is_correct and must_update else ""
    else:
        # No account of that name (Django then hashes anyway, so the answer takes as long) or a
        # new password to store: either way the work is one make_password.
        is_correct, new_hash = False, make_password(password)
    return PreparedPassword(password=password, encoded=encoded, is_correct=is_correct, new_hash=new_hash)


@contextlib.asynccontextmanager
async def prepare(*, password: str, encoded: str) -> AsyncIterator[None]:
    """Hash ``password`` against ``encoded`` ("" = no stored hash) in the password pool, for the block."""
    token = _prepared.set(await sync_to_async(_hash, thread_sensitive=False, executor=_pool)(password, encoded))
    try:
        yield
    finally:
        _prepared.reset(token)  # asgiref copies context changes back to a synchronous caller


def prepared(password: str, encoded: str | None = None) -> PreparedPassword | None:
    """The prepared result for this password (and stored hash, when given), or None: hash as usual."""
    result = _prepared.get()
    if result is None or result.password != password or (encoded is not None and result.encoded != encoded):
        return None
    return result


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, with its messages in the user's language and digits.

    Django's own Persian catalogue has only the older msgid of this message (``%(min_length)d``), so
    a Persian worker choosing a short password read English; the msgids here are in this project's
    catalogue (``locale/``), and the number is written with the language's digits.
    """

    def get_error_message(self) -> str:
        return ngettext("This password is too short. It must contain at least %(count)s character.",
                        "This password is too short. It must contain at least %(count)s characters.",
                        self.min_length) % {"count": digits(self.min_length)}

    def get_help_text(self) -> str:
        return ngettext("Your password must contain at least %(count)s character.",
                        "Your password must contain at least %(count)s characters.",
                        self.min_length) % {"count": digits(self.min_length)}
