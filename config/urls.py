from django.contrib import admin
from django.urls import include, path

from web import rules_page, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/", rules_page.rules, name="rules"),
    path("admin/", admin.site.urls),
    path("api/", include("web.api_urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("", include("talk.urls")),
    path("", include("talk.report_urls")),
]
