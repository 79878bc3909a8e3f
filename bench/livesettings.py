"""Settings of ``bench/live.py`` (its own process and the servers it starts): the project's, with
PINs hashed by MD5 first. 1,000 players take their seats at once, and the production hasher's
~0.3 s of CPU per PIN would be most of what the benchmark measured; the bench's PINs are made
here, so the servers check them with the same cheap hasher. Never for a real site."""

from django.conf import global_settings

from config.settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]
