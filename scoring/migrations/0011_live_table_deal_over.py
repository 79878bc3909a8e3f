"""The referee's clock stops when the referee ends a deal, until its result is recorded."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0010_hand_looks'),
    ]

    operations = [
        migrations.AddField(
            model_name='livetable',
            name='deal_over',
            field=models.BooleanField(default=False),
        ),
    ]
