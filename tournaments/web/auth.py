"""Logins: API tokens (obtain, revoke; revoked when the password changes) and the limit on wrong
passwords, kept by django-axes.

django-axes counts the failed sign-ins of one login from one address together (settings
``AXES_LOCKOUT_PARAMETERS``), so a stranger elsewhere cannot lock anyone out; after
``AXES_FAILURE_LIMIT`` of them that login is refused from that address, even with the right
password, until ``AXES_COOLOFF_TIME`` has passed. This covers every sign-in that goes through
Django's ``authenticate`` with the request: the login page, the admin's and ``POST
/api/auth/token/``.
"""

from __future__ import annotations

from typing import cast

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, parsers, permissions, serializers, status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response
from rest_framework.views import APIView

from .api import API_PREFIX, ApiSchema, ErrorSerializer, error_body
from .parsers import JSONParser


class LoginLimitBackend(AxesStandaloneBackend):
    """django-axes' check before every sign-in made for a request. ``authenticate`` called with
    no request (code on the server: a shell, the test client's ``login``) has no address to count
    by and is not limited; every sign-in from the network (the login pages, the token endpoint)
    passes its request."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def _minutes() -> int:
    return max(1, round(get_cool_off().total_seconds() / 60))


def lockout_message() -> str:
    return _("Too many failed sign-ins with this login from your address: try again in %(minutes)s minutes.") % {
        "minutes": _minutes()}


def lockout_response(request, original_response=None, credentials=None):
    """What a locked-out sign-in gets (``AXES_LOCKOUT_CALLABLE``): the login page with the reason
    (status 429), or under /api/ the JSON error form."""
    response: HttpResponse
    if request.path_info.startswith(API_PREFIX):
        response = JsonResponse(error_body(lockout_message()), status=status.HTTP_429_TOO_MANY_REQUESTS,
                                json_dumps_params={"ensure_ascii": False})
    else:
        form = AuthenticationForm(request, initial={"username": (credentials or {}).get("username", "")})
        response = render(request, "registration/login.html", {
            "form": form, "locked_out": lockout_message(), "next": request.POST.get("next", "")},
            status=status.HTTP_429_TOO_MANY_REQUESTS)
    response["Retry-After"] = str(int(get_cool_off().total_seconds()))
    return response


class LoginLocked(exceptions.APIException):
    status_code = status.HTTP_429_TOO_MANY_REQUESTS

    def __init__(self):
        super().__init__(lockout_message())
        self.wait = int(get_cool_off().total_seconds())  # DRF sends it as Retry-After


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class LoginSerializer(AuthTokenSerializer):
    """DRF's login and password, the login no longer than the user model's: a longer one is no
    login, refused before the sign-in (whose failure django-axes records in a column that short)."""

    username = serializers.CharField(label=gettext_lazy("Username"), write_only=True,
                                     max_length=cast(int, get_user_model()._meta.get_field("username").max_length))


class TokenView(APIView):
    """``/api/auth/token/``: POST a login and password for a token; DELETE revokes the token the
    request carries."""

    authentication_classes = [TokenAuthentication]
    schema = ApiSchema()
    # The site's JSON reader (tournaments.web.parsers), and forms as DRF's own token view takes them.
    parser_classes = [JSONParser, parsers.FormParser, parsers.MultiPartParser]
    throttle_classes = ()

    def get_permissions(self):
        if self.request.method == "DELETE":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    @extend_schema(
        summary="Get an API token", tags=["auth"], request=LoginSerializer,
        description="The same token each time until it is revoked (DELETE) or the password changes. After "
                    "too many wrong passwords for a login from one address, that login is refused from there "
                    "for a while (429, with Retry-After), even with the right password.",
        responses={200: TokenSerializer,
                   400: OpenApiResponse(ErrorSerializer, description="Wrong login or password."),
                   429: OpenApiResponse(ErrorSerializer, description="Too many failed sign-ins: wait.")})
    def post(self, request):
        serializer = LoginSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            # django-axes marks the request when this login is locked out from this address.
            if getattr(request, "axes_locked_out", False):
                raise LoginLocked()
            raise exceptions.ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    @extend_schema(
        summary="Revoke the token used", tags=["auth"], request=None,
        description="The token in the Authorization header stops working at once; POST for a new one.",
        responses={204: None,
                   401: OpenApiResponse(ErrorSerializer, description="No token, or not a valid one.")})
    def delete(self, request):
        if not isinstance(request.auth, Token):
            raise exceptions.NotAuthenticated()
        request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


@receiver(post_save, sender=get_user_model(), dispatch_uid="revoke-tokens-on-password-change")
def revoke_tokens_on_password_change(sender, instance, created, **kwargs) -> None:
    """A new password ends the API tokens issued under the old one. ``set_password`` keeps the
    new raw password until the save; a hash upgraded at login leaves it unset (not a change)."""
    if not created and getattr(instance, "_password", None) is not None:
        Token.objects.filter(user=instance).delete()
