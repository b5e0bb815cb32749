from django.contrib import admin
from django.urls import include, path

from accounts.languages import choose_language, script_messages
from web import rules_page, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules/", rules_page.rules, name="rules"),
    # Django's set_language, which also saves a signed-in person's choice on their profile.
    path("i18n/setlang/", choose_language, name="set_language"),
    path("jsi18n/<str:language>/", script_messages, name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("api/", include("web.api_urls")),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("tournaments.urls")),
    path("", include("talk.urls")),
    path("", include("talk.report_urls")),
]
