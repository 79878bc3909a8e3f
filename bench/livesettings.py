"""Settings of ``bench/live.py`` (its own process and the servers it starts): the project's, with
PINs hashed by MD5 first. 1,000 players take their seats at once, and the production hasher's
~0.3 s of CPU per PIN would be most of what the benchmark measured; the bench's PINs are made
here, so the servers check them with the same cheap hasher. Never for a real site."""

from django.conf import global_settings

from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]

# A server error's traceback goes to the web server's log (without DEBUG Django would mail it),
# so that the bench can say what failed.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False}},
}
