"""``manage.py rate``: every family's ratings recomputed from all rated results (README, "Ratings")."""

from django.core.management.base import BaseCommand

from tournaments import rating


class Command(BaseCommand):
    help = "Recompute the players' ratings of every game family from all the results, in order."

    def handle(self, *args, **options):
        for family, changed in rating.refresh_all().items():
            self.stdout.write(f"{family}: {'updated' if changed else 'unchanged'}")
