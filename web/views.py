"""Site-wide pages: the home page and the health report."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games import kinds
from web.health import run_checks


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": kinds.GAMES})


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, Redis and a Celery worker all answer, else 503 naming the failure."""
    results = run_checks()
    healthy = all(result.ok for result in results)
    body = {"status": "ok" if healthy else "failing", **{r.name: r.as_dict() for r in results}}
    return JsonResponse(body, status=200 if healthy else 503)
