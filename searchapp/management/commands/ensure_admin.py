"""Create the admin account once: credentials from ADMIN_USERNAME / ADMIN_PASSWORD, or generated and printed."""
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from mathsearch.env import env_str


class Command(BaseCommand):
    help = "Create the admin account if it does not exist yet."

    def handle(self, *args, **options):
        username = env_str("ADMIN_USERNAME", "admin")
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"admin account {username!r} exists")
            return
        password = env_str("ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        User.objects.create_superuser(username=username, email="", password=password)
        shown = password if not env_str("ADMIN_PASSWORD") else "(from ADMIN_PASSWORD)"
        self.stdout.write(self.style.SUCCESS(
            f"created admin account {username!r} with password {shown} — shown once, keep it"
        ))
