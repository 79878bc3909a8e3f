"""The API's JSON parser: DRF's, reading through the site's one JSON reader.

A module of its own: DRF reads ``DEFAULT_PARSER_CLASSES`` while ``rest_framework.views`` is being
imported, before modules that import it can be.
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions, parsers

from .jsonreader import JsonError, read_json


class JSONParser(parsers.JSONParser):
    """Too deep a document, a NUL character, NaN or a number out of range is a 400 saying so
    (:mod:`tournaments.web.jsonreader`). The body is already bounded by
    :class:`tournaments.web.uploads.BodyLimitMiddleware`."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            return read_json(stream.read())
        except JsonError as error:
            raise exceptions.ParseError(str(error)) from None
