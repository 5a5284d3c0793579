import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mathsearch.settings")
application = get_wsgi_application()

from searchapp.embedding import warm_up  # noqa: E402 (needs the settings configured above)

warm_up()
