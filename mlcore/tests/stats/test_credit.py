"""panel_credit against definitions written another way, over every verdict vector of up to 5 models."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from mlcore.stats.credit import CreditRule, CreditRuleKind, PanelCredit, panel_credit

VERDICTS = (True, False, None)


def _vectors(max_models: int = 5):
    for n in range(1, max_models + 1):
        yield from itertools.product(VERDICTS, repeat=n)


def _some_k_fooled(fooled: tuple, k: int) -> bool:
    # "at least k fooled" as "some k models are all fooled": subsets, not a count.
    return any(all(fooled[i] is True for i in subset) for subset in itertools.combinations(range(len(fooled)), k))


def test_any_all_and_at_least_k_over_every_verdict_vector() -> None:
    for fooled in _vectors():
        n = len(fooled)
        assert panel_credit(fooled, CreditRule("any")).share == int(_some_k_fooled(fooled, 1))
        assert panel_credit(fooled, CreditRule("all")).share == int(_some_k_fooled(fooled, n))
        for k in range(1, n + 1):
            result = panel_credit(fooled, CreditRule(CreditRuleKind.AT_LEAST_K, k=k))
            assert result.share == int(_some_k_fooled(fooled, k)), (fooled, k)
            assert (result.fooled, result.pending, result.models) == (fooled.count(True), fooled.count(None), n)
            assert result.complete == (None not in fooled) and result.earned == (result.share > 0)


def test_weighted_is_exact_over_every_verdict_vector() -> None:
    rng = random.Random(28)
    for fooled in _vectors(4):
        weights = [Fraction(rng.randint(0, 6), rng.randint(1, 7)) for _ in fooled]
        if sum(weights) == 0:
            weights[0] = Fraction(1, 3)
        share = panel_credit(fooled, CreditRule("weighted"), weights).share
        # Reference in integers: scale every weight by the common denominator.
        scale = math.lcm(*(w.denominator for w in weights))
        ints = [int(w * scale) for w in weights]
        assert share * sum(ints) == sum(w for w, f in zip(ints, fooled) if f is True)
        assert isinstance(share, Fraction) and 0 <= share <= 1


def test_weighted_sums_of_thirds_are_exact_where_floats_are_not() -> None:
    thirds = ["1/3", "1/3", "1/3"]
    assert panel_credit([True, True, True], CreditRule("weighted"), thirds).share == 1
    assert panel_credit([True, False, True], CreditRule("weighted"), thirds).share == Fraction(2, 3)
    assert panel_credit([True, True, False], CreditRule("weighted"), ["1/10", "2/10", 7]).share == Fraction(3, 73)
    assert panel_credit([False, True, True], CreditRule("weighted"), [1, 1, 1]).share == Fraction(2, 3)
    assert 0.1 + 0.2 != 0.3 and panel_credit([True, True, False], CreditRule("weighted"),
                                             ["1/10", "2/10", "7/10"]).share == Fraction(3, 10)


def test_equal_weights_give_the_share_of_models_fooled() -> None:
    for fooled in _vectors(4):
        share = panel_credit(fooled, CreditRule("weighted")).share
        assert share == Fraction(fooled.count(True), len(fooled))


def test_one_model_gives_todays_credit_under_every_rule() -> None:
    for kind in CreditRuleKind:
        for verdict, expected in ((True, 1), (False, 0), (None, 0)):
            assert panel_credit([verdict], CreditRule(kind), [5]).share == expected


@pytest.mark.parametrize(("fooled", "rule", "weights"), [
    ([], CreditRule("any"), None),
    ([True, False], CreditRule("at_least_k", k=3), None),
    ([True], CreditRule("weighted"), [-1]),
    ([True], CreditRule("weighted"), [0]),
    ([True], CreditRule("weighted"), [0.5]),
    ([True], CreditRule("weighted"), [True]),
    ([True, False], CreditRule("weighted"), [1]),
])
def test_bad_arguments_are_refused(fooled: list, rule: CreditRule, weights: list | None) -> None:
    with pytest.raises(ValueError):
        panel_credit(fooled, rule, weights)


def test_a_rule_takes_stored_strings_and_refuses_a_bad_k() -> None:
    assert CreditRule("at_least_k", 2).kind is CreditRuleKind.AT_LEAST_K
    for k in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            CreditRule("at_least_k", k)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CreditRule("most")  # type: ignore[arg-type]
    assert PanelCredit(Fraction(0), 0, 1, 1).complete is False
