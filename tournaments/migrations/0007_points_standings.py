"""A ``points`` tournament's standings were sports' criteria; they are now the points game's own
(games won, then points scored: scoring.engine.regulations.POINTS_STANDINGS_METRICS), and the
regulations refuse any other. A stored points tournament gets them, so that it still reads."""

from django.db import migrations

POINTS_STANDINGS = ["games_won", "points_scored"]


def points_standings(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(regulations__game="points"):
        standings = tournament.regulations.get("standings")
        if standings is not None and not set(standings) <= set(POINTS_STANDINGS):
            tournament.regulations["standings"] = POINTS_STANDINGS
            tournament.save(update_fields=["regulations"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0006_goat_tables"),
    ]

    operations = [
        migrations.RunPython(points_standings, migrations.RunPython.noop),
    ]
