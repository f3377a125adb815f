"""Writes of the near-duplicate check: the flags stored when a question is submitted.

What a question is compared with, and the per-process index that answers, are
``selectors/duplicates.py``'s.
"""
from django.db import transaction

from collector.models import DuplicateFlag, Question
from collector.selectors.duplicates import question_duplicate_matches


def question_duplicates_flag(*, question: Question) -> list[DuplicateFlag]:
    """Record which earlier questions (or imported ones) a new question is very similar to."""
    matches = question_duplicate_matches(question=question)
    if not matches:
        return []
    with transaction.atomic():
        DuplicateFlag.objects.bulk_create(
            [DuplicateFlag(question=question, similar_to_id=m.key, similarity=m.similarity) for m in matches],
            ignore_conflicts=True,
        )
    return list(DuplicateFlag.objects.filter(question=question).select_related("similar_to"))
