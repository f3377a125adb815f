"""JSON API of a round's near-duplicate questions, for its course's instructors.

GET  /api/rounds/<id>/duplicates/           near-duplicate pairs (?threshold=)
"""
from rest_framework import serializers
from rest_framework.request import Request

from collector.selectors.duplicates import round_duplicate_pairs
from collector.selectors.rounds import round_for_manager
from core.apis import ListApi


class RoundDuplicatesApi(ListApi):
    """GET pairs of near-duplicate questions with at least one in the round (the other may be in
    another round of the course or imported), most similar first."""

    class FilterSerializer(serializers.Serializer):
        threshold = serializers.FloatField(required=False, min_value=0.1, max_value=1.0,
                                           help_text="Smallest Jaccard similarity of the word sets "
                                                     "(default STUMPER_DUPLICATE_THRESHOLD)")

    class OutputSerializer(serializers.Serializer):
        a = serializers.DictField(help_text="{id, round_id, prompt, choices}")
        b = serializers.DictField(help_text="{id, round_id, prompt, choices}")
        similarity = serializers.FloatField()

    def items(self, request: Request, round_id: int) -> list[dict]:
        round_ = round_for_manager(user=request.user, round_id=round_id)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return round_duplicate_pairs(round_=round_, threshold=filters.validated_data.get("threshold"))
