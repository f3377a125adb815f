"""Reads of a round's panel of target models and of a question's verdicts and panel credit.

``round_panel`` is the panel as scoring uses it: the round's rows, or (a round without rows) one
shown seat for its live model. ``question_panel_credit`` applies the round's credit rule
(``mlcore.stats.credit``) to the verdicts of the models that were shown when the question was
submitted. The live model's verdict is its live ``Prediction`` (the row every other page reads),
so a round of one shown model earns exactly what it earned before panels.
"""
from dataclasses import dataclass

from collector.models import PanelRole, Prediction, Question, Round, RoundPanelMember, SubmissionVerdict
from mlcore.stats.credit import CreditRule, PanelCredit, panel_credit
from modelhub.models import ModelVersion


@dataclass(frozen=True)
class PanelSeat:
    """One model of a round's panel; ``model_version`` None means the default model (no live model set)."""

    model_version: ModelVersion | None
    position: int
    role: str
    weight: int = 1

    @property
    def shown(self) -> bool:
        return self.role == PanelRole.SHOWN


def _members(round_: Round) -> list[RoundPanelMember]:
    cache = getattr(round_, "_prefetched_objects_cache", {})
    if "panel_members" in cache:
        return sorted(cache["panel_members"], key=lambda member: member.position)
    return list(round_.panel_members.select_related("model_version").order_by("position"))


def round_panel(*, round_: Round) -> list[PanelSeat]:
    """The round's panel in order (at least one seat; the first shown seat is the live model)."""
    members = _members(round_)
    if members:
        return [PanelSeat(m.model_version, m.position, m.role, m.weight) for m in members]
    return [PanelSeat(round_.live_model, 0, PanelRole.SHOWN, 1)]


def round_credit_rule(*, round_: Round) -> CreditRule:
    """The round's credit rule as ``mlcore.stats.credit`` takes it."""
    return CreditRule(round_.credit_rule, max(1, round_.credit_k))


def question_verdicts(question: Question) -> list[SubmissionVerdict]:
    """The question's verdicts in panel order (prefetched as ``verdicts`` by the question selectors)."""
    return sorted(question.verdicts.all(), key=lambda verdict: verdict.position)


def question_shown_fooled(*, question: Question, prediction: Prediction | None) -> tuple[list[bool | None], list[int]]:
    """Whether each model shown at submission was fooled (None: not known yet), and their weights.

    A question without verdicts (submitted before panels, or not scored yet) has the one shown
    model of its live prediction.
    """
    live_fooled = prediction.fooled if prediction is not None and prediction.status == Prediction.Status.DONE else None
    shown = [verdict for verdict in question_verdicts(question) if verdict.role == PanelRole.SHOWN]
    if not shown:
        return [live_fooled], [1]
    weights = {member.model_version_id: member.weight for member in _members(question.round)}
    fooled: list[bool | None] = []
    for verdict in shown:
        if prediction is not None and verdict.model_version_id == prediction.model_version_id:
            fooled.append(live_fooled)  # the live Prediction is the live model's verdict
        else:
            fooled.append(verdict.fooled if verdict.status == SubmissionVerdict.Status.DONE else None)
    return fooled, [weights.get(verdict.model_version_id, 1) for verdict in shown]


def question_panel_credit(*, question: Question, prediction: Prediction | None) -> PanelCredit:
    """The share of the round's live weight the question earns under the round's credit rule.

    ``at_least_k`` with a k above the number of shown models asks for all of them; a weighted
    panel whose weights are all 0 counts each model once.
    """
    fooled, weights = question_shown_fooled(question=question, prediction=prediction)
    rule = round_credit_rule(round_=question.round)
    if rule.k > len(fooled):
        rule = CreditRule(rule.kind, len(fooled))
    return panel_credit(fooled, rule, weights if sum(weights) > 0 else None)
