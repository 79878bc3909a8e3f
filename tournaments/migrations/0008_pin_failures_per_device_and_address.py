"""Wrong PINs are counted per (player, device), per (player, address) and per player from
anywhere (tournaments.pins): a row is keyed by text instead of by the login. The counts of the
old rows are dropped: they are minutes-long locks, not records."""

from django.db import migrations, models


def forget_counts(apps, schema_editor):
    apps.get_model("tournaments", "PinFailures").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_points_standings'),
    ]

    operations = [
        migrations.RunPython(forget_counts, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='pinfailures',
            name='pin_failures_once',
        ),
        migrations.RemoveField(
            model_name='pinfailures',
            name='device',
        ),
        migrations.AddField(
            model_name='pinfailures',
            name='key',
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.AddField(
            model_name='pinfailures',
            name='since',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='pinfailures',
            constraint=models.UniqueConstraint(fields=('player', 'key'), name='pin_failures_once'),
        ),
    ]
