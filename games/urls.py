from django.urls import path

from games import views

urlpatterns = [
    path("play/", views.play, name="play"),
    path("tables/", views.tables, name="tables"),
    path("daily/", views.daily, name="daily"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
]
