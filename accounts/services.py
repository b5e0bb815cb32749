"""Writes about people."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts import languages
from accounts.models import User

log = logging.getLogger(__name__)


def register(*, username: str, email: str, password: str, site_url: str, language: str = "") -> User:
    """Creates the account, then mails the address given, once, in either case:

    - a free address becomes the account's, and gets a welcome (with how to reset the
      password, and what to do if someone else signed up with it);
    - an address that already belongs to an account stays with that account (one address,
      one account, so a reset link reaches one person), the new account gets none, and the
      address's owner gets a notice naming their account.
    The person at the form sees the same thing both times (their new account, logged in),
    so sign-up does not tell a stranger which addresses have accounts; one mail either way
    keeps the two paths close in time too. ``site_url`` is the site's root, for the links;
    ``language`` the one the person signed up in (their notices and e-mails are in it).
    """
    owner = User.objects.filter(email__iexact=email).first()
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                username=username, email="" if owner else email, password=password, language=language
            )
    except IntegrityError:
        # Another sign-up took the address between the look and the insert: the same case as
        # an address in use. (A username taken in that moment stays an error, as before.)
        owner = User.objects.filter(email__iexact=email).first()
        if owner is None:
            raise
        user = User.objects.create_user(username=username, email="", password=password, language=language)
    context = {
        "site_name": settings.SITE_NAME,
        "username": user.username,
        "owner": owner.username if owner else "",
        "login_url": site_url.rstrip("/") + reverse("login"),
        "reset_url": site_url.rstrip("/") + reverse("password_reset"),
    }
    kind = "address_in_use" if owner else "welcome"
    # The welcome in the language the form was filled in (the new account's, saved above); the
    # warning in its owner's, not in the stranger's at the form.
    with translation.override(languages.of(owner or user)):
        subject = render_to_string(f"registration/signup_{kind}_subject.txt", context).strip()
        body = render_to_string(f"registration/signup_{kind}_email.txt", context)
    try:
        send_mail(subject, body, None, [owner.email if owner else email])
    except Exception:
        # The account exists either way; a mail server that is down must not turn sign-up
        # into an error page (which, for one path only, would also say which one it was).
        log.exception("sign-up mail to a new account's address failed (%s)", kind)
    return user
