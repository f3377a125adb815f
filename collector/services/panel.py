"""Writes of a round's panel of target models and its credit rule.

``round_panel_set`` replaces the whole panel (add, remove, reorder, shown / held out, weights) and
the credit rule at once, all or nothing: every problem is reported together, and a model that
fails to load is refused with its error, so the round keeps its previous panel. The round's live
model becomes the panel's first shown model (``models/panel.py``).
"""
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from collector.models import CreditRuleChoice, PanelRole, Round, RoundPanelMember
from collector.selectors.panel import round_panel
from collector.signals import credit_changed
from modelhub.inference import live_model_for
from modelhub.models import ModelVersion
from modelhub.selectors import NO_SUCH_MODEL, PANEL_MODEL_KINDS, model_version_usable

#: Most models in one panel: each shown one answers every draft of every author.
MAX_PANEL_MODELS = 8
MAX_WEIGHT = 1000


@dataclass(frozen=True)
class PanelChoice:
    """One model of a panel as an instructor chose it."""

    model_version: ModelVersion
    role: str = PanelRole.SHOWN
    weight: int = 1


def _panel_problems(*, round_: Round, members: Sequence[PanelChoice], credit_rule: str, credit_k: int,
                    user: User | None) -> list[str]:
    problems = []
    if not 1 <= len(members) <= MAX_PANEL_MODELS:
        problems.append(gettext("A panel has from 1 to %(most)d models.") % {"most": MAX_PANEL_MODELS})
    ids = [choice.model_version.pk for choice in members]
    if len(set(ids)) != len(ids):
        problems.append(gettext("A model can be in the panel only once."))
    for choice in members:
        name = choice.model_version.name
        usable = model_version_usable(model_version=choice.model_version, user=user, course_id=round_.course_id)
        if not usable or choice.model_version.kind not in PANEL_MODEL_KINDS:
            problems.append(f"{choice.model_version.pk}: {gettext(NO_SUCH_MODEL)}" if not usable else
                            gettext("%(model)s does not answer multiple-choice questions.") % {"model": name})
        if choice.role not in PanelRole.values:
            problems.append(gettext("Choose the role of %(model)s: %(roles)s.") % {"model": name,
                                                                                  "roles": ", ".join(PanelRole.values)})
        if isinstance(choice.weight, bool) or not isinstance(choice.weight, int) or not 0 <= choice.weight <= MAX_WEIGHT:
            problems.append(gettext("The weight of %(model)s must be a whole number from 0 to %(most)d.")
                            % {"model": name, "most": MAX_WEIGHT})
    shown = [choice for choice in members if choice.role == PanelRole.SHOWN]
    if members and not shown:
        problems.append(gettext("At least one model must be shown to authors."))
    elif shown and shown[0].model_version.kind == ModelVersion.Kind.OPENAI_COMPATIBLE:
        # The first shown model is the authoring page's live model, and that page shows one answer:
        # a remote call that fails would leave it without one. Put a local model first.
        problems.append(gettext("The first shown model answers on the authoring page: make it a local model, "
                                "not an endpoint."))
    if credit_rule not in CreditRuleChoice.values:
        problems.append(gettext("Choose a credit rule: %(rules)s.") % {"rules": ", ".join(CreditRuleChoice.values)})
    elif credit_rule == CreditRuleChoice.AT_LEAST_K and not 1 <= credit_k <= max(1, len(shown)):
        problems.append(gettext("k must be from 1 to the number of shown models (%(shown)d).") % {"shown": len(shown)})
    elif credit_rule == CreditRuleChoice.WEIGHTED and shown and not any(choice.weight for choice in shown):
        problems.append(gettext("With the weighted rule at least one shown model needs a weight above 0."))
    return problems


def _load_problems(*, round_: Round, members: Sequence[PanelChoice]) -> list[str]:
    """Load every model that is new to the panel; one that fails is refused with its error."""
    current = {seat.model_version.pk for seat in round_panel(round_=round_) if seat.model_version is not None}
    problems = []
    for choice in members:
        if choice.model_version.pk in current:
            continue
        try:
            live_model_for(choice.model_version)
        except Exception as error:  # a load error, a missing key variable, a bad path: said, not raised
            problems.append(gettext("%(model)s could not be loaded: %(error)s")
                            % {"model": choice.model_version.name, "error": error})
    return problems


def round_panel_set(*, round_: Round, members: Sequence[PanelChoice], credit_rule: str = CreditRuleChoice.ANY,
                    credit_k: int = 1, user: User | None = None) -> Round:
    """Replace the round's panel and credit rule, or raise one ValidationError with every problem
    (``{"panel": [...]}``) and change nothing. ``user`` (None: the system) must be allowed to use
    each model in the round's course; each model new to the panel is loaded first."""
    problems = _panel_problems(round_=round_, members=members, credit_rule=credit_rule, credit_k=credit_k, user=user)
    if not problems:
        problems = _load_problems(round_=round_, members=members)
    if problems:
        raise ValidationError({"panel": problems})
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        RoundPanelMember.objects.filter(round=locked).delete()
        RoundPanelMember.objects.bulk_create([
            RoundPanelMember(round=locked, model_version=choice.model_version, position=position, role=choice.role,
                             weight=choice.weight)
            for position, choice in enumerate(members)
        ])
        first_shown = next(choice.model_version for choice in members if choice.role == PanelRole.SHOWN)
        Round.objects.filter(pk=locked.pk).update(live_model=first_shown, credit_rule=credit_rule,
                                                  credit_k=credit_k)
    credit_changed.send(sender=Round, round_id=round_.pk, user_ids=None)
    return Round.objects.select_related("live_model").get(pk=round_.pk)
