"""The sign-up form: Django's own, with an optional e-mail address for password resets."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address (optional)"),
        required=False,
        help_text=_("Only to reset your password if you forget it. Nobody else sees it."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
