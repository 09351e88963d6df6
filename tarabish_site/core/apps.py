from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "tarabish_site.core"
    label = "core"
    verbose_name = "Service"
    default_auto_field = "django.db.models.BigAutoField"
