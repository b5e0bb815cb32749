"""The "your turn" page (LP-8): the turn-based games waiting for the signed-in person's move."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from accounts import waiting
from web.http import AuthenticatedHttpRequest


@login_required
@require_safe
def your_turn(request: AuthenticatedHttpRequest) -> HttpResponse:
    listing = waiting.page(request.user.pk, request.GET.get("page"))
    return render(request, "accounts/your_turn.html", {"listing": listing})
