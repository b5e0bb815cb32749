"""The public JSON API's routes, under ``/api/`` (docs/api.md)."""

from django.urls import path, re_path

from web import api

urlpatterns = [
    path("users/<str:username>", api.user, name="api_user"),
    path("users/<str:username>/games", api.user_games, name="api_user_games"),
    path("leaderboards/<str:game>", api.leaderboard, name="api_leaderboard"),
    re_path(r"^(?P<rest>.*)$", api.not_found, name="api_not_found"),
]
