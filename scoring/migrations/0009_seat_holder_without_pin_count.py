"""The seat claim counts wrong PINs through tournaments.pins: SeatHolder keeps no count of its own."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0008_live_table_fault'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='seatholder',
            name='failures',
        ),
        migrations.RemoveField(
            model_name='seatholder',
            name='locked_until',
        ),
    ]
