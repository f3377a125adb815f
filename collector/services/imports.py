"""Importing CODAH TSV files (or the same questions as JSON) into a round: ``import_codah``, the
import API and the round's import page, which previews with ``codah_import_check``."""
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from accounts.models import User
from collector.models import Question, Round
from core.exceptions import ImportFailed
from core.validators import text_problem
from mlcore.configs import MCExample
from mlcore.data.codah import parse_codah_json, parse_codah_tsv
from mlcore.data.release.licenses import UnknownSource, merged_source

#: What ``import_codah`` and the import API record as the source when not told otherwise (docs/release.md).
CODAH_SOURCE = "codah"


#: The file formats of an import: CODAH TSV, or JSON (JSON Lines as the round's export writes them, or an array).
IMPORT_FORMATS = {"tsv": parse_codah_tsv, "json": parse_codah_json}


@dataclass(frozen=True)
class CodahImportPlan:
    """What an import would store: the questions, each with its place in the file, and the source."""

    examples: tuple[MCExample, ...]
    lines: tuple[int, ...]
    source: tuple[str, str] | None


def codah_import_check(*, round_: Round, text: str, file_format: str = "tsv", allow_duplicate_choices: bool = False,
                       source_dataset: str = "", source_license: str = "") -> CodahImportPlan:
    """Every check of ``codah_import``, storing nothing: the plan, or ImportFailed with every bad row
    (the import page's preview shows the one or the other)."""
    try:
        source = merged_source((round_.source_dataset, round_.source_license), source_dataset, source_license)
    except UnknownSource as error:
        raise ImportFailed([("options", str(error))]) from None
    # Limits first, so that a huge file is refused before it is parsed or held twice in memory.
    if len(text.encode("utf-8")) > settings.STUMPER_IMPORT_MAX_BYTES:
        raise ImportFailed([(1, f"The file is larger than {settings.STUMPER_IMPORT_MAX_BYTES:,} bytes; split it.")])
    if file_format == "tsv":  # a row per line: counted before parsing
        _rows_check(sum(1 for line in text.splitlines() if line.strip()))
    parsed = IMPORT_FORMATS[file_format](
        text,
        max_prompt_chars=settings.STUMPER_MAX_PROMPT_CHARS,
        max_choice_chars=settings.STUMPER_MAX_CHOICE_CHARS,
        allow_duplicate_choices=allow_duplicate_choices,
    )
    _rows_check(len(parsed.examples) + len(parsed.errors))  # a JSON array's items may span lines
    # Rows of a file are reported by line; the items of a JSON array by number ("item 3").
    where = (lambda n: n) if parsed.unit == "line" else (lambda n: f"{parsed.unit} {n}")
    if parsed.errors:
        raise ImportFailed([(where(error.line), error.message) for error in parsed.errors])
    unstorable = [(line, problem) for line, example in zip(parsed.lines, parsed.examples)
                  for problem in {text_problem(text) for text in (example.prompt, *example.choices)} - {None}]
    if unstorable:  # the rule every way in follows (the API and the forms refuse these too)
        raise ImportFailed([(where(line), problem) for line, problem in sorted(unstorable)])
    if not parsed.examples:
        raise ImportFailed([(1, "The file has no questions.")])
    offered = set(round_.categories)
    outside = [
        (where(line), f"category {c!r} is not offered in round {round_.name}")
        for line, example in zip(parsed.lines, parsed.examples)
        for c in example.categories
        if c not in offered
    ]
    if outside:
        raise ImportFailed(outside)
    return CodahImportPlan(parsed.examples, parsed.lines, source)


def _rows_check(rows: int) -> None:
    if rows > settings.STUMPER_IMPORT_MAX_ROWS:
        raise ImportFailed([(1, f"The file has {rows:,} rows; at most {settings.STUMPER_IMPORT_MAX_ROWS:,} are "
                                "imported at once. Split it.")])


@transaction.atomic
def codah_import(*, round_: Round, text: str, author: User, file_format: str = "tsv",
                 allow_duplicate_choices: bool = False, source_dataset: str = "",
                 source_license: str = "") -> list[Question]:
    """Import CODAH TSV rows (or the same questions as JSON, ``file_format="json"``) into a round:
    every row or none, bad rows reported by line.

    ``allow_duplicate_choices`` admits rows that repeat a completion, which the public CODAH
    release does in three rows; authored questions never may. ``source_dataset`` (a Hub id) and
    ``source_license`` are recorded on the round for its dataset release (blank: nothing recorded,
    and the release asks); the license of a known dataset (``codah``) may be left out.
    """
    plan = codah_import_check(round_=round_, text=text, file_format=file_format,
                              allow_duplicate_choices=allow_duplicate_choices, source_dataset=source_dataset,
                              source_license=source_license)
    questions = [
        Question(
            round=round_, author=author, prompt=example.prompt, choices=list(example.choices),
            # A row without a category code stays uncategorised (CODAH has 10): "other" is a category of its own.
            correct_index=example.label, categories=list(example.categories), source="imported",
            status=Question.Status.ACCEPTED,  # a published data set was validated by its authors
        )
        for example in plan.examples
    ]
    if plan.source is not None and not round_.source_dataset:
        round_.source_dataset, round_.source_license = plan.source
        round_.save(update_fields=["source_dataset", "source_license"])
    return Question.objects.bulk_create(questions)


def import_format(text: str) -> str:
    """``"json"`` or ``"tsv"``: a CODAH row starts with category letters or a tab, never ``{`` or ``[``."""
    return "json" if text.lstrip("\ufeff \r\n")[:1] in ("{", "[") else "tsv"


#: How long a previewed file waits on the server for its import.
STAGED_SECONDS = 3600


def _staged_key(round_: Round, user: User, token: str) -> str:
    return f"collector:import:{round_.pk}:{user.pk}:{token}"


def import_stage(*, round_: Round, user: User, text: str) -> str:
    """Keep a previewed file's ``text`` for ``user``'s import into ``round_`` (in the cache, shared by
    the web processes when ``REDIS_URL`` is set) for ``STAGED_SECONDS``; returns its token."""
    token = secrets.token_urlsafe(16)
    cache.set(_staged_key(round_, user, token), text, STAGED_SECONDS)
    return token


def import_staged(*, round_: Round, user: User, token: str) -> str | None:
    """The text ``import_stage`` kept under ``token`` for this user and round; ``None`` once expired."""
    return cache.get(_staged_key(round_, user, token)) if token else None


def import_unstage(*, round_: Round, user: User, token: str) -> None:
    cache.delete(_staged_key(round_, user, token))
