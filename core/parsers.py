"""The REST API's JSON parser (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``).

Its own module, importing nothing of DRF's views: DRF reads the setting while ``rest_framework.views``
is still being imported. The body's size is Django's to cap (DRF reads ``request.body``, so
``DATA_UPLOAD_MAX_MEMORY_SIZE`` applies; ``core.apis.ApiErrorsMixin`` answers it with 413).
"""
import json
from typing import Any

from rest_framework import exceptions
from rest_framework.parsers import JSONParser, get_encoding

from core.validators import json_error_reason
from mlcore.data.bounded_json import load_json


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser through the one bounded reader (depth, numbers, no NaN): a body beyond a
    limit is a 400 that says which, never a ``RecursionError`` or a 500."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            return load_json(stream.read().decode(get_encoding(parser_context or {})))
        except UnicodeDecodeError:
            raise exceptions.ParseError("JSON parse error - the body is not text in its charset.") from None
        except json.JSONDecodeError as error:
            raise exceptions.ParseError(f"JSON parse error - {json_error_reason(error)} (line {error.lineno}, "
                                        f"column {error.colno}).") from None
