"""Bounds on request bodies, checked before anything reads them.

Django counts a form's fields against ``DATA_UPLOAD_MAX_MEMORY_SIZE`` but not its files (they
are spooled to disk, however large), and DRF's parsers read a JSON or CSV body whole without
looking at that setting. :class:`BodyLimitMiddleware` compares a request's Content-Length with
the limit of the view it goes to before the CSRF check or the view reads a byte, and answers
413 (JSON under /api/, a page elsewhere). Under WSGI a body is read only up to its
Content-Length (one sent without it reads as empty), so that header bounds what is read.

A view that takes a file declares the largest one with :func:`upload_limit` (at most
``settings.UPLOAD_MAX_SIZE``); its body may be that much plus :data:`MULTIPART_ALLOWANCE` for the
form's other fields and the multipart framing, and the view checks the file's own size. Every
other view takes a body of ``DATA_UPLOAD_MAX_MEMORY_SIZE`` at most.
"""

from __future__ import annotations

from typing import Callable

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from .api import API_PREFIX, error_body

MULTIPART_ALLOWANCE = 64 * 1024


def upload_limit(size: int | str) -> Callable:
    """Declare the largest file a view (a function, or a method of a DRF view) takes: a number of
    bytes, or the name of a setting holding it (read at each request)."""

    def declare(view: Callable) -> Callable:
        view.upload_limit = size  # type: ignore[attr-defined]
        return view

    return declare


def file_limit(view_func: Callable, method: str) -> int | None:
    """The largest file the view takes, or None when it takes no file."""
    declared = getattr(view_func, "upload_limit", None)
    view_class = getattr(view_func, "cls", None)  # a DRF view: the handler of the method
    if declared is None and view_class is not None:
        handler = (getattr(view_func, "actions", None) or {}).get(method.lower(), method.lower())
        declared = getattr(getattr(view_class, handler, None), "upload_limit", None)
    if declared is None:
        return None
    size = getattr(settings, declared) if isinstance(declared, str) else declared
    return min(size, settings.UPLOAD_MAX_SIZE)


def body_limit(view_func: Callable, method: str) -> int | None:
    """The largest body the view is sent (None: no limit, when DATA_UPLOAD_MAX_MEMORY_SIZE is None)."""
    size = file_limit(view_func, method)
    if size is not None:
        return size + MULTIPART_ALLOWANCE
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


class BodyLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs) -> HttpResponse | None:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty
        limit = body_limit(view_func, request.method)
        if limit is None or length <= limit:
            return None
        size = file_limit(view_func, request.method)
        message = (_("The file is too large: at most %(size)s.") % {"size": filesizeformat(size)} if size is not None
                   else _("The request is too large: at most %(size)s.") % {"size": filesizeformat(limit)})
        return too_large(request, message)


def too_large(request, message: str) -> HttpResponse:
    if request.path_info.startswith(API_PREFIX):
        return JsonResponse(error_body(message), status=413, json_dumps_params={"ensure_ascii": False})
    return render(request, "413.html", {"message": message}, status=413)
