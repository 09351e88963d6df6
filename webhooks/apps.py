from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    """Outbound webhooks for integrators."""

    name = "webhooks"
    verbose_name = _("Webhooks")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tarabish_site import events
        from webhooks.services import deliveries_insert

        events.register(deliveries_insert)
