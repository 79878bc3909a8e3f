"""What every API answer shares: the error body, the language, the error responses in the schema.

Every error under /api/ is JSON of one form::

    {"detail": "one message a person can act on", "errors": {"field": ["message", ...]}}

``errors`` is there only when fields were wrong. Services raise Django's ValidationError (400),
PermissionDenied (403) and Http404 (404); DRF raises its own; Django's own error pages (an unknown
address, a server error) are replaced by :class:`ApiMiddleware`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from django.db import OperationalError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, viewsets
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from psycopg_pool import PoolTimeout

API_PREFIX = "/api/"
_NON_FIELD_KEYS = {NON_FIELD_ERRORS, api_settings.NON_FIELD_ERRORS_KEY, "detail"}


class ErrorSerializer(serializers.Serializer):
    """The body of every error answer, for the schema."""

    detail = serializers.CharField(help_text="What went wrong, as one message a person can act on.")
    # DRF's metaclass takes declared fields out of the class: this field leaves Serializer.errors be.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Messages by field (nested fields joined with dots), when fields were wrong.")


def error_body(detail: str, errors: dict[str, list[str]] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": str(detail)}
    if errors:
        body["errors"] = errors
    return body


def flatten(data: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested error data (dicts of fields, lists of items) as {"a.0.b": [messages]}."""
    if isinstance(data, dict):
        out: dict[str, list[str]] = {}
        for key, value in data.items():
            out.update(flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(data, (list, tuple)):
        if all(not isinstance(item, (dict, list, tuple)) for item in data):
            return {prefix: [str(item) for item in data]} if data else {}
        out = {}
        for index, item in enumerate(data):
            out.update(flatten(item, f"{prefix}.{index}" if prefix else str(index)))
        return out
    return {prefix: [str(data)]}


def _split(data: Any) -> tuple[list[str], dict[str, list[str]]]:
    """General messages and messages by field."""
    if not isinstance(data, dict):
        return [m for messages in flatten(data).values() for m in messages], {}
    general: list[str] = []
    fields: dict[str, list[str]] = {}
    for key, value in data.items():
        if key in _NON_FIELD_KEYS:
            general += [m for messages in flatten(value).values() for m in messages]
        else:
            fields.update(flatten(value, str(key)))
    return general, fields


def _body(data: Any) -> dict[str, Any]:
    general, fields = _split(data)
    # "field: message", unless the message names its field already ("regulations.target: ...").
    messages = general + [message if message.startswith((f"{field}:", f"{field}.")) else f"{field}: {message}"
                          for field, field_messages in fields.items() for message in field_messages]
    return error_body(" ".join(messages) or str(exceptions.ValidationError.default_detail), fields)


class Busy(exceptions.APIException):
    status_code = 503
    default_detail = _("The server is busy: try again in a moment.")
    default_code = "busy"


#: Seconds a client is told to wait when the server is busy.
BUSY_RETRY_AFTER = 1


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, plus Django's ValidationError as 400, every body in the one error form;
    no database connection free in time (an overloaded server) is a 503 to retry, not a 500."""
    busy = isinstance(exc, OperationalError) and isinstance(exc.__cause__, PoolTimeout)
    if busy:
        exc = Busy()
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    elif isinstance(exc, DjangoPermissionDenied):
        # A service's refusal, answered as DRF answers its permission classes: a client that did
        # not log in is told so.
        request = context.get("request")
        view = context.get("view")
        if request is not None and request.authenticators and not request.successful_authenticator:
            exc = exceptions.NotAuthenticated()
            auth_header = view.get_authenticate_header(request) if view is not None else None
            # DRF's handler reads it with getattr(): no exception class declares it.
            exc.auth_header = auth_header  # type: ignore[attr-defined]
            if not auth_header:
                exc.status_code = 403
    response = drf_exception_handler(exc, context)
    if response is not None:
        response.data = _body(response.data)
        if busy:
            response["Retry-After"] = str(BUSY_RETRY_AFTER)
    return response


def _not_json(response) -> bool:
    return not response.get("Content-Type", "").startswith("application/json")


_STATUS_DETAIL = {
    400: exceptions.ParseError.default_detail,
    401: exceptions.NotAuthenticated.default_detail,
    403: exceptions.PermissionDenied.default_detail,
    404: exceptions.NotFound.default_detail,
    405: exceptions.MethodNotAllowed.default_detail,
}


class ApiMiddleware:
    """Under /api/: answer in the language the client asks for (Accept-Language, or the language
    cookie; Russian by default), and turn Django's HTML error pages into JSON errors."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        if response.status_code >= 400 and not isinstance(response, Response) and _not_json(response):
            detail = _STATUS_DETAIL.get(response.status_code)
            if detail is None:
                server = response.status_code >= 500
                detail = exceptions.APIException.default_detail if server else response.reason_phrase
            response = JsonResponse(error_body(str(detail)), status=response.status_code,
                                    json_dumps_params={"ensure_ascii": False})
        patch_vary_headers(response, ("Accept-Language",))
        return response


class ApiSchema(AutoSchema):
    """The error answers of an operation in the schema, beside its success answer."""

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        codes = {"404": "Not found, or not visible to you."} if "{" in self.path else {}
        if self._is_list_view() and self._get_paginator() is not None:
            codes["404"] = "No such page."
        if any(parameter["in"] == "query" for parameter in self._get_parameters()):
            codes["400"] = "A query parameter is invalid."
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            codes = {
                "400": "The request is invalid, or the action is not possible now.",
                "401": "Not authenticated.",
                "403": "Not allowed to you.",
                **codes,
            }
            if self.method != "DELETE":
                codes["415"] = "The body is not of a type this operation reads (JSON, or the form it names)."
        for code, description in codes.items():
            if code not in responses:
                responses[code] = self._get_response_for_code(
                    OpenApiResponse(ErrorSerializer, description=description), code, direction=direction)
        return responses


class ApiViewSet(viewsets.GenericViewSet):
    """The base of the API's viewsets: the error answers in the schema, lists in pages."""

    schema = ApiSchema()

    def page(self, queryset: QuerySet, serializer_class=None, **context: Any) -> Response:
        """One page of ``queryset`` (:class:`.pagination.Pagination`), serialized (``context``
        added to the serializer's)."""
        serializer_class = serializer_class or self.get_serializer_class()
        items = self.paginate_queryset(queryset)
        return self.get_paginated_response(
            serializer_class(items, many=True, context={**self.get_serializer_context(), **context}).data)


def valid(serializer_class, data, **kwargs) -> dict:
    """``data`` (a request's body or query) checked by ``serializer_class``: a 400 naming the bad
    fields if not."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def one(queryset: QuerySet, message: str, **lookup):
    """The one object of ``queryset`` matching ``lookup``, or a 404 with ``message``."""
    obj = queryset.filter(**lookup).first()
    if obj is None:
        raise exceptions.NotFound(message)
    return obj
