import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mathsearch.settings")
application = get_wsgi_application()

from searchapp.web.warm_up import warm_up_process  # noqa: E402 (needs the settings configured above)

warm_up_process()
