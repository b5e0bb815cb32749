"""A person's own account: downloading their data, closing it (issue 45)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from accounts import data_export
from accounts.closing import close_account as close
from accounts.forms import CloseAccountForm
from web.http import AuthenticatedHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def close_account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The confirm page, and its form: the account closes only with the person's password."""
    form = CloseAccountForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        close(request.user)
        logout(request)
        messages.success(request, _("Your account is closed. Thank you for playing."))
        return redirect("home")
    response = render(request, "accounts/close_account.html", {"form": form})
    add_never_cache_headers(response)
    return response


@login_required
@require_safe
def account_data(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Everything the site holds about the signed-in person, as one JSON file
    (``accounts.data_export``), streamed."""
    response = StreamingHttpResponse(data_export.chunks(request.user), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{data_export.filename(request.user)}"'
    # Personal data: kept by no cache on the way, nor by the browser's.
    add_never_cache_headers(response)
    return response
