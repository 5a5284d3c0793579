from django.apps import AppConfig


class SearchAppConfig(AppConfig):
    name = "searchapp"
    verbose_name = "MathSearch"
