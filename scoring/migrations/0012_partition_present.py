"""The players checked in at a score-sheet table."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0011_live_table_deal_over'),
    ]

    operations = [
        migrations.AddField(
            model_name='partition',
            name='present',
            field=models.JSONField(blank=True, default=list, verbose_name='seats present'),
        ),
    ]
