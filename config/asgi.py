import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from scoring.web.phones import PhoneRoutes  # noqa: E402  (needs the settings set up above)
from tournaments.web.uploads import BoundedBodies  # noqa: E402

# Django reads a request's whole body before any middleware runs: this bounds it first. A phone's
# requests at a live table are answered beside Django's handler, by the same functions (PhoneRoutes).
application = BoundedBodies(PhoneRoutes(django_application))
