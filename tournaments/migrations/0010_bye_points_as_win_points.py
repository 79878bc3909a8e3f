"""A bye was worth ``bye_points`` (default 0) domino points for; it is now a win worth ``bye_points``
tournament points (default ``win_points``) and 0:0 (RULES 8). Every stored tournament's bye is
made worth its win, and its sports standings rank by tournament points where they ranked by wins
(the same order, now that a bye is worth a win). Signed protocols are documents: they stay as
issued."""

from django.db import migrations


def bye_points_as_win_points(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.all():
        regulations = tournament.regulations
        regulations["bye_points"] = regulations.get("win_points", 1)
        standings = regulations.get("standings")
        if (regulations.get("game", "sports") == "sports" and isinstance(standings, list)
                and "wins" in standings and "tournament_points" not in standings):
            regulations["standings"] = ["tournament_points" if m == "wins" else m for m in standings]
        tournament.save(update_fields=["regulations"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0009_federation_id_plain_text"),
    ]

    operations = [
        migrations.RunPython(bye_points_as_win_points, migrations.RunPython.noop),
    ]
