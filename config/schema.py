"""OpenAPI schema for our API style: one ``APIView`` per operation with nested serializers.

drf-spectacular guesses serializers for generic views only. Our views (STYLE.md rule 1) name
theirs by convention, so the schema reads them from there instead of needing a decorator on
every view: ``InputSerializer`` is the request body, ``FilterSerializer`` the query parameters,
``OutputSerializer`` the response (a free-form object when a view has none), and a nested
``Pagination`` class makes a GET a paginated list. A view's ``success_status`` overrides the
documented success code (201 for POST, else 200) and ``output_media_type`` documents a file
download of that type instead of JSON. Error responses are documented the way
``core.apis.ApiErrorsMixin`` and DRF produce them.
"""
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

_BODY_METHODS = {"POST", "PUT", "PATCH"}
_ERROR = {
    "type": "object",
    "description": "`detail` for one message, or field names mapped to lists of messages.",
    "additionalProperties": True,
}


class StyleguideAutoSchema(AutoSchema):
    def _nested(self, name: str):
        serializer_class = getattr(self.view, name, None)
        return serializer_class() if serializer_class is not None else None

    def get_request_serializer(self):
        if self.method in _BODY_METHODS:
            return self._nested("InputSerializer")
        return None

    def get_override_parameters(self):
        filters = self._nested("FilterSerializer") if self.method == "GET" else None
        return [*super().get_override_parameters(), *([type(filters)] if filters is not None else [])]

    def _paginated(self) -> bool:
        return self.method == "GET" and getattr(self.view, "Pagination", None) is not None

    def _is_list_view(self, serializer=None) -> bool:
        return self._paginated() and not isinstance(serializer, dict)

    def _get_paginator(self):
        return self.view.Pagination() if self._paginated() else super()._get_paginator()

    def _resolve_path_parameters(self, variables):
        parameters = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            # Our integer path parameters are database ids, which start at 1 (the example lets
            # schema-driven clients such as schemathesis try an id that likely exists).
            if parameter["schema"].get("type") == "integer":
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
                parameter.setdefault("example", 1)
        return parameters

    def _get_serializer_name(self, serializer, direction, bypass_extensions=False) -> str:
        # Every view's serializers are called InputSerializer/OutputSerializer; name the component
        # after the view (QuestionSubmitApi.InputSerializer -> QuestionSubmitInput) so they differ.
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        owner, _, own = type(serializer).__qualname__.rpartition(".")
        if owner.endswith("Api") and own.endswith("Serializer"):
            return owner.removesuffix("Api") + name
        return name

    def get_response_serializers(self):
        output = self._nested("OutputSerializer") or OpenApiTypes.OBJECT
        success = str(getattr(self.view, "success_status", None) or ("201" if self.method == "POST" else "200"))
        media_type = getattr(self.view, "output_media_type", None)
        responses = {
            # A download (CSV, TSV...) is a file of that type, not JSON.
            **({(success, media_type): OpenApiTypes.STR} if media_type else {success: output}),
            "401": OpenApiResponse(_ERROR, description="Not signed in (no or a bad token)."),
            "403": OpenApiResponse(_ERROR, description="Signed in, but not allowed here."),
        }
        if self.method in _BODY_METHODS or self._nested("FilterSerializer") is not None or self._paginated():
            responses["400"] = OpenApiResponse(_ERROR, description="Invalid input; the messages say what to fix.")
        if "{" in self.path:
            responses["404"] = OpenApiResponse(_ERROR, description="No such object.")
        return responses
