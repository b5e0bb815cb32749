from django.urls import path

from games import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("play/<slug:game>/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/act/", views.act, name="game_act"),
    path("games/<int:game_id>/undo/", views.undo, name="game_undo"),
    path("games/<int:game_id>/hint/", views.hint, name="game_hint"),
    path("games/<int:game_id>/solution/", views.solution, name="game_solution"),
    path("daily/", views.daily, name="daily"),
    path("daily/archive/", views.daily_archive, name="daily_archive"),
    path("daily/<slug:game>/<str:date>/", views.daily_detail, name="daily_detail"),
    path("daily/<slug:game>/<str:date>/play/", views.play_daily, name="daily_play"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("tables/", views.tables, name="tables"),
]
