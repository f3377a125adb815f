"""JSON API of a round's panel of target models and its credit rule, for its course's instructors.

GET  /api/rounds/<id>/panel/          the models in order (shown or held out, weight) and the credit rule
POST /api/rounds/<id>/panel/update/   the whole new panel and rule; checked together, all or nothing
"""
from rest_framework import serializers

from accounts.models import User
from collector.models import CreditRuleChoice, PanelRole, Round
from collector.selectors.panel import round_panel
from collector.selectors.rounds import round_for_manager
from collector.services.panel import MAX_PANEL_MODELS, MAX_WEIGHT, PanelChoice, round_panel_set
from core.apis import ActionApi, DetailApi
from modelhub.apis import UsableModelField
from modelhub.selectors import PANEL_MODEL_KINDS


class PanelMemberSerializer(serializers.Serializer):
    """One model of a new panel; the request's user must be allowed to use it."""

    model_version = UsableModelField(kinds=PANEL_MODEL_KINDS,
                                     help_text="Id of a model version this user may use (GET /api/models/)")
    role = serializers.ChoiceField(choices=PanelRole.choices, default=PanelRole.SHOWN)
    weight = serializers.IntegerField(min_value=0, max_value=MAX_WEIGHT, default=1)


class RoundPanelSerializer(serializers.Serializer):
    """The round's panel in order and its credit rule."""

    members = serializers.ListField(child=serializers.DictField(),
                                    help_text="[{position, model_version, name, kind, role, weight}] in panel order")
    credit_rule = serializers.ChoiceField(choices=CreditRuleChoice.choices)
    credit_k = serializers.IntegerField()

    def to_representation(self, round_: Round):
        members = [
            {"position": seat.position, "model_version": seat.model_version.pk if seat.model_version else None,
             "name": seat.model_version.name if seat.model_version else None,
             "kind": seat.model_version.kind if seat.model_version else None, "role": seat.role, "weight": seat.weight}
            for seat in round_panel(round_=round_)
        ]
        return super().to_representation(
            {"members": members, "credit_rule": round_.credit_rule, "credit_k": round_.credit_k})


class RoundPanelApi(DetailApi):
    """GET the round's panel and credit rule; its instructors only."""

    OutputSerializer = RoundPanelSerializer
    lookup = staticmethod(round_for_manager)


class RoundPanelUpdateApi(ActionApi):
    """POST the whole panel (its order is the list's) and the credit rule. A model that fails to load
    is refused with its error and the round keeps its previous panel; the first shown model becomes
    the round's live model."""

    success_status = 200

    class InputSerializer(serializers.Serializer):
        members = PanelMemberSerializer(many=True, min_length=1, max_length=MAX_PANEL_MODELS)
        credit_rule = serializers.ChoiceField(choices=CreditRuleChoice.choices, default=CreditRuleChoice.ANY)
        credit_k = serializers.IntegerField(min_value=1, max_value=MAX_PANEL_MODELS, default=1)

    OutputSerializer = RoundPanelSerializer
    lookup = staticmethod(round_for_manager)

    def perform(self, round_: Round, data: dict, user: User) -> Round:
        members = [PanelChoice(m["model_version"], m["role"], m["weight"]) for m in data["members"]]
        return round_panel_set(round_=round_, members=members, credit_rule=data["credit_rule"],
                               credit_k=data["credit_k"], user=user)
