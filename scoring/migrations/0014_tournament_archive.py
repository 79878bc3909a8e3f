"""The tournament's archive is a protocol batch of its own kind without a tour: every batch names
its tournament."""

import django.db.models.deletion
from django.db import migrations, models


def fill_tournament(apps, schema_editor):
    ProtocolBatch = apps.get_model("scoring", "ProtocolBatch")
    for batch in ProtocolBatch.objects.select_related("tour").only("pk", "tour__tournament_id"):
        ProtocolBatch.objects.filter(pk=batch.pk).update(tournament_id=batch.tour.tournament_id)


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0013_paper_batches"),
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
        migrations.AlterField(
            model_name="protocolbatch",
            name="kind",
            field=models.CharField(choices=[("protocols", "signed protocols"), ("paper", "paper protocols"),
                                            ("archive", "tournament archive")],
                                   default="protocols", max_length=20, verbose_name="kind"),
        ),
        migrations.AddConstraint(
            model_name="protocolbatch",
            constraint=models.UniqueConstraint(condition=models.Q(("kind", "archive"),
                                                                  ("status__in", ["running", "assembling"])),
                                               fields=("tournament",), name="one_active_archive_per_tournament"),
        ),
        migrations.AddConstraint(
            model_name="protocolbatch",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("kind", "archive"), ("tour__isnull", True)),
                                   models.Q(models.Q(("kind", "archive"), _negated=True), ("tour__isnull", False)),
                                   _connector="OR"),
                name="batch_tour_unless_archive"),
        ),
    ]
