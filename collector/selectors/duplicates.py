"""Near-duplicate questions in the collector (the ORM side of ``mlcore.data.near_duplicates``).

What a question is compared with: every question of its course (this round and the others)
and every imported question (CODAH and other data sets imported into any round).

* ``draft_duplicates`` - the authoring websocket asks about each draft; it reads a per-process
  index of the course, updated incrementally as questions arrive (rebuilt when one was edited
  or deleted), so a draft costs one aggregate query and one LSH lookup.
* ``question_duplicate_matches`` - after a submission, the earlier (or imported) questions a new
  one is very similar to; ``services.duplicates.question_duplicates_flag`` stores them as
  ``DuplicateFlag`` rows.
* ``round_duplicate_pairs`` - every similar pair involving a round (``find_duplicates``).
"""
import threading
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max, Q, QuerySet

from collector.models import Question, Round
from mlcore.data.near_duplicates import DuplicateMatch, NearDuplicateIndex


@dataclass(frozen=True)
class DuplicateHit:
    """An existing question similar to a draft. ``prompt`` only for the author's own questions:
    nobody sees another author's question before validation."""

    question_id: int
    similarity: float
    own: bool
    imported: bool
    prompt: str | None


def comparison_questions(*, course_id: int) -> QuerySet[Question]:
    """The questions a new question of this course is compared with."""
    return Question.objects.filter(Q(round__course_id=course_id) | Q(source="imported"))


def _version(course_id: int) -> tuple:
    row = comparison_questions(course_id=course_id).aggregate(n=Count("id"), last=Max("updated_at"), top=Max("id"))
    return row["n"], row["last"], row["top"]


@dataclass(frozen=True)
class _Meta:
    author_id: int
    imported: bool
    prompt: str
    choices: tuple[str, ...]


@dataclass
class _CourseIndex:
    index: NearDuplicateIndex
    version: tuple
    meta: dict[int, _Meta]


class _IndexCache:
    """One index per course and threshold in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[tuple[int, float], _CourseIndex] = {}

    def get(self, course_id: int, threshold: float) -> _CourseIndex:
        with self._lock:
            version = _version(course_id)
            entry = self._entries.get((course_id, threshold))
            if entry is not None and entry.version == version:
                return entry
            if entry is None or not self._extend(entry, course_id, version):
                entry = self._build(course_id, threshold, version)
                self._entries[(course_id, threshold)] = entry
            return entry

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    @staticmethod
    def _rows(queryset: QuerySet[Question]) -> list[tuple]:
        return list(queryset.order_by("id").values_list("id", "author_id", "source", "prompt", "choices"))

    def _build(self, course_id: int, threshold: float, version: tuple) -> _CourseIndex:
        rows = self._rows(comparison_questions(course_id=course_id))
        index = NearDuplicateIndex(threshold=threshold).fit(
            [r[0] for r in rows], [r[3] for r in rows], [r[4] for r in rows]
        )
        return _CourseIndex(index, version, {r[0]: self._meta(r) for r in rows})

    @staticmethod
    def _meta(row: tuple) -> _Meta:
        return _Meta(row[1], row[2] == "imported", row[3], tuple(row[4]))

    def _extend(self, entry: _CourseIndex, course_id: int, version: tuple) -> bool:
        """Add questions that arrived since; False when something was edited or deleted."""
        count, last, _ = entry.version
        if last is None or version[0] < count:
            return False
        changed = self._rows(comparison_questions(course_id=course_id).filter(updated_at__gte=last))
        fresh = [row for row in changed if row[0] not in entry.meta]
        edited = [row for row in changed if row[0] in entry.meta and entry.meta[row[0]] != self._meta(row)]
        if edited or count + len(fresh) != version[0]:
            return False
        for row in fresh:
            entry.index.add(row[0], row[3], row[4])
            entry.meta[row[0]] = self._meta(row)
        entry.version = version
        return True


_cache = _IndexCache()


def duplicate_threshold() -> float:
    return float(settings.STUMPER_DUPLICATE_THRESHOLD)


def draft_duplicates(*, round_: Round, author_id: int, prompt: str, choices: list[str] | tuple[str, ...],
                     exclude: tuple[int, ...] = (), limit: int = 3) -> list[DuplicateHit]:
    """The existing questions most similar to a draft (at least the duplicate threshold)."""
    entry = _cache.get(round_.course_id, duplicate_threshold())
    hits = []
    for match in entry.index.query(prompt, choices, exclude=exclude)[:limit]:
        meta = entry.meta[match.key]
        own = meta.author_id == author_id
        hits.append(DuplicateHit(match.key, match.similarity, own, meta.imported, meta.prompt if own else None))
    return hits


def question_duplicate_matches(*, question: Question) -> list[DuplicateMatch]:
    """The earlier questions (or imported ones) a new question is very similar to, most similar first."""
    entry = _cache.get(question.round.course_id, duplicate_threshold())
    return [
        m for m in entry.index.query(question.prompt, question.choices, exclude=(question.pk,))
        if m.key < question.pk or entry.meta[m.key].imported
    ]


def round_duplicate_pairs(*, round_: Round, threshold: float | None = None) -> list[dict]:
    """Every pair of similar questions with at least one in ``round_`` (the other may be in
    another round of the course or imported), most similar first, as JSON-ready dicts."""
    threshold = duplicate_threshold() if threshold is None else threshold
    rows = list(
        comparison_questions(course_id=round_.course_id).order_by("id").values_list("id", "round_id", "prompt", "choices")
    )
    index = NearDuplicateIndex(threshold=threshold).fit([r[0] for r in rows], [r[2] for r in rows], [r[3] for r in rows])
    by_id = {r[0]: r for r in rows}
    result = index.pairs([r[0] for r in rows if r[1] == round_.pk])

    def describe(question_id: int) -> dict:
        _, round_id, prompt, choices = by_id[question_id]
        return {"id": question_id, "round_id": round_id, "prompt": prompt, "choices": list(choices)}

    return [{"a": describe(p.a), "b": describe(p.b), "similarity": p.similarity} for p in result.pairs]


def duplicate_flag_counts(*, round_: Round) -> int:
    """Questions of the round flagged as near-duplicates at submission."""
    return Question.objects.filter(round=round_, duplicate_flags__isnull=False).distinct().count()


def clear_index_cache() -> None:
    """Forget the per-process indexes (tests; a changed threshold)."""
    _cache.clear()

