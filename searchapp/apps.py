from django.apps import AppConfig


class SearchAppConfig(AppConfig):
    name = "searchapp"
    verbose_name = "MathSearch"

    def ready(self) -> None:
        from searchapp import checks  # noqa: F401  (registers the start-up checks)
        from searchapp.indexing import uploads  # noqa: F401  (deletes the uploads of deleted jobs)
