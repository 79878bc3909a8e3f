from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

# The logins README.md and `make run` announce: (username, password, superuser). Both are staff.
DEMO_USERS = [
    ("organiser", "demo-organiser", True),
    ("referee", "demo-referee", False),
]


class Command(BaseCommand):
    help = "Create the demo logins. Safe to run again: existing users are left as they are."

    def handle(self, *args, **options):
        User = get_user_model()
        for username, password, superuser in DEMO_USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": True, "is_superuser": superuser}
            )
            # Only on create: a password someone changed on purpose must survive a restart.
            if created:
                user.set_password(password)
                user.save(update_fields=["password"])
