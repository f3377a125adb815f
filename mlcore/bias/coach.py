"""The artifact coach's checks: signs that a question can be answered without reading it.

Pure functions, no Django. The collector runs them on every draft (``collector/selectors/coach.py``)
and turns the results into messages.

* :func:`answer_word_table` - words whose presence in a completion is strongly associated
  with it being the right one, in the questions so far: the z-scores of SPEC-bias §1.3
  (:func:`mlcore.bias.lexical_association.lexical_zscores`) with each completion an instance
  labelled right/wrong and the null ``p0`` = the prior 1/4, kept when ``z`` passes the
  one-sided Bonferroni threshold over the vocabulary.
* :func:`flagged_words` - which of those words a completion uses.
* :func:`length_check` - is the right completion much longer or shorter than the others?
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from mlcore.bias.lexical import lexical_features, lexical_tokens
from mlcore.bias.lexical_association import bonferroni_z_threshold, lexical_zscores
from mlcore.bias.stopwords import STOP_WORDS

__all__ = [
    "AnswerWordTable",
    "LengthCheck",
    "WordAssociation",
    "answer_word_table",
    "flagged_words",
    "length_check",
]

RIGHT, WRONG = "right", "wrong"


@dataclass(frozen=True)
class WordAssociation:
    """How strongly one word marks right completions: ``statistic`` is its z-score."""

    word: str
    statistic: float
    n: int  # completions containing the word
    right: int  # of which right ones


@dataclass(frozen=True)
class AnswerWordTable:
    """The words that mark right completions in a set of questions."""

    words: Mapping[str, WordAssociation]
    threshold: float  # z* the words passed
    n_questions: int
    min_count: int

    def __len__(self) -> int:
        return len(self.words)


EMPTY_TABLE = AnswerWordTable(MappingProxyType({}), float("inf"), 0, 1)


def answer_word_table(
    choices: Sequence[Sequence[str]],
    answers: Sequence[int],
    *,
    alpha: float = 0.05,
    min_count: int = 5,
    stop_words: Collection[str] = STOP_WORDS,
) -> AnswerWordTable:
    """Words significantly associated with right completions.

    Parameters
    ----------
    choices : sequence of sequences of str
        The completions of each question.
    answers : sequence of int
        Index of each question's right completion.
    alpha : float
        Family-wise level of the one-sided Bonferroni threshold over all words.
    min_count : int
        A word must appear in at least this many completions.
    stop_words : collection of str
        Words never reported (the SPEC-bias list by default).

    Returns
    -------
    AnswerWordTable

    Examples
    --------
    >>> questions = [[f"surely {i}", f"no {i}", f"nah {i}", f"nope {i}"] for i in range(8)]
    >>> table = answer_word_table(questions, [0] * 8, min_count=5)
    >>> sorted(table.words), table.words["surely"].right
    (['surely'], 8)
    """
    if len(choices) != len(answers):
        raise ValueError(f"{len(choices)} questions but {len(answers)} answers")
    if int(min_count) != min_count or min_count < 1:
        raise ValueError(f"min_count must be a positive integer, got {min_count!r}")
    if not choices:
        return AnswerWordTable(MappingProxyType({}), float("inf"), 0, int(min_count))
    texts: list[str] = []
    labels: list[str] = []
    for options, answer in zip(choices, answers):
        if not 0 <= answer < len(options):
            raise ValueError(f"answer {answer} is not an index of {len(options)} completions")
        texts.extend(options)
        labels.extend(RIGHT if i == answer else WRONG for i in range(len(options)))
    features = lexical_features(texts)
    if not features.vocabulary:
        return AnswerWordTable(MappingProxyType({}), float("inf"), len(choices), int(min_count))
    # p0 = the prior (1/4 with four completions), not 1/2: most completions are wrong by design.
    zscores = lexical_zscores(features, labels, label_set=(RIGHT, WRONG), p0="prior")
    threshold = bonferroni_z_threshold(alpha, len(features.vocabulary))
    z = zscores.statistic[:, 0]
    with np.errstate(invalid="ignore"):
        keep = np.flatnonzero((z > threshold) & (zscores.n >= min_count))
    words = {}
    for i in keep:
        word = features.vocabulary[i]
        if isinstance(word, str) and word not in stop_words:
            words[word] = WordAssociation(word, float(z[i]), int(zscores.n[i]), int(zscores.counts[i, 0]))
    ordered = dict(sorted(words.items(), key=lambda item: (-item[1].statistic, item[0])))
    return AnswerWordTable(MappingProxyType(ordered), float(threshold), len(choices), int(min_count))


def flagged_words(text: str, table: AnswerWordTable) -> tuple[WordAssociation, ...]:
    """The table's words that ``text`` contains, most strongly associated first.

    Examples
    --------
    >>> questions = [[f"surely {i}", f"no {i}", f"nah {i}", f"nope {i}"] for i in range(8)]
    >>> [w.word for w in flagged_words("Surely, he did.", answer_word_table(questions, [0] * 8))]
    ['surely']
    """
    present = set(lexical_tokens(text))
    return tuple(association for word, association in table.words.items() if word in present)


@dataclass(frozen=True)
class LengthCheck:
    """The right completion's length against the others' (in words).

    ``statistic`` is the ratio of the right completion's length to the mean of the others;
    ``direction`` is ``"longer"`` or ``"shorter"`` when that is a warning, else ``None``.
    """

    statistic: float
    right_words: int
    others_mean: float
    direction: str | None

    @property
    def warn(self) -> bool:
        return self.direction is not None


def length_check(choices: Sequence[str], answer: int, *, ratio: float = 2.0, min_difference: float = 4.0) -> LengthCheck:
    """Is the right completion much longer (or shorter) than every other one?

    It warns when the right completion is the longest (shortest) of all, at least ``ratio``
    times longer (shorter) than the others' mean, and differs from that mean by at least
    ``min_difference`` words: length alone then gives the answer away. The defaults warn on
    8% of CODAH questions (at 1.5 and 3 words: 17%, too many to be heeded).

    Examples
    --------
    >>> length_check(["went home after a very long and tiring day.", "ran.", "sat.", "ate."], 0).direction
    'longer'
    >>> length_check(["went home.", "ran away.", "sat down.", "ate it."], 0).direction is None
    True
    """
    if len(choices) < 2 or not 0 <= answer < len(choices):
        raise ValueError("need at least two completions and a valid answer index")
    if ratio <= 1.0 or min_difference < 0:
        raise ValueError("ratio must be > 1 and min_difference >= 0")
    lengths = [len(text.split()) for text in choices]
    right = lengths[answer]
    others = lengths[:answer] + lengths[answer + 1:]
    mean = sum(others) / len(others)
    statistic = right / mean if mean else float("inf")
    direction = None
    if right > max(others) and statistic >= ratio and right - mean >= min_difference:
        direction = "longer"
    elif right < min(others) and statistic <= 1 / ratio and mean - right >= min_difference:
        direction = "shorter"
    return LengthCheck(statistic=float(statistic), right_words=right, others_mean=float(mean), direction=direction)
