from django.urls import path

from tournaments import views

urlpatterns = [
    path("tournaments/", views.index, name="tournaments"),
    path("tournaments/new/", views.create, name="tournament_create"),
    path("tournaments/new/solitaire/", views.create_solitaire, name="tournament_create_solitaire"),
    path("tournaments/series/<int:series_id>/", views.series, name="tournament_series"),
    path("tournaments/<int:tournament_id>/", views.detail, name="tournament"),
    path("tournaments/<int:tournament_id>/results.json", views.results_json, name="tournament_results_json"),
    path("tournaments/<int:tournament_id>/results.csv", views.results_csv, name="tournament_results_csv"),
    path("tournaments/<int:tournament_id>/matches.csv", views.matches_csv, name="tournament_matches_csv"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="tournament_join"),
    path("tournaments/<int:tournament_id>/withdraw/", views.withdraw, name="tournament_withdraw"),
    path("tournaments/<int:tournament_id>/start/", views.start, name="tournament_start"),
]
