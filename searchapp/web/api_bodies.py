"""JSON request bodies of the API: read, checked for shape and type, and handed on as the strings a query string has.

A search's parameters may come as a query string (GET) or as a JSON object (POST, for a query whose URL would be
longer than a proxy or client passes on: 5,000 characters are up to 60 KB URL-encoded). Both meet the same
validation in `searchapp.web.params`; here a JSON body only has to say what it is, name no parameter the operation
lacks and give each its JSON type, so a client learns which field was wrong and why.
"""
from __future__ import annotations

import json

from django.http import HttpRequest

from searchapp.errors import ApiError, shown

JSON_TYPES = {str: "a string", int: "an integer"}


def json_body(request: HttpRequest) -> dict:
    """The body as a JSON object, or a 400 `invalid_json` saying what is wrong with it."""
    try:
        data = json.loads(request.body.decode("utf-8-sig") or "{}")
    except UnicodeDecodeError as error:  # JSON is UTF-8; json.loads would guess UTF-16 from bytes
        raise ApiError("invalid_json", f"the body is not UTF-8 (byte {error.start})") from None
    except RecursionError:  # json.loads recurses once per level of nesting
        raise ApiError("invalid_json", "the body nests too deeply to read") from None
    except ValueError as error:
        raise ApiError("invalid_json", f"the body is not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise ApiError("invalid_json", "the body must be a JSON object")
    return data


Field = type | tuple[str, ...]
"""str, int, or the strings a choice takes."""


def json_params(request: HttpRequest, fields: dict[str, Field]) -> dict[str, str]:
    """The body's parameters as strings, once it is JSON (415 `unsupported_media_type` otherwise), names only
    `fields` (400 `unknown_parameter`) and gives each its type (400 `invalid_parameter`)."""
    if request.content_type != "application/json":
        raise ApiError("unsupported_media_type", f"the body must be JSON (Content-Type: application/json), got "
                                                 f"{shown(request.content_type or 'none')}", status=415)
    data = json_body(request)
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ApiError("unknown_parameter", f"unknown parameter {shown(unknown[0])}; this operation takes "
                                            f"{', '.join(fields)}")
    return {name: _as_text(name, value, fields[name]) for name, value in data.items()}


def _as_text(name: str, value: object, kind: Field) -> str:
    """`value` as its query-string spelling, once it has the JSON type `kind` (an integral number such as 10.0 is an
    integer, as JSON Schema counts them; true and false are not)."""
    if isinstance(kind, tuple):
        if value not in kind:
            raise ApiError("invalid_parameter", f"{name} must be one of {', '.join(kind)}, got {_described(value)}")
        return str(value)
    if kind is int and isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ApiError("invalid_parameter", f"{name} must be {JSON_TYPES[kind]}, got {_described(value)}")
    return str(value)


def _described(value: object) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"the number {shown(value)}"
    if isinstance(value, str):
        return f"the string {shown(value)}"
    return "an array" if isinstance(value, list) else "an object"
