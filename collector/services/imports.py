"""Importing CODAH TSV files into a round (``import_codah`` and the import API)."""
from django.conf import settings
from django.db import transaction

from accounts.models import User
from collector.models import Question, Round
from core.exceptions import ImportFailed
from core.validators import text_problem
from mlcore.data.codah import parse_codah_tsv
from mlcore.data.release.licenses import UnknownSource, merged_source

#: What ``import_codah`` and the import API record as the source when not told otherwise (docs/release.md).
CODAH_SOURCE = "codah"


@transaction.atomic
def codah_import(*, round_: Round, text: str, author: User, allow_duplicate_choices: bool = False,
                 source_dataset: str = "", source_license: str = "") -> list[Question]:
    """Import CODAH TSV rows into a round: every row or none, bad rows reported by line.

    ``allow_duplicate_choices`` admits rows that repeat a completion, which the public CODAH
    release does in three rows; authored questions never may. ``source_dataset`` (a Hub id) and
    ``source_license`` are recorded on the round for its dataset release (blank: nothing recorded,
    and the release asks); the license of a known dataset (``codah``) may be left out.
    """
    try:
        source = merged_source((round_.source_dataset, round_.source_license), source_dataset, source_license)
    except UnknownSource as error:
        raise ImportFailed([("options", str(error))]) from None
    # Limits first, so that a huge file is refused before it is parsed or held twice in memory.
    if len(text.encode("utf-8")) > settings.STUMPER_IMPORT_MAX_BYTES:
        raise ImportFailed([(1, f"The file is larger than {settings.STUMPER_IMPORT_MAX_BYTES:,} bytes; split it.")])
    rows = sum(1 for line in text.splitlines() if line.strip())
    if rows > settings.STUMPER_IMPORT_MAX_ROWS:
        raise ImportFailed([(1, f"The file has {rows:,} rows; at most {settings.STUMPER_IMPORT_MAX_ROWS:,} are "
                                "imported at once. Split it.")])
    parsed = parse_codah_tsv(
        text,
        max_prompt_chars=settings.STUMPER_MAX_PROMPT_CHARS,
        max_choice_chars=settings.STUMPER_MAX_CHOICE_CHARS,
        allow_duplicate_choices=allow_duplicate_choices,
    )
    if parsed.errors:
        raise ImportFailed([(error.line, error.message) for error in parsed.errors])
    unstorable = [(line, problem) for line, example in zip(parsed.lines, parsed.examples)
                  for problem in {text_problem(text) for text in (example.prompt, *example.choices)} - {None}]
    if unstorable:  # the rule every way in follows (the API and the forms refuse these too)
        raise ImportFailed(sorted(unstorable))
    if not parsed.examples:
        raise ImportFailed([(1, "The file has no questions.")])
    offered = set(round_.categories)
    outside = [
        (line, f"category {c!r} is not offered in round {round_.name}")
        for line, example in zip(parsed.lines, parsed.examples)
        for c in example.categories
        if c not in offered
    ]
    if outside:
        raise ImportFailed(outside)
    questions = [
        Question(
            round=round_, author=author, prompt=example.prompt, choices=list(example.choices),
            # A row without a category code stays uncategorised (CODAH has 10): "other" is a category of its own.
            correct_index=example.label, categories=list(example.categories), source="imported",
            status=Question.Status.ACCEPTED,  # a published data set was validated by its authors
        )
        for example in parsed.examples
    ]
    if source is not None and not round_.source_dataset:
        round_.source_dataset, round_.source_license = source
        round_.save(update_fields=["source_dataset", "source_license"])
    return Question.objects.bulk_create(questions)
