"""The tournament's archive is a protocol batch without a tour: every batch names its tournament."""

import django.db.models.deletion
from django.db import migrations, models


def fill_tournament(apps, schema_editor):
    ProtocolBatch = apps.get_model("scoring", "ProtocolBatch")
    for batch in ProtocolBatch.objects.select_related("tour").only("pk", "tour__tournament_id"):
        ProtocolBatch.objects.filter(pk=batch.pk).update(tournament_id=batch.tour.tournament_id)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0012_partition_present"),
        ("tournaments", "0013_seeding_and_regulations_text"),
    ]

    operations = [
        migrations.AddField(
            model_name="protocolbatch",
            name="tournament",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="protocol_batches", to="tournaments.tournament"),
        ),
        migrations.RunPython(fill_tournament, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="protocolbatch",
            name="tournament",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="protocol_batches",
                                    to="tournaments.tournament"),
        ),
        migrations.AlterField(
            model_name="protocolbatch",
            name="tour",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="protocol_batches", to="tournaments.tour"),
        ),
        migrations.AddConstraint(
            model_name="protocolbatch",
            constraint=models.UniqueConstraint(condition=models.Q(("status__in", ["running", "assembling"]),
                                                                  ("tour__isnull", True)),
                                               fields=("tournament",), name="one_active_archive_per_tournament"),
        ),
    ]
