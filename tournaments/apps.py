from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        # Connects the receiver that revokes a user's API tokens when his password changes.
        from .web import auth  # noqa: F401
