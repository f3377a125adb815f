"""The forced-choice instance builder shared by the round report and ``manage.py lexical_bias_mc``."""
from evaluation.reports import lexical as lexical_sections
from evaluation.reports.lexical import choice_instances, choice_predictions


def test_each_completion_is_an_instance_labelled_by_the_gold_index():
    data = choice_instances([10, 11], [("a.", "b.", "c.", "d."), ("e.", "f.", "g.", "h.")], [2, 0])
    assert data.keys[:2] == ((10, 0), (10, 1)) and data.texts[4] == "e."
    assert data.labels == ("incorrect", "incorrect", "correct", "incorrect", "correct", "incorrect", "incorrect",
                           "incorrect")
    assert choice_predictions([2, 3], [("a.", "b.", "c.", "d."), ("e.", "f.", "g.", "h.")]) == (
        "incorrect", "incorrect", "correct", "incorrect", "incorrect", "incorrect", "incorrect", "correct")


def test_docstring_examples():
    import doctest

    assert doctest.testmod(lexical_sections).failed == 0
