from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "tarabish_site.core"
    label = "core"
    verbose_name = _("Service")
    default_auto_field = "django.db.models.BigAutoField"
