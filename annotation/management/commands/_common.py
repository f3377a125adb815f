"""Helpers shared by the annotation commands: reading files and turning errors into CommandError."""
import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from annotation.models import Project
from annotation.selectors.projects import project_by_name
from core.exceptions import AccessError
from mlcore.data.bounded_json import load_json


def read_json(path: Path, what: str = "file") -> Any:
    """Parsed JSON of ``path``, or a CommandError saying where the file is broken."""
    try:
        with open(path, encoding="utf-8") as handle:
            return load_json(handle.read())  # bounded: depth and numbers, as every way in
    except OSError as error:
        raise CommandError(f"Cannot read {what} {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text.") from None
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}.") from None


def project_named(name: str) -> Project:
    try:
        return project_by_name(name=name)
    except AccessError as error:
        raise CommandError(error.message) from None
