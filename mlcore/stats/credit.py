"""How much live credit one question earns against a round's panel of target models.

A round's panel is an ordered list of models; each submission gets one verdict per model
(fooled, not fooled, or not known yet). The round's credit rule turns the verdicts of the
models that count into a share of the round's live weight, exactly (``fractions.Fraction``):

* ``any`` - 1 when at least one model was fooled, else 0;
* ``all`` - 1 when every model was fooled, else 0 (a model not known yet is not fooled);
* ``at_least_k`` - 1 when at least ``k`` models were fooled, else 0;
* ``weighted`` - the weights of the fooled models over the sum of all weights, so a panel
  whose models all have the same weight gives the share of models fooled.

A verdict not known yet (``None``: the model has not answered, or its call failed) counts as not
fooled, as a pending live prediction earns nothing today; ``pending`` says how many there are.
With one model every rule gives 1 when it was fooled and 0 otherwise: a round of one model earns
exactly the credit it earned before panels existed.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["CreditRule", "CreditRuleKind", "PanelCredit", "panel_credit"]


class CreditRuleKind(enum.StrEnum):
    """Which models a question must fool to earn its live credit."""

    ANY = "any"
    ALL = "all"
    AT_LEAST_K = "at_least_k"
    WEIGHTED = "weighted"


@dataclass(frozen=True)
class CreditRule:
    """A round's credit rule; ``k`` is read by ``at_least_k`` only (and must be at least 1)."""

    kind: CreditRuleKind = CreditRuleKind.ANY
    k: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", CreditRuleKind(self.kind))  # a stored string is accepted
        if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
            raise ValueError(f"k must be an int >= 1, got {self.k!r}")


@dataclass(frozen=True)
class PanelCredit:
    """The outcome of :func:`panel_credit`.

    Attributes
    ----------
    share : Fraction
        The share of the round's live weight the question earns, in [0, 1].
    fooled : int
        Models fooled.
    pending : int
        Models whose verdict is not known yet (counted as not fooled).
    models : int
        Models that count.
    """

    share: Fraction
    fooled: int
    pending: int
    models: int

    @property
    def earned(self) -> bool:
        """True when the question earns some credit."""
        return self.share > 0

    @property
    def complete(self) -> bool:
        """True when every model's verdict is known (the share can no longer grow)."""
        return self.pending == 0


def _weights(weights: Sequence[Fraction | int | str] | None, n: int) -> list[Fraction]:
    if weights is None:
        return [Fraction(1)] * n
    if len(weights) != n:
        raise ValueError(f"expected {n} weights, got {len(weights)}")
    exact = []
    for weight in weights:
        if isinstance(weight, (bool, float)):  # a float is not exact; a bool is no weight
            raise ValueError(f"weights must be ints, Fractions or 'p/q' strings, got {weight!r}")
        value = Fraction(weight)
        if value < 0:
            raise ValueError(f"weights must be >= 0, got {weight!r}")
        exact.append(value)
    if sum(exact) == 0:
        raise ValueError("at least one weight must be positive")
    return exact


def panel_credit(fooled: Sequence[bool | None], rule: CreditRule,
                 weights: Sequence[Fraction | int | str] | None = None) -> PanelCredit:
    """The share of live credit earned by a question with these verdicts, one per model in order.

    Parameters
    ----------
    fooled : sequence of bool or None
        Whether each model that counts was fooled; ``None`` when not known yet.
    rule : CreditRule
        The round's rule.
    weights : sequence of int, Fraction or str, optional
        One non-negative exact weight per model (``weighted`` only; default all 1).

    Returns
    -------
    PanelCredit

    Raises
    ------
    ValueError
        An empty panel, ``k`` larger than the panel, or bad weights.

    Examples
    --------
    >>> panel_credit([True, False, None], CreditRule("any")).share
    Fraction(1, 1)
    >>> panel_credit([True, False, None], CreditRule("at_least_k", k=2)).share
    Fraction(0, 1)
    >>> panel_credit([True, True, False], CreditRule("weighted"), ["1/2", "1/3", "1/6"]).share
    Fraction(5, 6)
    """
    n = len(fooled)
    if n == 0:
        raise ValueError("a panel has at least one model")
    if rule.kind is CreditRuleKind.AT_LEAST_K and rule.k > n:
        raise ValueError(f"k = {rule.k} is more than the panel's {n} models")
    exact = _weights(weights if rule.kind is CreditRuleKind.WEIGHTED else None, n)
    hits = [verdict is True for verdict in fooled]
    count = sum(hits)
    if rule.kind is CreditRuleKind.ANY:
        share = Fraction(int(count >= 1))
    elif rule.kind is CreditRuleKind.ALL:
        share = Fraction(int(count == n))
    elif rule.kind is CreditRuleKind.AT_LEAST_K:
        share = Fraction(int(count >= rule.k))
    else:
        share = sum((w for w, hit in zip(exact, hits) if hit), Fraction(0)) / sum(exact)
    return PanelCredit(share=share, fooled=count, pending=sum(v is None for v in fooled), models=n)
