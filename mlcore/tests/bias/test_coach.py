"""mlcore.bias.coach: the words that mark right completions, and the length check."""
import math

import pytest
from scipy import stats

from mlcore.bias.coach import answer_word_table, flagged_words, length_check


def _questions(n: int, right_word: str = "surely", wrong_word: str = "maybe") -> tuple[list[list[str]], list[int]]:
    """n questions whose right completion (index i % 4) contains ``right_word``; ``wrong_word``
    and "home" appear in every completion."""
    choices, answers = [], []
    for i in range(n):
        answer = i % 4
        options = [f"{wrong_word} went home {i} {j}" for j in range(4)]
        options[answer] = f"{right_word} went home {i}"
        choices.append(options)
        answers.append(answer)
    return choices, answers


def test_a_word_only_in_right_completions_is_flagged_with_its_z_score():
    choices, answers = _questions(12)
    table = answer_word_table(choices, answers, min_count=5)
    assert list(table.words) == ["surely"]
    association = table.words["surely"]
    # [G21] z with p0 = 1/4: (1 - 1/4) / sqrt(1/4 * 3/4 / 12)
    assert association.statistic == pytest.approx(0.75 / math.sqrt(0.1875 / 12))
    assert (association.n, association.right) == (12, 12)
    # The Bonferroni threshold over the whole vocabulary (surely, maybe, went, home and the numbers).
    vocabulary = {w for options in choices for text in options for w in text.split()}
    assert table.threshold == pytest.approx(stats.norm.isf(0.05 / len(vocabulary)))
    assert table.n_questions == 12


def test_words_in_right_and_wrong_completions_alike_are_not_flagged():
    choices, answers = _questions(40)
    table = answer_word_table(choices, answers)
    assert "home" not in table.words and "went" not in table.words and "maybe" not in table.words


def test_rare_words_and_stop_words_are_not_flagged():
    choices, answers = _questions(4)
    assert len(answer_word_table(choices, answers, min_count=5)) == 0  # too rare: 4 < 5
    choices, answers = _questions(12, right_word="not")
    assert "not" not in answer_word_table(choices, answers).words  # a stop word


def test_flagged_words_reads_a_completion_like_the_tokenizer():
    choices, answers = _questions(12)
    table = answer_word_table(choices, answers)
    assert [w.word for w in flagged_words("SURELY, he went.", table)] == ["surely"]
    assert flagged_words("he went home", table) == ()


def test_no_questions_gives_an_empty_table():
    table = answer_word_table([], [])
    assert len(table) == 0 and table.n_questions == 0


@pytest.mark.parametrize(
    "choices, answers, kwargs, message",
    [([["a", "b"]], [0, 1], {}, "answers"), ([["a", "b"]], [2], {}, "index"), ([["a", "b"]], [0], {"min_count": 0}, "min_count")],
)
def test_bad_input_is_explained(choices, answers, kwargs, message):
    with pytest.raises(ValueError, match=message):
        answer_word_table(choices, answers, **kwargs)


def test_length_check_warns_about_a_much_longer_right_completion():
    choices = ["went home after a very long and tiring day at work.", "ran.", "sat down.", "ate."]
    check = length_check(choices, 0)
    assert check.direction == "longer" and check.warn
    assert check.right_words == 11 and check.others_mean == pytest.approx(4 / 3)
    assert check.statistic == pytest.approx(11 / (4 / 3))


def test_length_check_warns_about_a_much_shorter_right_completion():
    choices = ["went home after a very long day.", "left the house at noon today.", "no.", "sat on the old red chair."]
    assert length_check(choices, 2).direction == "shorter"


def test_length_check_is_quiet_when_lengths_are_alike_or_the_gap_is_small():
    assert not length_check(["went home.", "ran away fast.", "sat down.", "ate it."], 0).warn
    # Twice as long but only two words more: not worth a warning.
    assert not length_check(["went home now.", "ran.", "sat.", "ate."], 0).warn
    # Longest, but another completion is just as long: length does not give it away.
    assert not length_check(["a b c d e f g h", "a b c d e f g h", "x.", "y."], 0).warn


def test_length_check_arguments():
    with pytest.raises(ValueError):
        length_check(["a"], 0)
    with pytest.raises(ValueError):
        length_check(["a", "b"], 0, ratio=1.0)
