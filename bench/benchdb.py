"""The database of a benchmark: its own PostgreSQL database (created when missing, migrated),
so that a benchmark never touches the development or test data."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(database_url: str) -> None:
    """Point Django at ``database_url`` (creating a PostgreSQL database if missing), set it up
    and migrate."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if database_url.startswith("postgres"):
        create_database(database_url)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def create_database(url: str) -> None:
    import psycopg

    parsed = urlparse(url)
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
