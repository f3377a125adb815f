"""The artifact coach's checks (reads): warnings while a student writes, before artifacts reach the data.

Four checks, each switched on or off per round (``Round.coach_*``):

* ``answer_only`` - the round's answer-only model (trained with prompts blanked, see
  ``services.coach.round_answer_only_model_train``) picks the right completion. The consumer asks
  it through the same inference service as the live model; without one the check is skipped.
* ``words`` - the right completion uses words associated with right answers in the round so
  far (``mlcore.bias.coach.answer_word_table``: SPEC-bias z-scores, Bonferroni threshold).
* ``length`` - the right completion is much longer or shorter than the others.
* ``duplicate`` - the draft is very similar to an existing question (``selectors/duplicates.py``).

and, always on, ``junk``: a completion is degenerate (``selectors/junk.py``); such a question earns
no live credit until it is accepted, so this warning is not a stored ``CoachWarning`` kind.

Shown warnings are recorded and settled by ``services/coach.py``; ``coach_report`` counts both for
the round's quality report.
"""
import logging
import threading
from collections.abc import Sequence

from django.conf import settings
from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from collector.models import CoachWarning, Question, QuestionStatus, Round
from collector.selectors.duplicates import DuplicateHit, draft_duplicates
from collector.selectors.junk import junk_warning
from mlcore.bias.coach import AnswerWordTable, answer_word_table, flagged_words, length_check

logger = logging.getLogger(__name__)

ANSWER_ONLY_MESSAGE = gettext_noop("The model can find your answer without reading the prompt.")
#: The Round field that switches each kind of warning on or off.
SWITCHES = {
    CoachWarning.Kind.ANSWER_ONLY: "coach_answer_only", CoachWarning.Kind.WORDS: "coach_words",
    CoachWarning.Kind.LENGTH: "coach_length", CoachWarning.Kind.DUPLICATE: "coach_duplicates",
}


class _WordTables:
    """The word table of each round, rebuilt when its questions change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[int, tuple[tuple, AnswerWordTable]] = {}

    def get(self, round_: Round) -> AnswerWordTable:
        questions = Question.objects.filter(round=round_).exclude(status=QuestionStatus.REJECTED)
        version = tuple(questions.aggregate(n=Count("id"), last=Max("updated_at"), top=Max("id")).values())
        version += (settings.STUMPER_COACH_WORD_ALPHA, settings.STUMPER_COACH_WORD_MIN_COUNT)
        with self._lock:
            cached = self._tables.get(round_.pk)
            if cached is not None and cached[0] == version:
                return cached[1]
        rows = list(questions.values_list("choices", "correct_index"))
        table = answer_word_table(
            [choices for choices, _ in rows], [answer for _, answer in rows],
            alpha=settings.STUMPER_COACH_WORD_ALPHA, min_count=settings.STUMPER_COACH_WORD_MIN_COUNT,
        )
        with self._lock:
            self._tables[round_.pk] = (version, table)
        return table

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


_word_tables = _WordTables()


def clear_word_tables() -> None:
    """Forget the per-process word tables (tests; changed settings are picked up anyway)."""
    _word_tables.clear()


def round_word_table(*, round_: Round) -> AnswerWordTable:
    """Words that mark right completions in the round's questions so far (rejected ones left out)."""
    return _word_tables.get(round_)


def _quote(words: Sequence[str]) -> str:
    return ", ".join(f"“{word}”" for word in words)


def text_warnings(*, round_: Round, author_id: int, prompt: str, choices: Sequence[str], answer: int | None,
                  exclude_question: int | None = None) -> list[dict]:
    """The warnings that need no model: junk, duplicates, words and length (JSON-ready dicts)."""
    warnings = junk_warning(choices)  # always on: it decides live credit, so the author must see it
    if round_.coach_duplicates:
        exclude = (exclude_question,) if exclude_question else ()
        hits = draft_duplicates(round_=round_, author_id=author_id, prompt=prompt, choices=choices,
                                           exclude=exclude)
        if hits:
            warnings.append(_duplicate_warning(hits[0]))
    if answer is None:
        return warnings
    if round_.coach_words:
        words = [w.word for w in flagged_words(choices[answer], round_word_table(round_=round_))]
        if words:
            warnings.append({
                "kind": CoachWarning.Kind.WORDS, "words": words,
                "message": _("Your right completion uses %(words)s: in this round such words mostly appear in right "
                             "answers, so a model can learn to pick them without understanding. Try other wording.")
                % {"words": _quote(words)},
            })
    if round_.coach_length:
        check = length_check(choices, answer)
        if check.warn:
            warnings.append({
                "kind": CoachWarning.Kind.LENGTH, "direction": check.direction,
                "message": _length_message(check.direction, check.right_words, check.others_mean),
            })
    return warnings


def _length_message(direction: str, right_words: int, others_mean: float) -> str:
    values = {"right": right_words, "others": f"{others_mean:.0f}"}
    if direction == "longer":
        return _("Your right completion is much longer than the others (%(right)s words; the others %(others)s on "
                 "average). Models notice length: make them more alike.") % values
    return _("Your right completion is much shorter than the others (%(right)s words; the others %(others)s on "
             "average). Models notice length: make them more alike.") % values


def _duplicate_warning(hit: DuplicateHit) -> dict:
    values = {"percent": round(100 * hit.similarity), "prompt": hit.prompt}
    if hit.own:
        message = _("Very similar (%(percent)s%% of words shared) to your own question “%(prompt)s”.") % values
    elif hit.imported:
        message = _("Very similar (%(percent)s%% of words shared) to a question of an existing data set.") % values
    else:
        message = _("Very similar (%(percent)s%% of words shared) to an existing question. "
                    "Near-duplicates are rejected.") % values
    return {"kind": CoachWarning.Kind.DUPLICATE, "similarity": hit.similarity, "message": message}


def answer_only_warning(*, round_: Round, answer: int | None, answer_only_pick: int | None) -> list[dict]:
    """The answer-only warning when the answer-only model picked the marked answer."""
    if not round_.coach_answer_only or answer is None or answer_only_pick is None or answer_only_pick != answer:
        return []
    return [{"kind": CoachWarning.Kind.ANSWER_ONLY, "message": _(ANSWER_ONLY_MESSAGE)}]


def coach_report(*, round_: Round) -> list[dict]:
    """Per kind: how often the warning was shown (questions written), and for the submitted
    questions how often it was heeded (gone at submission) or ignored."""
    rows = CoachWarning.objects.filter(round=round_).values("kind").annotate(
        shown=Count("id"),
        submitted=Count("id", filter=Q(question__isnull=False)),
        heeded=Count("id", filter=Q(present_at_submit=False)),
        ignored=Count("id", filter=Q(present_at_submit=True)),
    )
    by_kind = {row["kind"]: row for row in rows}
    report = []
    for kind, label in CoachWarning.Kind.choices:
        row = by_kind.get(kind, {"shown": 0, "submitted": 0, "heeded": 0, "ignored": 0})
        settled = row["heeded"] + row["ignored"]
        report.append({
            "kind": kind, "label": label, "enabled": getattr(round_, SWITCHES[kind]),
            "shown": row["shown"], "submitted": row["submitted"], "heeded": row["heeded"], "ignored": row["ignored"],
            "heeded_rate": row["heeded"] / settled if settled else None,
        })
    return report


def coach_notes(*, round_: Round) -> list[str]:
    """What the instructor should know about the coach of this round."""
    notes = []
    if round_.coach_answer_only and round_.answer_only_model is None:
        notes.append(
            _("The answer-only warning is on, but the round has no answer-only model yet, so it is not shown. "
              "Train one below (it learns from the round's questions with the prompts blanked).")
        )
    if round_.coach_words and len(round_word_table(round_=round_)) == 0:
        notes.append(
            _("No word is significantly associated with right answers in this round yet; the word warning "
              "appears once one is (it needs a word in at least %(count)s completions).")
            % {"count": settings.STUMPER_COACH_WORD_MIN_COUNT}
        )
    return notes
