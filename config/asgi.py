import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from tournaments.web.uploads import BoundedBodies  # noqa: E402  (needs the settings set up above)

# Django reads a request's whole body before any middleware runs: this bounds it first.
application = BoundedBodies(django_application)
