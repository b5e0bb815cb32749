"""Sign-up and profile forms: every rule checked here has a message a person can act on."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import get_language_info
from django.utils.translation import gettext_lazy as _

from accounts import languages
from accounts.models import User
from accounts.validators import USERNAME_MAX, USERNAME_MIN, username_rule, validate_new_username_length


class LoginForm(AuthenticationForm):
    """Django's log-in form, whose refusal says "both fields may be case-sensitive": here a
    username is the same in any case (``CaseInsensitiveUserManager``), and only the password is."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "Please enter a correct username and password. The password is case-sensitive; the "
            "username is not."
        ),
    }


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_("For resetting your password, and reminders you can turn off. Never shown to anyone."),
    )

    class Meta:
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        # The model field allows 150 characters (older accounts have such names); new ones are
        # held to the shorter rule here, with the rule said up front.
        username.validators.append(validate_new_username_length)
        username.help_text = username_rule()
        username.widget.attrs.update(
            {
                "autocomplete": "username",
                "autofocus": True,
                "minlength": str(USERNAME_MIN),
                "maxlength": str(USERNAME_MAX),
            }
        )
        self.fields["email"].widget.attrs.update({"autocomplete": "email"})

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        taken = User.objects.named(username).only("closed_at").first()
        if taken is not None and taken.closed_at is not None:
            # Retired with its account (issue 45): nobody may pass for the person who left.
            raise forms.ValidationError(
                _("That username belonged to an account that was closed: it is retired, so choose another."),
                code="username_retired",
            )
        if taken is not None:
            raise forms.ValidationError(_("That username is taken (usernames ignore upper and lower case)."))
        return username

    def clean_email(self) -> str:
        return User.objects.normalize_email(self.cleaned_data["email"])

    # ModelForm's private hook is missing from django-stubs, hence the ignore.
    def _get_validation_exclusions(self) -> set[str]:
        # An address in use is not an error here (nor through the model's unique constraint):
        # an error would tell anyone which addresses have accounts. accounts.services.register
        # keeps the address with its account and mails the owner instead.
        return {*super()._get_validation_exclusions(), "email"}  # type: ignore[misc]


def language_choices() -> list[tuple[str, str]]:
    """The site's languages, each named in itself ("Italiano"): a reader finds their own."""
    return [(code, capfirst(get_language_info(code)["name_local"])) for code, _name in settings.LANGUAGES]


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=language_choices,
        required=False,
        help_text=_("The site's pages, notices and e-mails are in this language."),
    )

    class Meta:
        model = User
        fields = ("bio", "language", "reminder_emails", "turn_emails", "invite_policy", "hide_chat")
        widgets = {
            "bio": forms.Textarea(attrs={"rows": 3, "maxlength": 280}),
            "invite_policy": forms.RadioSelect,  # LP-9: three choices, all in sight
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form sent without the choice (one from before it existed) keeps the person's own.
        self.fields["invite_policy"].required = False
        # None chosen yet: the one the person is reading the site in now.
        self.initial["language"] = self.instance.language or translation.get_language()

    def clean_invite_policy(self) -> str:
        return str(self.cleaned_data.get("invite_policy") or self.instance.invite_policy)

    def clean_language(self) -> str:
        return str(self.cleaned_data.get("language") or self.instance.language)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, writing to each account in its own language: whoever asks for the link (not
    always the account's owner) does not choose the language of the owner's e-mail."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        with translation.override(languages.of(context.get("user"))):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )


class CloseAccountForm(forms.Form):
    """The person's password, asked again before their account closes (issue 45): a browser
    left signed in is not enough to close it."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password. Your account is still open."), code="wrong_password"
            )
        return password
