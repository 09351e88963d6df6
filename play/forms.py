"""The lobby's forms: a new table, and signing up in one step."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoring.wording import preset_choices


class TableForm(forms.Form):
    name = forms.CharField(label=_("Table name"), max_length=60, required=False)
    ruleset_preset = forms.ChoiceField(
        label=_("Rules"), choices=preset_choices, initial="cape-breton-standard"
    )
    public = forms.BooleanField(
        label=_("Public: listed in the lobby (otherwise by invite link only)"),
        required=False,
        initial=True,
    )
    computers = forms.BooleanField(
        label=_("Computer players take the empty seats"), required=False, initial=True
    )
    replace_after = forms.TypedChoiceField(
        label=_("When a player leaves"),
        choices=[("", _("The table waits")), ("60", _("A computer plays after 1 minute"))],
        coerce=int,
        empty_value=None,
        required=False,
    )


class SignUpForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=100,
        help_text=_("Your name at the table and on the score sheets."),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise ValidationError(_("This username is taken: choose another."))
        return username

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        password = data.get("password")
        if password:
            user = get_user_model()(username=data.get("username", ""))
            try:
                password_validation.validate_password(password, user)
            except ValidationError as exc:
                self.add_error("password", exc)
        return data
