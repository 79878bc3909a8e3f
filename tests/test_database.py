import pytest
from django.contrib.auth import get_user_model
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_runs_on_postgresql():
    """CI's proof that the suite ran on PostgreSQL, with the migrations applied."""
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")

    get_user_model().objects.create_user("pg-check", password="pg-check-password")
    assert get_user_model().objects.filter(username="pg-check").exists()
