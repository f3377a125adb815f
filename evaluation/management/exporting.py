"""What ``manage.py export_codah`` and ``export_squad`` share: the lookups' refusals as command
errors, and writing the export so that a failure never leaves half a file."""
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from core.exceptions import AccessError


@contextmanager
def lookups_refused_as_command_errors() -> Iterator[None]:
    """An unknown round or project (``AccessError``) or an unusable evaluation report
    (``ValidationError``) stops the command with the refusal's message instead of a traceback."""
    try:
        yield
    except AccessError as error:
        raise CommandError(error.message) from None
    except ValidationError as error:
        raise CommandError(" ".join(error.messages)) from None


def export_write(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``: beside it first, then renamed over it, so a failure
    (a full disk, a missing folder) never leaves half an export that looks complete."""
    target = Path(path)
    partial = None
    try:
        fd, partial = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(partial, target)
    except OSError as error:
        if partial is not None:
            Path(partial).unlink(missing_ok=True)
        raise CommandError(f"Cannot write {path}: {error.strerror or error}") from None
